import { runProcess } from "../util/process.js";

/** Run `<bin> <args>` and take the first version number it prints, e.g. "2.1.328 (Claude Code)" -> "2.1.328". */
export async function versionOf(
  bin: string,
  args: string[],
  env: Record<string, string>,
  cwd: string,
): Promise<string | null> {
  let out = "";
  const r = await runProcess({
    cmd: bin,
    args,
    cwd,
    env,
    timeoutMs: 30_000,
    onStdout: (c) => (out += c.toString()),
  });
  if (r.exitCode !== 0) return null;
  const m = /(\d+\.\d+\.\d+\S*)/.exec(out);
  return m?.[1] ?? (out.trim() || null);
}
