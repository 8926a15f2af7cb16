import { versionOf } from "../agents/version.js";

/** `claude --version`, e.g. "2.1.328 (Claude Code)" -> "2.1.328". */
export function agentVersion(
  bin: string,
  env: Record<string, string>,
  cwd: string,
): Promise<string | null> {
  return versionOf(bin, ["--version"], env, cwd);
}
