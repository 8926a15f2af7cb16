/**
 * `skillbench merge OUT DIR…`: the results folders of one experiment (the `--shard` slices of a
 * plan, or any folders whose plan fingerprint is the same: plan/plan-record.ts) joined into one
 * results folder, with its run index and every report (the same end as `report`:
 * runner/finish.ts through the reporter lifecycle).
 *
 * Refused (bad input, exit 2) when a folder is of another plan (always), or when the suite's hash
 * or an agent's version differs (unless `allowDrift`: then recorded in metadata.json's `merge`).
 * A run present in several folders is kept once: the complete one (a report, not errored), else
 * the one that finished later. Crash-safe: everything is written into a temporary folder beside
 * OUT (`.<name>.merge-<pid>-<hex>`) and renamed to OUT at the end; the inputs are only read (their
 * run index is read, never rewritten). A merge killed midway leaves its temporary folder, which the
 * next merge into OUT removes once its process is gone.
 */
import { randomBytes } from "node:crypto";
import { appendFile, cp, mkdir, readdir, readFile, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { InputError } from "../core/errors.js";
import type { RunDigest } from "../core/digest.js";
import type { Comparison } from "../report/comparison/index.js";
import type { ComparisonSource } from "../report/comparison/write.js";
import { planDifferences } from "../plan/plan-record.js";
import { shardText } from "../plan/shard.js";
import { experimentPaths, runDir, runPaths } from "../store/layout.js";
import {
  parseExperimentMetadata,
  writeMetadata,
  type ExperimentMetadata,
} from "../store/metadata.js";
import { readStoredRuns, type StoredRuns } from "../store/read.js";
import { indexRunReport } from "../store/run-files.js";
import { readJsonFile } from "../util/fs.js";
import { processAlive } from "../util/process.js";
import { writeExperimentReportsOf } from "./finish.js";

export interface MergeOptions {
  /** merge folders whose suite hash or agent versions differ, recording the differences */
  allowDrift?: boolean | undefined;
  ks?: number[] | undefined;
  html?: boolean | undefined;
  note?: ((message: string) => void) | undefined;
  /** Called after each run is copied into the temporary folder (n runs so far). */
  onRunCopied?: ((n: number) => void) | undefined;
}

export interface MergeSummary {
  outDir: string;
  experimentId: string;
  /** the merged folder's planned runs, and those with a report */
  planned: number;
  reports: RunDigest[];
  /** runs found in more than one folder (kept once) */
  duplicates: number;
  /** differences merged with --allow-drift */
  drift: string[];
  files: string[];
  comparison: Comparison | null;
  source: ComparisonSource;
}

interface Input {
  dir: string;
  /** how the folder is named in messages: as given */
  label: string;
  meta: ExperimentMetadata;
}

/** The temporary folders of merges into `out`: `.<name>.merge-<pid>-<hex>`. */
const tempPrefix = (out: string): string => `.${path.basename(out)}.merge-`;

/** Remove what merges into `out` that were killed left beside it (their process is gone). */
async function sweepLeftovers(out: string): Promise<void> {
  const parent = path.dirname(out);
  const prefix = tempPrefix(out);
  for (const name of await readdir(parent).catch(() => [] as string[])) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(name.slice(prefix.length).split("-")[0]);
    if (!processAlive(pid)) await rm(path.join(parent, name), { recursive: true, force: true });
  }
}

async function readInput(dir: string, label: string): Promise<Input> {
  const file = experimentPaths(dir).metadata;
  const json = await readJsonFile(file).catch(() => undefined);
  if (json === undefined)
    throw new InputError(`merge: ${label} is not a skillbench results folder (no metadata.json)`, {
      file,
    });
  const parsed = parseExperimentMetadata(json);
  if ("problem" in parsed)
    throw new InputError(
      `merge: ${file} is not metadata.json as this skillbench writes it: ${parsed.problem}`,
      { file },
    );
  if (!parsed.data.plan)
    throw new InputError(
      `merge: ${label} records no plan fingerprint (metadata.json "plan": written before skillbench recorded one), so it cannot be checked against the others: run it again`,
      { file, field: "plan" },
    );
  return { dir, label, meta: parsed.data };
}

