/**
 * Helpers for end-to-end tests of the BUILT command line (`node dist/cli/main.js`).
 *
 * `npm test` builds first (the `pretest` script); these helpers never build, they fail
 * clearly when dist/ is missing. Every CLI process gets a minimal environment: PATH, a
 * locale, and a private HOME and TMPDIR inside the test's sandbox, so the runs' temporary
 * workspaces (created under TMPDIR) stay inside the sandbox too.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, readlink, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { RunReportSchema, type RunReport } from "../../src/core/report.js";
import { listFiles } from "../../src/util/hash.js";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const CLI = path.join(REPO_ROOT, "dist", "cli", "main.js");

/** A fixture suite under test/fixtures/suites/. */
export function fixtureSuite(name: string): string {
  return path.join(REPO_ROOT, "test", "fixtures", "suites", name);
}

/** Throws a clear error when the CLI has not been built. */
export function assertBuilt(): void {
  if (!existsSync(CLI)) {
    throw new Error(
      `${CLI} is missing: run \`npm run build\` first (\`npm test\` does it in its pretest step)`,
    );
  }
}

export interface Sandbox {
  /** Everything of the test lives under here. */
  root: string;
  home: string;
  tmp: string;
  /** The CLI's whole environment: PATH, locale, HOME, TMPDIR, CI, plus `extra`. */
  env(extra?: Record<string, string>): Record<string, string>;
  /** A fresh, not yet existing folder under root (for --out). */
  dir(name: string): string;
  remove(): Promise<void>;
}

export async function makeSandbox(prefix: string): Promise<Sandbox> {
  const root = await mkdtemp(path.join(tmpdir(), `skillbench-${prefix}-`));
  const home = path.join(root, "home");
  const tmp = path.join(root, "tmp");
  await mkdir(home, { recursive: true });
  await mkdir(tmp, { recursive: true });
  return {
    root,
    home,
    tmp,
    env: (extra = {}) => ({
      PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
      LANG: "C.UTF-8",
      HOME: home,
      TMPDIR: tmp,
      CI: "1",
      ...extra,
    }),
    dir: (name) => path.join(root, name),
    remove: async () => {
      await killStrays(root);
      await rm(root, { recursive: true, force: true, maxRetries: 3 });
    },
  };
}

/**
 * `run` arguments for a fixture suite: its own model-script.yaml, --out, and
 * CLAUDE_CODE_MAX_RETRIES=0 for the agent (the default of 10 retries takes minutes).
 */
export function runArgs(suite: string, out: string, ...extra: string[]): string[] {
  return [
    "run",
    fixtureSuite(suite),
    "--model-script",
    path.join(fixtureSuite(suite), "model-script.yaml"),
    "--out",
    out,
    "--env",
    "CLAUDE_CODE_MAX_RETRIES=0",
    ...extra,
  ];
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface StartedCli {
  child: ChildProcess;
  /** What the CLI has printed on stderr so far. */
  stderrSoFar: () => string;
  /** Settles when the process has exited and its output is closed. */
  done: Promise<CliResult>;
}

/**
 * Start the CLI with stdin closed. `detached` makes it lead its own process group,
 * so that the test can kill the group (the CLI's agents run in groups of their own).
 */
export function startCli(
  args: string[],
  opts: { env: Record<string, string>; detached?: boolean; cwd?: string },
): StartedCli {
  assertBuilt();
  const child = spawn(process.execPath, [CLI, ...args], {
    // the repository unless a test runs the CLI where a reader would (README samples)
    cwd: opts.cwd ?? REPO_ROOT,
    env: opts.env,
    stdio: ["ignore", "pipe", "pipe"],
    detached: opts.detached ?? false,
  });
  let stdout = "";
  let stderr = "";
  child.stdout?.setEncoding("utf8").on("data", (c: string) => (stdout += c));
  child.stderr?.setEncoding("utf8").on("data", (c: string) => (stderr += c));
  const done = new Promise<CliResult>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, done, stderrSoFar: () => stderr };
}

export function runCli(
  args: string[],
  opts: { env: Record<string, string>; cwd?: string },
): Promise<CliResult> {
  return startCli(args, opts).done;
}

/** The stored report.json of a run, parsed with the report schema. */
export async function readRunReport(outDir: string, runId: string): Promise<RunReport> {
  const text = await readFile(path.join(outDir, "runs", runId, "report.json"), "utf8");
  return RunReportSchema.parse(JSON.parse(text));
}

/** A file of a run's folder, as text. */
export function readRunFile(outDir: string, runId: string, rel: string): Promise<string> {
  return readFile(path.join(outDir, "runs", runId, rel), "utf8");
}

/** Every JSON object line of a JSONL file (non-object and unparsable lines are skipped). */
export async function readJsonLines(file: string): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for (const line of (await readFile(file, "utf8")).split("\n")) {
    if (line.trim() === "") continue;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      continue;
    }
    if (typeof v === "object" && v !== null && !Array.isArray(v))
      out.push(Object.fromEntries(Object.entries(v)));
  }
  return out;
}

/** Every regular file under dir, as paths relative to dir. */
export function filesUnder(dir: string): Promise<string[]> {
  return listFiles(dir);
}

/** Run ids that have a report.json under <outDir>/runs/. */
export async function reportedRunIds(outDir: string): Promise<string[]> {
  let ids: string[];
  try {
    ids = await readdir(path.join(outDir, "runs"));
  } catch {
    return [];
  }
  return ids.filter((id) => existsSync(path.join(outDir, "runs", id, "report.json"))).sort();
}

/**
 * Poll `condition` until it holds. Rejects if `exited` settles first (the process the
 * test waits on ended before the condition came true). Polling, not a fixed sleep.
 */
export async function waitUntil(
  condition: () => Promise<boolean>,
  exited: Promise<unknown>,
  what: string,
): Promise<void> {
  let gone = false;
  void exited.then(
    () => (gone = true),
    () => (gone = true),
  );
  for (;;) {
    if (await condition()) return;
    if (gone) throw new Error(`the process exited before ${what}`);
    await delay(25);
  }
}

/**
 * SIGKILL every process whose working directory is inside `root` (Linux /proc). After the
 * test kills the CLI, its agents (in process groups of their own, working in workspaces
 * under the sandbox's TMPDIR) would otherwise be left running. Only processes of this
 * test's sandbox are touched, each by its pid.
 */
export async function killStrays(root: string): Promise<number[]> {
  let pids: string[];
  try {
    pids = (await readdir("/proc")).filter((p) => /^\d+$/.test(p));
  } catch {
    return [];
  }
  const killed: number[] = [];
  const prefix = `${root}${path.sep}`;
  for (const p of pids) {
    const pid = Number(p);
    if (pid === process.pid) continue;
    let cwd: string;
    try {
      cwd = await readlink(`/proc/${p}/cwd`);
    } catch {
      continue;
    }
    if (cwd !== root && !cwd.startsWith(prefix)) continue;
    try {
      process.kill(pid, "SIGKILL");
      killed.push(pid);
    } catch {
      /* already gone */
    }
  }
  return killed;
}

/** The section of summary.md from `## Results` up to the next `## ` heading. */
export function resultsSection(summary: string): string {
  const start = summary.search(/^## Results/m);
  if (start < 0) return "";
  const rest = summary.slice(start);
  const next = rest.slice(3).search(/^## /m);
  return next < 0 ? rest : rest.slice(0, next + 3);
}
