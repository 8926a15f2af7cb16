import { statSync } from "node:fs";
import { packageFiles, resolveBinary } from "../binary.js";
import type { ResolvedBinary } from "../types.js";

export type { ResolvedBinary };

/** The npm package ships a small placeholder until its postinstall has run: skip it. */
function isRealPackageBinary(p: string): boolean {
  try {
    return statSync(p).size > 100_000;
  } catch {
    return false;
  }
}

function fromPackage(): string[] {
  // The platform package holds the same binary; used when the postinstall step did not run.
  const arch = process.arch === "arm64" ? "arm64" : "x64";
  const plat = `${process.platform}-${arch}`;
  return packageFiles([
    ["@anthropic-ai/claude-code", "bin/claude.exe"],
    [`@anthropic-ai/claude-code-${plat}`, "claude"],
    [`@anthropic-ai/claude-code-${plat}-musl`, "claude"],
  ]);
}

/**
 * The claude binary: `--agent-bin`, then SKILLBENCH_CLAUDE_BIN, then this package's
 * own pinned dependency, then PATH.
 */
export function resolveClaudeBinary(opts: {
  agentBin?: string | undefined;
  env?: Record<string, string | undefined>;
}): ResolvedBinary | { error: string } {
  return resolveBinary({
    agentBin: opts.agentBin,
    env: opts.env,
    envVar: "SKILLBENCH_CLAUDE_BIN",
    fromPackage,
    accept: isRealPackageBinary,
    command: "claude",
    install: "run `npm install` (it brings @anthropic-ai/claude-code)",
  });
}
