/**
 * A task's reference solution (docs/health.md): `solution/files/` copied over the prepared
 * workspace, then `solution/solve.sh` (the Harbor / Terminal-Bench convention) run in it, under
 * the task's sandbox, within the task's timeout. Never throws for what the solution does: every
 * end is a named outcome.
 */
import { cp, readdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import type { TaskHealth } from "../core/health.js";
import { errorMessage } from "../core/errors.js";
import type { Launcher, LaunchSpec } from "../sandbox/types.js";
import { killMarked, newRunMarker, RUN_MARKER_VAR } from "../util/process.js";
import type { RunDirs } from "../util/run-dirs.js";
import { stripControls } from "../util/safe-text.js";
import { runCaptured } from "../validators/run-process.js";
import type { OracleObservation } from "./classify.js";

/** Where solve.sh and its files are while it runs (removed before the validators run). */
const SOLUTION_IN_WORKSPACE = ".skillbench-solution";

export interface TaskSolution {
  kind: NonNullable<TaskHealth["solution"]>;
  /** The task's solution/ folder. */
  dir: string;
  script: string | null;
  files: string | null;
}

async function kindOf(p: string): Promise<"file" | "dir" | null> {
  const s = await stat(p).catch(() => null);
  return s === null ? null : s.isDirectory() ? "dir" : s.isFile() ? "file" : null;
}

/** The solution a task folder ships, or null (the task is then `unverified`). */
export async function findSolution(taskDir: string): Promise<TaskSolution | null> {
  const dir = path.join(taskDir, "solution");
  if ((await kindOf(dir)) !== "dir") return null;
  const script = path.join(dir, "solve.sh");
  const files = path.join(dir, "files");
  const hasScript = (await kindOf(script)) === "file";
  const hasFiles = (await kindOf(files)) === "dir";
  if (!hasScript && !hasFiles) return null;
  return {
    kind: hasScript && hasFiles ? "files+solve.sh" : hasScript ? "solve.sh" : "files",
    dir,
    script: hasScript ? script : null,
    files: hasFiles ? files : null,
  };
}

/** Every file under `dir` with its size and time, to see what a process changed there. */
async function stamps(dir: string, skip: (rel: string) => boolean): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  async function walk(rel: string): Promise<void> {
    const entries = await readdir(path.join(dir, rel), { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (skip(r)) continue;
      const s = await stat(path.join(dir, r)).catch(() => null);
      if (s === null) continue;
      if (e.isDirectory()) await walk(r);
      else out.set(r, `${s.size}:${s.mtimeMs}`);
    }
  }
  await walk("");
  return out;
}

function changed(before: Map<string, string>, after: Map<string, string>): string[] {
  const out: string[] = [];
  for (const [k, v] of after) if (before.get(k) !== v) out.push(k);
  for (const k of before.keys()) if (!after.has(k)) out.push(k);
  return out.sort();
}

/** The last few non-blank lines of the solution's output, control characters stripped. */
function tail(text: string, lines = 8): string {
  return stripControls(text)
    .split(/\r?\n/)
    .filter((l) => l.trim() !== "")
    .slice(-lines)
    .join("\n");
}

/**
 * Apply `solution` to the prepared workspace in `dirs`. Writes outside the workspace are
 * refused by bwrap and docker (the host is read-only there); what lands in the run's own tree
 * outside the workspace and its scratch tmp/ (its HOME, the folder above the workspace) is found
 * by comparing that tree before and after: `escaped`.
 */
export async function applySolution(o: {
  solution: TaskSolution;
  dirs: RunDirs;
  launcher: Launcher;
  timeoutSec: number;
  hostPath: string;
  signal?: AbortSignal | undefined;
  redact: (s: string) => string;
}): Promise<Omit<OracleObservation, "repeats">> {
  const ws = o.dirs.workspace;
  const ended = (
    outcome: OracleObservation["outcome"],
    cause: string | null,
    extra: { exit_code?: number | null; duration_ms?: number; output?: string } = {},
  ): Omit<OracleObservation, "repeats"> => ({
    outcome,
    cause: cause === null ? null : o.redact(cause),
    exit_code: extra.exit_code ?? null,
    duration_ms: extra.duration_ms ?? 0,
    output_tail: o.redact(tail(extra.output ?? "")),
  });
  try {
    if (o.solution.files) await cp(o.solution.files, ws, { recursive: true });
  } catch (e) {
    return ended("error", `solution/files could not be copied: ${errorMessage(e)}`);
  }
  if (o.solution.script === null) return ended("ok", null);
  const inWs = path.join(ws, SOLUTION_IN_WORKSPACE);
  await rm(inWs, { recursive: true, force: true });
  await cp(o.solution.dir, inWs, { recursive: true });
  const rel = path.relative(o.dirs.root, ws);
  const outside = (r: string): boolean =>
    r === rel || r.startsWith(`${rel}/`) || r === "tmp" || r.startsWith("tmp/");
  const before = await stamps(o.dirs.root, outside);
  const marker = newRunMarker();
  const spec: LaunchSpec = {
    cmd: "bash",
    args: [`${SOLUTION_IN_WORKSPACE}/solve.sh`],
    cwd: ws,
    env: {
      PATH: o.hostPath,
      HOME: o.dirs.home,
      TMPDIR: o.dirs.tmp,
      LANG: "C.UTF-8",
      WORKSPACE: ws,
      SOLUTION_DIR: path.join(ws, SOLUTION_IN_WORKSPACE),
      [RUN_MARKER_VAR]: marker,
    },
  };
  const launched = o.launcher(spec);
  const run = await runCaptured({
    file: launched.cmd,
    args: launched.args,
    cwd: launched.cwd,
    env: launched.env,
    timeoutMs: Math.round(o.timeoutSec * 1000),
    ...(o.signal ? { signal: o.signal } : {}),
  });
  // What it left running (a server started in the background) ends with it.
  if (launched.contained !== true) await killMarked(marker);
  o.signal?.throwIfAborted();
  await rm(inWs, { recursive: true, force: true });
  const extra = {
    exit_code: run.exitCode,
    duration_ms: run.durationMs,
    output: `${run.stdout}\n${run.stderr}`,
  };
  if (run.spawnError !== null)
    return ended("error", `solve.sh could not start: ${run.spawnError}`, extra);
  if (run.timedOut)
    return ended("timeout", `solve.sh did not end within ${o.timeoutSec}s and was killed`, extra);
  const wrote = changed(before, await stamps(o.dirs.root, outside));
  if (wrote.length > 0)
    return ended(
      "escaped",
      `solve.sh wrote outside the workspace: ${wrote.slice(0, 5).join(", ")}${wrote.length > 5 ? ` and ${wrote.length - 5} more` : ""}`,
      extra,
    );
  if (run.exitCode !== 0) {
    const last = tail(`${run.stderr}\n${run.stdout}`, 1) || "no output";
    return ended(
      "crashed",
      `solve.sh exited ${run.exitCode ?? run.signal ?? "abnormally"}: ${last}`,
      extra,
    );
  }
  return ended("ok", null, extra);
}