/** metadata.json's `agents` (loose in its schema): name, version and treatments of each. */
const AgentsSchema = z
  .array(
    z
      .object({ name: z.string(), version: z.string().nullable(), treatments: z.array(z.string()) })
      .loose(),
  )
  .catch([]);
type AgentEntry = z.infer<typeof AgentsSchema>[number];
const agentsOf = (x: Input): AgentEntry[] => AgentsSchema.parse(x.meta.agents);

/** Suite hashes and agent versions of `x` that differ from `base`'s, one line each. */
function driftOf(base: Input, x: Input): string[] {
  const out: string[] = [];
  if (x.meta.suite.hash !== base.meta.suite.hash)
    out.push(
      `suite hash: ${base.label} ${base.meta.suite.hash.slice(0, 19)}, ${x.label} ${x.meta.suite.hash.slice(0, 19)}`,
    );
  for (const a of agentsOf(base)) {
    const b = agentsOf(x).find((y) => y.name === a.name);
    if (b && b.version !== a.version)
      out.push(
        `agent ${a.name} version: ${base.label} ${a.version ?? "unknown"}, ${x.label} ${b.version ?? "unknown"}`,
      );
  }
  return out;
}

/** Which of two stored copies of a run is kept: the complete one, else the later. */
function better(a: RunDigest, b: RunDigest): boolean {
  const complete = (r: RunDigest): boolean => r.status !== "errored";
  if (complete(a) !== complete(b)) return complete(a);
  return a.timing.finished_at >= b.timing.finished_at;
}

