import { accessSync, constants, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { ResolvedBinary } from "./types.js";

export function isExecutable(p: string): boolean {
  try {
    accessSync(p, constants.X_OK);
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

/** `<dir of the package's package.json>/<rel>` for each package that resolves; [] when none. */
export function packageFiles(candidates: readonly (readonly [string, string])[]): string[] {
  const require = createRequire(import.meta.url);
  const out: string[] = [];
  for (const [pkg, rel] of candidates) {
    try {
      out.push(path.join(path.dirname(require.resolve(`${pkg}/package.json`)), rel));
    } catch {
      /* not installed */
    }
  }
  return out;
}

export function findOnPath(name: string, envPath: string | undefined): string | null {
  for (const dir of (envPath ?? "").split(path.delimiter)) {
    if (!dir) continue;
    const p = path.join(dir, name);
    if (isExecutable(p)) return p;
  }
  return null;
}

export interface BinarySearch {
  agentBin?: string | undefined;
  env?: Record<string, string | undefined> | undefined;
  /** e.g. SKILLBENCH_CODEX_BIN */
  envVar: string;
  /** Candidate files from this package's (optional) dependencies, best first. */
  fromPackage: () => string[];
  /** A package file must pass this (e.g. not an install placeholder). */
  accept?: (p: string) => boolean;
  /** The command name on PATH. */
  command: string;
  /** How to get it, for the error message. */
  install: string;
}

/**
 * The agent binary: `--agent-bin`, then the agent's SKILLBENCH_<AGENT>_BIN, then this package's
 * own pinned dependency, then PATH.
 */
export function resolveBinary(s: BinarySearch): ResolvedBinary | { error: string } {
  const env = s.env ?? process.env;
  if (s.agentBin) {
    const p = path.resolve(s.agentBin);
    return isExecutable(p)
      ? { path: p, source: "--agent-bin" }
      : { error: `--agent-bin ${p} is not an executable file` };
  }
  const fromEnv = env[s.envVar];
  if (fromEnv) {
    const p = path.resolve(fromEnv);
    return isExecutable(p)
      ? { path: p, source: s.envVar }
      : { error: `${s.envVar}=${p} is not an executable file` };
  }
  const accept = s.accept ?? isExecutable;
  const pkg = s.fromPackage().find((p) => isExecutable(p) && accept(p));
  if (pkg) return { path: pkg, source: "package" };
  const onPath = findOnPath(s.command, env.PATH);
  if (onPath) return { path: onPath, source: "PATH" };
  return {
    error: `no ${s.command} binary found: ${s.install}, or pass --agent-bin, or set ${s.envVar}`,
  };
}
