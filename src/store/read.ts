import { statSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { InputError } from "../core/errors.js";
import { digestOf, type RunDigest } from "../core/digest.js";
import { RunReportSchema, type RunReport } from "../core/report.js";
import { mapPool } from "../util/pool.js";
import { runPaths } from "./layout.js";
import {
  IndexReports,
  indexStamp,
  readRunIndex,
  RunIndexWriter,
  SharedValues,
  type ReportRange,
} from "./run-index.js";

export interface ReadProblem {
  file: string;
  message: string;
}

/** Concurrent file reads (enough to keep the disk busy, few enough not to exhaust descriptors). */
const READ_CONCURRENCY = 16;
/** report.json files stat-ed between two turns of the event loop. */
const STAT_SLICE = 2000;
/** Full reports held at once by `StoredRuns.reports` (read in file order, handed out in the order asked). */
const REPORT_BATCH = 1000;

type Entry = { kind: "digest"; digest: RunDigest } | { kind: "problem"; problem: ReadProblem };

/** Digests by run id, with the file stamp they were made from (the viewer keeps one between reads). */
export type ReportCache = Map<string, { stamp: string; entry: Entry }>;

/**
 * The runs of a results folder: one digest per run (core/digest.ts) for the experiment-level
 * reports, and the full reports on demand, a batch at a time, for what shows each run whole.
 */
export interface StoredRuns {
  /** sorted by task, treatment, rep */
  digests: RunDigest[];
  problems: ReadProblem[];
  /** `<id>:<mtimeMs>:<size>` of every run folder in id order (`<id>:-` without a report) */
  signature: string;
  /**
   * Call `fn` with the full report of each run in `ids`, in that order (a run whose report
   * cannot be read any more is skipped). At most REPORT_BATCH reports are held at once.
   */
  reports(ids: readonly string[], fn: (r: RunReport) => void | Promise<void>): Promise<void>;
}

/** Full reports of a results folder (every report held at once: for small folders and single runs). */
export interface StoredReports {
  reports: RunReport[];
  problems: ReadProblem[];
  signature: string;
}

function parseReport(file: string, text: string): RunReport | ReadProblem {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { file, message: `not valid JSON: ${String(e)}` };
  }
  const parsed = RunReportSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  return {
    file,
    message: parsed.error.issues
      .map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`)
      .join("; "),
  };
}

const isProblem = (v: RunReport | ReadProblem): v is ReadProblem => "message" in v;

const collator = new Intl.Collator();
/** Task, then treatment, then rep (the order every report lists runs in). */
function byTaskTreatmentRep(a: RunDigest, b: RunDigest): number {
  return (
    collator.compare(a.task, b.task) || collator.compare(a.treatment, b.treatment) || a.rep - b.rep
  );
}

/**
 * Every stored run of a results folder as a digest; unreadable reports are listed as
 * problems, not fatal; a run without a report (incomplete) is skipped. A run whose
 * report.json the run index holds unchanged is taken from the index (store/run-index.ts);
 * the others are read from their files with a bounded pool and schema-parsed, and the index
 * is written again when it did not hold exactly the folder's runs. With a cache, a digest
 * whose file did not change (same mtime and size) since the last call is reused.
 */
export async function readStoredRuns(
  outDir: string,
  opts: {
    concurrency?: number;
    cache?: ReportCache;
    /** false: neither read nor write the run index (store/run-index.ts) */
    index?: boolean;
  } = {},
): Promise<StoredRuns> {
  let ids: string[];
  try {
    ids = (await readdir(path.join(outDir, "runs"), { withFileTypes: true }))
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
  } catch {
    throw new InputError(`${outDir}: not a skillbench results folder (no runs/ folder)`, {
      file: outDir,
    });
  }
  const cache = opts.cache;
  const useIndex = opts.index !== false;
  const concurrency = opts.concurrency ?? READ_CONCURRENCY;
  // First the stamps, then the run index, which stands in for every report.json whose stamp
  // it holds, then the files it does not hold.
  // Synchronous stats (a few microseconds each from the inode cache, where a promise costs
  // several times that), a slice at a time so that a server reading a folder stays responsive.
  const stampOf = new Map<string, { stamp: string; index: string }>();
  for (let i = 0; i < ids.length; i += STAT_SLICE) {
    if (i > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    for (const id of ids.slice(i, i + STAT_SLICE)) {
      const st = statSync(runPaths(outDir, id).report, { throwIfNoEntry: false });
      if (st?.isFile())
        stampOf.set(id, { stamp: `${id}:${st.mtimeMs}:${st.size}`, index: indexStamp(st) });
    }
  }
  const source = useIndex ? await IndexReports.open(outDir) : null;
  const index = await readRunIndex(source, (id, stamp) => {
    const s = stampOf.get(id);
    return s === undefined || s.index !== stamp
      ? "stale"
      : cache?.get(id)?.stamp === s.stamp
        ? "known"
        : "parse";
  });

  const entries = new Map<string, Entry>();
  /** where each run's full report is: a range of the index file, or its report.json (null) */
  let where = new Map<string, ReportRange | null>();
  const missing: string[] = [];
  for (const id of ids) {
    const s = stampOf.get(id);
    if (!s) continue;
    const indexed = index.runs.get(id);
    const hit = cache?.get(id);
    if (indexed) {
      entries.set(id, { kind: "digest", digest: indexed.digest });
      where.set(id, indexed.range);
    } else if (hit && hit.stamp === s.stamp) {
      entries.set(id, hit.entry);
      where.set(id, index.known.get(id) ?? null);
    } else missing.push(id);
  }

  // Written again when a report was read from its file (a problem is not indexed, so it
  // alone does not count), or when the index held lines that were not used.
  const opened: { writer: Promise<RunIndexWriter | null> | null } = { writer: null };
  const writer = (): Promise<RunIndexWriter | null> =>
    (opened.writer ??= useIndex ? RunIndexWriter.create(outDir) : Promise.resolve(null));
  const shared = new SharedValues();
  const newWhere = new Map<string, ReportRange | null>();
  await mapPool(missing, concurrency, async (id) => {
    const file = runPaths(outDir, id).report;
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch {
      return; // a run without a report is incomplete: not an error
    }
    const parsed = parseReport(file, text);
    const s = stampOf.get(id);
    if (!s) return;
    let entry: Entry;
    if (isProblem(parsed)) entry = { kind: "problem", problem: parsed };
    else {
      const digest = digestOf(parsed);
      const w = await writer();
      if (w) {
        const added = w.add(id, s.index, digest, JSON.stringify(parsed));
        newWhere.set(id, added.range);
        entry = { kind: "digest", digest: added.digest };
      } else entry = { kind: "digest", digest: shared.intern(id, s.index, digest).digest };
    }
    where.set(id, null);
    entries.set(id, entry);
  });
  const w = opened.writer !== null || index.lines !== index.matched ? await writer() : null;
  if (w && source) {
    // Copy the current lines, in batches read in file order.
    const current = ids.filter((id) => where.get(id) != null);
    for (let i = 0; i < current.length; i += REPORT_BATCH) {
      const batch = current.slice(i, i + REPORT_BATCH);
      const texts = await source.texts(batch.map((id) => where.get(id) as ReportRange));
      batch.forEach((id, k) => {
        const e = entries.get(id);
        const text = texts[k];
        const s = stampOf.get(id);
        if (e?.kind !== "digest" || !text || !s) return;
        newWhere.set(id, w.add(id, s.index, e.digest, text).range);
      });
    }
  }
  await source?.close();
  if (w && (await w.commit())) where = newWhere;
  for (const [id, e] of entries) {
    const s = stampOf.get(id);
    if (cache && s) cache.set(id, { stamp: s.stamp, entry: e });
  }
  if (cache) {
    const live = new Set(ids);
    for (const id of [...cache.keys()]) if (!live.has(id)) cache.delete(id);
  }

  const digests: RunDigest[] = [];
  const problems: ReadProblem[] = [];
  for (const id of ids) {
    const e = entries.get(id);
    if (e?.kind === "digest") digests.push(e.digest);
    else if (e?.kind === "problem") problems.push(e.problem);
  }
  digests.sort(byTaskTreatmentRep);
  const signature = ids.map((id) => stampOf.get(id)?.stamp ?? `${id}:-`).join("|");

  // Run ids as the reports name them, to their folders (the same name, unless renamed by hand).
  const folderOf = new Map<string, string>();
  for (const [id, e] of entries) if (e.kind === "digest") folderOf.set(e.digest.run_id, id);
  const reports = async (
    want: readonly string[],
    fn: (r: RunReport) => void | Promise<void>,
  ): Promise<void> => {
    // Opened again: the ranges are checked against each run's id (a rewritten index falls back to the files).
    const index = useIndex ? await IndexReports.open(outDir) : null;
    try {
      for (let i = 0; i < want.length; i += REPORT_BATCH) {
        const runIds = want.slice(i, i + REPORT_BATCH);
        const batch = runIds.map((id) => folderOf.get(id) ?? id);
        const ranges = batch.map((id) => where.get(id) ?? null);
        const inIndex = ranges.flatMap((r, k) => (r ? [k] : []));
        const texts = index
          ? await index.texts(inIndex.map((k) => ranges[k] as ReportRange)).catch(() => [])
          : [];
        const fromIndex = new Map<number, Buffer | null>();
        inIndex.forEach((k, n) => fromIndex.set(k, texts[n] ?? null));
        for (let k = 0; k < batch.length; k++) {
          const report = await fullReport(
            outDir,
            batch[k] ?? "",
            runIds[k] ?? "",
            fromIndex.get(k) ?? null,
          );
          if (report) await fn(report);
        }
      }
    } finally {
      await index?.close();
    }
  };
  return { digests, problems, signature, reports };
}

/**
 * A run's full report (folder `id`, run id `runId`): from the index's bytes when they are that
 * run's (else, e.g. the index was replaced under the reader, from report.json, schema-parsed);
 * null when neither reads.
 */
async function fullReport(
  outDir: string,
  id: string,
  runId: string,
  bytes: Buffer | null,
): Promise<RunReport | null> {
  if (bytes) {
    try {
      const v = JSON.parse(bytes.toString("utf8")) as unknown;
      // Written from RunReportSchema's output under the header's schema fingerprint
      // (store/run-index.ts); the id check catches bytes that are not this run's.
      if (typeof v === "object" && v !== null && "run_id" in v && v.run_id === runId)
        return v as RunReport;
    } catch {
      // fall through to the file
    }
  }
  const file = runPaths(outDir, id).report;
  const text = await readFile(file, "utf8").catch(() => null);
  if (text === null) return null;
  const parsed = parseReport(file, text);
  return isProblem(parsed) ? null : parsed;
}

/**
 * Every stored report of a results folder, whole (readStoredRuns, then every report): for
 * callers that need each run's every field. Reports sorted by task, treatment, rep.
 */
export async function readReports(
  outDir: string,
  opts: { concurrency?: number; index?: boolean } = {},
): Promise<StoredReports> {
  const runs = await readStoredRuns(outDir, opts);
  const reports: RunReport[] = [];
  await runs.reports(
    runs.digests.map((d) => d.run_id),
    (r) => void reports.push(r),
  );
  return { reports, problems: runs.problems, signature: runs.signature };
}