export async function mergeResults(
  outArg: string,
  dirArgs: readonly string[],
  opts: MergeOptions = {},
): Promise<MergeSummary> {
  const note = opts.note ?? (() => undefined);
  if (dirArgs.length === 0)
    throw new InputError("merge: name the results folders to merge (merge OUT DIR…)", {
      field: "DIR",
    });
  const out = path.resolve(outArg);
  const inputs: Input[] = [];
  for (const d of dirArgs) {
    const dir = path.resolve(d);
    const rel = path.relative(dir, out);
    if (rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel)))
      throw new InputError(`merge: OUT ${outArg} is ${d} or inside it: choose a new folder`, {
        field: "OUT",
      });
    if (inputs.some((i) => i.dir === dir)) continue;
    inputs.push(await readInput(dir, d));
  }
  const existing = await readdir(out).catch(() => null);
  if (existing !== null && existing.length > 0)
    throw new InputError(`merge: ${outArg} exists and is not empty: merge into a new folder`, {
      file: out,
      field: "OUT",
    });
  const base = inputs[0] as Input;
  const basePlan = base.meta.plan;
  if (!basePlan) throw new Error("merge: the first folder's plan was checked");

  // Another plan is another experiment: refused, whatever --allow-drift says.
  for (const x of inputs.slice(1)) {
    const diff = planDifferences(basePlan, x.meta.plan ?? basePlan, { a: base.label, b: x.label });
    if (diff.length > 0)
      throw new InputError(
        `merge: ${x.label} is not of the same plan as ${base.label} (plan fingerprint ${(x.meta.plan?.fingerprint ?? "").slice(0, 19)}, not ${basePlan.fingerprint.slice(0, 19)}):\n${diff.map((l) => `  - ${l}`).join("\n")}`,
        { file: experimentPaths(x.dir).metadata, field: "plan" },
      );
  }
  const drift = inputs.slice(1).flatMap((x) => driftOf(base, x));
  if (drift.length > 0 && !opts.allowDrift)
    throw new InputError(
      `merge: the folders were run differently (--allow-drift merges them anyway, recording the differences):\n${drift.map((l) => `  - ${l}`).join("\n")}`,
      { field: "--allow-drift" },
    );
  if (drift.length > 0) note(`merging despite ${drift.length} difference(s) (--allow-drift)`);

  // The runs: each folder's planned runs with a report; a run in several, kept once.
  const stored: StoredRuns[] = [];
  const chosen = new Map<string, { input: number; digest: RunDigest }>();
  let duplicates = 0;
  for (const [i, x] of inputs.entries()) {
    const runs = await readStoredRuns(x.dir, { index: "read" });
    stored.push(runs);
    for (const p of runs.problems) note(`${p.file}: left out: ${p.message}`);
    const planned = new Set(x.meta.matrix.map((r) => r.run_id));
    for (const d of runs.digests) {
      if (!planned.has(d.run_id)) continue;
      const had = chosen.get(d.run_id);
      if (had) duplicates++;
      if (!had || better(d, had.digest)) chosen.set(d.run_id, { input: i, digest: d });
    }
  }
  const matrix = mergedMatrix(inputs);
  const missing = missingShards(inputs);
  if (missing.length > 0)
    note(
      `not among the folders: shard(s) ${missing.join(", ")} of the plan; their runs are not in the merged folder`,
    );

  await sweepLeftovers(out);
  await mkdir(path.dirname(out), { recursive: true });
  const tmp = path.join(
    path.dirname(out),
    `${tempPrefix(out)}${process.pid}-${randomBytes(4).toString("hex")}`,
  );
  await mkdir(path.join(tmp, "runs"), { recursive: true });
  try {
    await copyExperimentFiles(inputs, tmp);
    let copied = 0;
    for (const [i, x] of inputs.entries()) {
      const ids = matrix.map((r) => r.run_id).filter((id) => chosen.get(id)?.input === i);
      // Full reports from the folder's index (no schema pass), to index each copied run.
      await stored[i]?.reports(ids, async (report) => {
        await cp(runDir(x.dir, report.run_id), runDir(tmp, report.run_id), { recursive: true });
        // The run is committed in the merged folder: its line in the run index.
        await indexRunReport(runPaths(tmp, report.run_id), report);
        opts.onRunCopied?.(++copied);
      });
    }
    const reports = matrix.flatMap((r) => {
      const c = chosen.get(r.run_id);
      return c ? [c.digest] : [];
    });
    const metadata = mergedMetadata(inputs, matrix, reports, drift, missing.length === 0);
    await writeMetadata(path.join(tmp, "metadata.json"), metadata);
    await rename(tmp, out).catch(async (e: unknown) => {
      if ((await stat(out).catch(() => null)) !== null)
        throw new InputError(`merge: ${outArg} was created meanwhile: merge into a new folder`, {
          file: out,
          field: "OUT",
        });
      throw e;
    });
  } catch (e) {
    await rm(tmp, { recursive: true, force: true });
    throw e;
  }
  const written = await writeExperimentReportsOf(out, { ks: opts.ks, html: opts.html });
  return {
    outDir: out,
    experimentId: base.meta.experiment_id,
    planned: matrix.length,
    reports: written.reports,
    duplicates,
    drift,
    files: written.files,
    comparison: written.comparison,
    source: written.source,
  };
}

type Planned = ExperimentMetadata["matrix"][number];

/**
 * Every folder's planned runs, once each, in the whole plan's order (its arms, each rep 1..count;
 * plan/matrix.ts), then any others (a frozen baseline's) in the order first seen.
 */
function mergedMatrix(inputs: readonly Input[]): Planned[] {
  const arms = new Map<string, number>();
  (inputs[0]?.meta.plan?.arms ?? []).forEach((a, i) =>
    arms.set(`${a.task}\0${a.treatment}\0${a.agent}`, i),
  );
  const byId = new Map<string, Planned>();
  for (const x of inputs)
    for (const r of x.meta.matrix) if (!byId.has(r.run_id)) byId.set(r.run_id, r);
  const all = [...byId.values()];
  const at = (r: Planned): number =>
    arms.get(`${r.task}\0${r.treatment}\0${r.agent ?? ""}`) ?? arms.size;
  return all
    .map((r, i) => ({ r, i }))
    .sort((a, b) => at(a.r) - at(b.r) || (at(a.r) === arms.size ? a.i - b.i : a.r.rep - b.r.rep))
    .map(({ r }) => r);
}

