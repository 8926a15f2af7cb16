/**
 * `--reuse DIR…` (docs/reuse.md): a planned run whose content key (src/plan/run-key.ts) equals
 * a finished run's in one of the folders is taken from there instead of being run: its run
 * folder is copied into this results folder and its report.json marked `reused_from`. Any
 * difference in the key means the run is run again; what differed is said per run on the
 * console and in reuse.md. A folder of another harness version or key format is bad input.
 */
import { cp, mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { InputError } from "../core/errors.js";
import { digestOf, type RunDigest } from "../core/digest.js";
import type { RunReport } from "../core/report.js";
import type { RunKeyParts } from "../core/run-key.js";
import { RUN_KEY_VERSION, runKeyDifferences, runKeyOf } from "../plan/run-key.js";
import type { RunPlan } from "../plan/run-plan.js";
import { dockerImageId } from "../sandbox/index.js";
import { experimentPaths, runPaths } from "../store/layout.js";
import { readMetadata } from "../store/metadata.js";
import { readReports } from "../store/read.js";
import { readRunReport, writeRunReport } from "../store/run-files.js";
import { writeFileAtomic } from "../util/fs.js";
import { SKILLBENCH_VERSION } from "./experiment-metadata.js";
import type { RunKeyer } from "./run-keys.js";

export interface ReuseSource {
  dir: string;
  /** its runs by run id (complete, with a key) */
  runs: Map<string, RunReport>;
}

function refuse(dir: string, why: string): never {
  throw new InputError(`--reuse ${dir}: ${why}`, { file: dir, field: "--reuse" });
}

/** The word `--reuse` takes, beside folders, for the history store's folders (docs/reuse.md). */
const REUSE_HISTORY = "history";

/**
 * Read the folders given to `--reuse`: each must be a results folder of this harness version
 * whose runs record content keys of this format (else InputError, exit 2).
 */
async function loadReuseSources(
  dirs: readonly string[],
  cwd: string,
  fromHistory: ReadonlySet<string> = new Set(),
): Promise<ReuseSource[]> {
  const out: ReuseSource[] = [];
  for (const given of dirs) {
    const dir = path.resolve(cwd, given);
    try {
      const meta = await readMetadata(experimentPaths(dir).metadata);
      if (!meta) refuse(dir, "not a skillbench results folder (no readable metadata.json)");
      const version = meta.versions.skillbench;
      if (version !== SKILLBENCH_VERSION)
        refuse(
          dir,
          `written by skillbench ${version}, this is skillbench ${SKILLBENCH_VERSION}: runs of another harness version are not reused (its prompts, workspaces and scoring may differ); run them again, or reuse them with skillbench ${version}`,
        );
      // A folder reused from is only read: its index is not written (as merge leaves its inputs).
      const { reports, problems } = await readReports(dir, { index: "read" });
      if (reports.length === 0 && problems.length > 0)
        refuse(
          dir,
          `no run report this skillbench can read (${problems[0]?.file ?? ""}: ${problems[0]?.message ?? ""})`,
        );
      const keyed = reports.filter((r) => r.run_key !== undefined);
      if (reports.length > 0 && keyed.length === 0)
        refuse(
          dir,
          "its runs record no content key (written before skillbench kept run keys): they cannot be matched; run them again",
        );
      const other = keyed.find((r) => r.run_key?.parts.version !== RUN_KEY_VERSION);
      if (other)
        refuse(
          dir,
          `${other.run_id}: run key format ${String(other.run_key?.parts.version)}, this skillbench writes format ${RUN_KEY_VERSION}: run them again`,
        );
      out.push({ dir, runs: new Map(keyed.map((r) => [r.run_id, r])) });
    } catch (e) {
      // A folder the history store named was not chosen by the user: one this skillbench cannot
      // reuse from is passed over, not refused (the run key still decides for the others).
      if (!fromHistory.has(dir)) throw e;
    }
  }
  return out;
}

/**
 * `--reuse history`: the word stands for the history store's folders (newest first, after the
 * folders named before it); this experiment's own folder is not a source of itself.
 */
async function expandHistory(
  dirs: readonly string[],
  o: {
    cwd: string;
    outDir: string;
    note: (message: string) => void;
    history: () => Promise<{ where: string; folders: string[] } | null>;
  },
): Promise<{ folders: string[]; fromHistory: Set<string> }> {
  if (!dirs.includes(REUSE_HISTORY)) return { folders: [...dirs], fromHistory: new Set() };
  const store = await o.history();
  if (store === null)
    throw new InputError("--reuse history: no history store to read (--no-history was given)", {
      field: "--reuse",
    });
  const named = new Set(dirs.filter((d) => d !== REUSE_HISTORY).map((d) => path.resolve(o.cwd, d)));
  const own = path.resolve(o.outDir);
  const fromHistory = new Set(store.folders.filter((d) => d !== own && !named.has(d)));
  o.note(
    `reuse: the history store ${store.where || "(none)"} names ${fromHistory.size} results folder(s) to take runs from`,
  );
  const folders: string[] = [];
  for (const d of dirs) {
    if (d === REUSE_HISTORY) folders.push(...fromHistory);
    else folders.push(d);
  }
  return { folders, fromHistory };
}

/** What `--reuse` decided for the planned runs. */
export interface ReuseOutcome {
  /** the runs taken, as copied into this folder (their digests) */
  taken: RunDigest[];
  /** the planned runs still to run */
  remaining: RunPlan[];
  /** why each planned run with a stored counterpart was not taken */
  refused: { run_id: string; dir: string; differences: string[] }[];
  /** planned runs no folder holds a run of */
  absent: string[];
}

/**
 * The planned run's key parts against a stored run's, the docker image resolved as the stored
 * run would see it now: the id its recorded tag has on this machine (the tag is made from the
 * build context, in the task hash, and the agent version), null when it is gone.
 */
async function nowParts(plan: RunPlan, stored: RunReport, keyer: RunKeyer): Promise<RunKeyParts> {
  const tag = stored.sandbox?.image_tag ?? null;
  const image = plan.sandbox.kind === "docker" && tag !== null ? await dockerImageId(tag) : null;
  return keyer.parts(plan, image);
}

/** Copy a stored run into this results folder, marked with its source. */
async function adopt(source: ReuseSource, stored: RunReport, outDir: string): Promise<RunDigest> {
  const to = runPaths(outDir, stored.run_id);
  await rm(to.dir, { recursive: true, force: true });
  await mkdir(path.dirname(to.dir), { recursive: true });
  await cp(runPaths(source.dir, stored.run_id).dir, to.dir, { recursive: true });
  const report: RunReport = { ...(await readRunReport(to)), reused_from: source.dir };
  await writeRunReport(to, report);
  return digestOf(report);
}

/** Take every planned run whose key a folder holds; the rest stay planned. */
async function reuseStoredRuns(
  plans: readonly RunPlan[],
  sources: readonly ReuseSource[],
  keyer: RunKeyer,
  outDir: string,
): Promise<ReuseOutcome> {
  const res: ReuseOutcome = { taken: [], remaining: [], refused: [], absent: [] };
  for (const plan of plans) {
    let best: ReuseOutcome["refused"][number] | null = null;
    let taken: RunDigest | null = null;
    for (const source of sources) {
      const stored = source.runs.get(plan.run_id);
      if (!stored?.run_key) continue;
      const differences =
        stored.status === "errored"
          ? [`the stored run errored (${stored.outcome})`]
          : runKeyDifferences(stored.run_key.parts, await nowParts(plan, stored, keyer));
      // A key recorded by hand or by another tool must still be the hash of its parts.
      if (differences.length === 0 && runKeyOf(stored.run_key.parts).key !== stored.run_key.key)
        differences.push("its key is not the hash of its parts (report.json edited)");
      if (differences.length === 0) {
        taken = await adopt(source, stored, outDir);
        break;
      }
      if (best === null || differences.length < best.differences.length)
        best = { run_id: plan.run_id, dir: source.dir, differences };
    }
    if (taken) res.taken.push(taken);
    else {
      res.remaining.push(plan);
      if (best) res.refused.push(best);
      else res.absent.push(plan.run_id);
    }
  }
  return res;
}

/** The console's lines for what `--reuse` took and why it ran the others. */
function reuseNotes(r: ReuseOutcome): string[] {
  const bySource = new Map<string, number>();
  for (const d of r.taken) {
    const dir = d.reused_from ?? "";
    bySource.set(dir, (bySource.get(dir) ?? 0) + 1);
  }
  const lines = [...bySource].map(([dir, n]) => `reuse: ${n} run(s) taken from ${dir}`);
  for (const x of r.refused)
    lines.push(`reuse: ${x.run_id} runs again: ${x.differences.join("; ")} (${x.dir})`);
  if (r.absent.length > 0)
    lines.push(
      `reuse: ${r.absent.length} run(s) with no stored run to take: ${r.absent.join(", ")}`,
    );
  return lines;
}

/** reuse.md: what `--reuse` took, and what differed for each run it did not take. */
async function writeReuseFile(outDir: string, r: ReuseOutcome): Promise<string> {
  const file = path.join(outDir, "reuse.md");
  const lines = [
    "# Runs reused",
    "",
    `${r.taken.length} run(s) taken from earlier results (equal content key, docs/reuse.md); ${r.remaining.length} run again.`,
    "",
  ];
  if (r.taken.length > 0) {
    lines.push("| run | taken from |", "| --- | --- |");
    for (const d of r.taken) lines.push(`| ${d.run_id} | ${d.reused_from ?? ""} |`);
    lines.push("");
  }
  if (r.refused.length > 0) {
    lines.push("## Not taken: what differed", "");
    for (const x of r.refused) lines.push(`- ${x.run_id} (${x.dir}): ${x.differences.join("; ")}`);
    lines.push("");
  }
  if (r.absent.length > 0)
    lines.push("## No stored run", "", ...r.absent.map((id) => `- ${id}`), "");
  await writeFileAtomic(file, lines.join("\n"));
  return file;
}

/**
 * `--reuse` in a run: nothing when no folder is given; else the folders read (bad ones refused),
 * the stored runs with an equal key taken, the console told and reuse.md written.
 */
export async function applyReuse(
  dirs: readonly string[] | undefined,
  o: {
    cwd: string;
    plans: RunPlan[];
    keyer: RunKeyer;
    outDir: string;
    note: (message: string) => void;
    /** The history store's results folders, read only when `dirs` holds the word `history`. */
    history: () => Promise<{ where: string; folders: string[] } | null>;
  },
): Promise<{ plans: RunPlan[]; taken: RunDigest[]; takenIds: Set<string> }> {
  if (dirs === undefined || dirs.length === 0)
    return { plans: o.plans, taken: [], takenIds: new Set() };
  const { folders, fromHistory } = await expandHistory(dirs, o);
  const sources = await loadReuseSources(folders, o.cwd, fromHistory);
  const r = await reuseStoredRuns(o.plans, sources, o.keyer, o.outDir);
  for (const line of reuseNotes(r)) o.note(line);
  o.note(`reuse: ${await writeReuseFile(o.outDir, r)}`);
  return { plans: r.remaining, taken: r.taken, takenIds: new Set(r.taken.map((d) => d.run_id)) };
}
