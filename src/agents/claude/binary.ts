import { accessSync, constants, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

export interface ResolvedBinary {
  path: string;
  source: "--agent-bin" | "SKILLBENCH_CLAUDE_BIN" | "package" | "PATH";
}

function isExecutable(p: string): boolean {
  try {
    accessSync(p, constants.X_OK);
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

/** The npm package ships a small placeholder until its postinstall has run: skip it. */
function isRealPackageBinary(p: string): boolean {
  try {
    return isExecutable(p) && statSync(p).size > 100_000;
  } catch {
    return false;
  }
}

function fromPackage(): string | null {
  const require = createRequire(import.meta.url);
  const candidates: string[] = [];
  try {
    const pkg = require.resolve("@anthropic-ai/claude-code/package.json");
    candidates.push(path.join(path.dirname(pkg), "bin", "claude.exe"));
  } catch {
    /* not installed */
  }
  // The platform package holds the same binary; used when the postinstall step did not run.
  const arch = process.arch === "arm64" ? "arm64" : "x64";
  const plat = `${process.platform}-${arch}`;
  for (const name of [
    `@anthropic-ai/claude-code-${plat}`,
    `@anthropic-ai/claude-code-${plat}-musl`,
  ]) {
    try {
      const pkg = require.resolve(`${name}/package.json`);
      candidates.push(path.join(path.dirname(pkg), "claude"));
    } catch {
      /* not installed for this platform */
    }
  }
  return candidates.find(isRealPackageBinary) ?? null;
}

function fromPath(envPath: string | undefined): string | null {
  for (const dir of (envPath ?? "").split(path.delimiter)) {
    if (!dir) continue;
    const p = path.join(dir, "claude");
    if (isExecutable(p)) return p;
  }
  return null;
}

/**
 * The claude binary: `--agent-bin`, then SKILLBENCH_CLAUDE_BIN, then this package's
 * own pinned dependency, then PATH. Returns null when none is found.
 */
export function resolveClaudeBinary(opts: {
  agentBin?: string | undefined;
  env?: Record<string, string | undefined>;
}): ResolvedBinary | { error: string } {
  const env = opts.env ?? process.env;
  if (opts.agentBin) {
    const p = path.resolve(opts.agentBin);
    return isExecutable(p)
      ? { path: p, source: "--agent-bin" }
      : { error: `--agent-bin ${p} is not an executable file` };
  }
  const fromEnv = env.SKILLBENCH_CLAUDE_BIN;
  if (fromEnv) {
    const p = path.resolve(fromEnv);
    return isExecutable(p)
      ? { path: p, source: "SKILLBENCH_CLAUDE_BIN" }
      : { error: `SKILLBENCH_CLAUDE_BIN=${p} is not an executable file` };
  }
  const pkg = fromPackage();
  if (pkg) return { path: pkg, source: "package" };
  const onPath = fromPath(env.PATH);
  if (onPath) return { path: onPath, source: "PATH" };
  return {
    error:
      "no claude binary found: run `npm install` (it brings @anthropic-ai/claude-code), or pass --agent-bin, or set SKILLBENCH_CLAUDE_BIN",
  };
}