/** The shards (`I/N`) of the plan none of the folders holds, when they are shards of N. */
function missingShards(inputs: readonly Input[]): string[] {
  if (inputs.some((x) => !x.meta.shard)) return [];
  const counts = new Set(inputs.map((x) => x.meta.shard?.count));
  if (counts.size !== 1) return [];
  const n = inputs[0]?.meta.shard?.count ?? 0;
  const have = new Set(inputs.map((x) => x.meta.shard?.index));
  const out: string[] = [];
  for (let i = 1; i <= n; i++) if (!have.has(i)) out.push(shardText({ index: i, count: n }));
  return out;
}

/**
 * What the merged folder needs beside its runs: the suite snapshot and profiles (rescore), an
 * eval's compiled suite, the first folder's; the scripted model's request logs one after another;
 * the judge caches together.
 */
async function copyExperimentFiles(inputs: readonly Input[], tmp: string): Promise<void> {
  const base = inputs[0];
  if (!base) return;
  const names = [
    path.basename(experimentPaths(base.dir).suiteSnapshot),
    path.basename(experimentPaths(base.dir).profiles),
    "eval.yaml",
  ];
  for (const name of names) {
    const from = path.join(base.dir, name);
    if ((await stat(from).catch(() => null)) !== null)
      await cp(from, path.join(tmp, name), { recursive: true });
  }
  for (const x of inputs) {
    const log = experimentPaths(x.dir).modelLog;
    const text = await readFile(log).catch(() => null);
    if (text !== null) await appendFile(experimentPaths(tmp).modelLog, text);
    const cache = path.join(x.dir, "judge-cache");
    if ((await stat(cache).catch(() => null)) !== null)
      await cp(cache, path.join(tmp, "judge-cache"), { recursive: true, force: false });
  }
}

/** metadata.json of the merged folder: the first folder's, over the union of the runs. */
function mergedMetadata(
  inputs: readonly Input[],
  matrix: Planned[],
  reports: readonly RunDigest[],
  drift: string[],
  allShards: boolean,
): ExperimentMetadata {
  const base = (inputs[0] as Input).meta;
  const firstSeen = <T>(xs: Iterable<T>): T[] => [...new Set(xs)];
  const tasks = firstSeen([...inputs.flatMap((x) => x.meta.tasks), ...matrix.map((r) => r.task)]);
  const treatments = firstSeen([
    ...inputs.flatMap((x) => x.meta.treatments),
    ...matrix.map((r) => r.treatment),
  ]);
  const agents = new Map<string, AgentEntry>();
  for (const x of inputs)
    for (const a of agentsOf(x)) {
      const had = agents.get(a.name);
      agents.set(
        a.name,
        had ? { ...had, treatments: firstSeen([...had.treatments, ...a.treatments]) } : a,
      );
    }
  const done = new Set(reports.map((r) => r.run_id));
  const complete = allShards && matrix.every((r) => done.has(r.run_id));
  const ends = inputs.map((x) => x.meta.completed_at);
  const latest = ends.every((t) => t !== null) ? ends.sort().at(-1) : undefined;
  // A shard's budget record is its own spend and unrun runs, not the merged experiment's: left
  // out rather than shown as the whole. (Its task health is kept: every shard checks every
  // planned task, not its slice.)
  const { shard: _shard, budget: _budget, ...rest } = base;
  return {
    ...rest,
    started_at: inputs.map((x) => x.meta.started_at).reduce((a, b) => (b < a ? b : a)),
    completed_at: complete ? (latest ?? new Date().toISOString()) : null,
    tasks,
    treatments: treatments.filter((t) => matrix.some((r) => r.treatment === t)),
    count: Math.max(...inputs.map((x) => x.meta.count)),
    matrix,
    last_invocation: {
      asked: `merge of ${inputs.length} folder(s): ${matrix.length} run(s)`,
      runs: matrix.length,
      kept_outside_request: 0,
    },
    agents: [...agents.values()],
    total_runs: matrix.length,
    total_passed: reports.filter((r) => r.passed).length,
    merge: {
      from: inputs.map((x) => ({
        dir: x.dir,
        experiment_id: x.meta.experiment_id,
        shard: x.meta.shard ?? null,
        runs: x.meta.matrix.length,
      })),
      drift,
    },
  };
}
