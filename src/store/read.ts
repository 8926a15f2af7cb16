import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { InputError, issuesText } from "../core/errors.js";
import { digestOf, type RunDigest } from "../core/digest.js";
import { RunReportSchema, type RunReport } from "../core/report.js";
import { DigestParser } from "./digest-parser.js";
import { runPaths } from "./layout.js";
import { PackedDigests } from "./packed-digests.js";
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

/** report.json files read between two turns of the event loop (when the index does not hold them). */
const READ_SLICE = 200;
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
  /**
   * Changes when a run's report does: a sha256 of `<id>:<mtimeMs>:<size>` of every run folder
   * with a report, in id order, then `<id>:-` for each folder without one (a run in progress)
   */
  signature: string;
  /**
   * Call `fn` with the full report of each run in `ids`, in that order (a run whose report
   * is gone is skipped; one whose report.json fails RunReportSchema where its digest does not
   * look rejects with an InputError naming the file and the field). At most REPORT_BATCH reports
   * are held at once.
   */
  reports(ids: readonly string[], fn: (r: RunReport) => void | Promise<void>): Promise<void>;
}

/** Full reports of a results folder (every report held at once: for small folders and single runs). */
export interface StoredReports {
  reports: RunReport[];
  problems: ReadProblem[];
  signature: string;
}

/**
 * The whole report's schema compiled ahead of time (zod's `compile`: the same checks, the same
 * output and, for invalid input, the same errors, from the regular parser it falls back to) the
 * first time it is needed: ~10–20 ms once, paid only by a reading that parses report.json files
 * whole. The digest's: store/digest-parser.ts.
 */
const compiled: { report: typeof RunReportSchema | null } = { report: null };

function parseJson(file: string, text: string): { json: unknown } | ReadProblem {
  try {
    return { json: JSON.parse(text) as unknown };
  } catch (e) {
    return { file, message: `not valid JSON: ${String(e)}` };
  }
}

/** A whole report.json, schema-parsed. */
function parseReport(file: string, text: string): RunReport | ReadProblem {
  const read = parseJson(file, text);
  if (!("json" in read)) return read;
  compiled.report ??= z.compile(RunReportSchema);
  const parsed = compiled.report.safeParse(read.json);
  return parsed.success ? parsed.data : { file, message: issuesText(parsed.error) };
}

/**
 * A report.json's digest: its schema version and the fields the digest holds are parsed, as
 * strictly as a whole reading parses them; the rest is not read. An unindexed reading of
 * 10,000 runs spent ~0.45 CPU s in the whole report's schema and ~0.2 in this one (compiled; less
 * since the values runs repeat are checked once each, store/digest-parser.ts).
 * A run is counted by what the experiment reports read of it; a report.json broken in a field
 * they do not read fails where that field is read: a command that reads the run whole
 * (`merge`, `export`, `judge calibrate`, `--reuse`) stops on it with the file and the field
 * (fullReport), and the HTML embeds no page of it (report/html/read-run.ts).
 */
function parseDigest(file: string, text: string, parser: DigestParser): RunDigest | ReadProblem {
  const read = parseJson(file, text);
  if (!("json" in read)) return read;
  const parsed = parser.parse(read.json);
  return parsed.success ? digestOf(parsed.data) : { file, message: issuesText(parsed.error) };
}

const isProblem = (v: RunReport | RunDigest | ReadProblem): v is ReadProblem => "message" in v;

const collator = new Intl.Collator();
/** Task, then treatment, then rep (the order every report lists runs in). */
function byTaskTreatmentRep(a: RunDigest, b: RunDigest): number {
  return (
    collator.compare(a.task, b.task) || collator.compare(a.treatment, b.treatment) || a.rep - b.rep
  );
}

/**
 * The run folders of a results folder (the names under runs/), sorted; bad input when it has no
 * runs/ folder.
 */
export async function runFolderIds(outDir: string): Promise<string[]> {
  try {
    return (await readdir(path.join(outDir, "runs"), { withFileTypes: true }))
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
  } catch {
    throw new InputError(`${outDir}: not a skillbench results folder (no runs/ folder)`, {
      file: outDir,
    });
  }
}

/**
 * Every stored run of a results folder as a digest; unreadable reports are listed as
 * problems, not fatal; a run without a report (incomplete) is skipped. A run whose
 * report.json the run index holds unchanged is taken from the index (store/run-index.ts);
 * the others are read from their files (synchronously, a slice at a time) and schema-parsed, and the index
 * is written again when it did not hold exactly the folder's runs. With a cache, a digest
 * whose file did not change (same mtime and size) since the last call is reused.
 */
export async function readStoredRuns(
  outDir: string,
  opts: {
    cache?: ReportCache;
    /**
     * false: neither read nor write the run index (store/run-index.ts); "read": read it but
     * never write it (`merge` leaves its input folders as they are)
     */
    index?: boolean | "read";
  } = {},
): Promise<StoredRuns> {
  const ids = await runFolderIds(outDir);
  const cache = opts.cache;
  const useIndex = opts.index !== false;
  const writeIndex = useIndex && opts.index !== "read";
  const n = ids.length;
  // What is known of each run is kept by its position in `ids` (sorted, so a line of the index
  // finds its run by binary search), in typed arrays where it is numbers: a reading of 100,000
  // runs holds little besides their digests.
  // First the stamps, then the run index, which stands in for every report.json whose stamp
  // it holds, then the files it does not hold.
  // Synchronous stats (a few microseconds each from the inode cache, where a promise costs
  // several times that), a slice at a time so that a server reading a folder stays responsive.
  const mtime = new Float64Array(n);
  const ino = new Float64Array(n);
  /** report.json's size; -1: no report (an incomplete run) */
  const size = new Float64Array(n).fill(-1);
  // Each run's report.json by concatenation: `runPaths` joins a dozen paths per call, and a
  // folder of 10,000 runs asked for it twice a run (~6% of an unindexed reading's CPU).
  const runsDir = path.join(outDir, "runs");
  const reportOf = (id: string): string => `${runsDir}${path.sep}${id}${path.sep}report.json`;
  const statSlice = (from: number, to: number): void => {
    for (let k = from; k < to; k++) {
      const st = statSync(reportOf(ids[k] ?? ""), { throwIfNoEntry: false });
      if (!st?.isFile()) continue;
      mtime[k] = st.mtimeMs;
      size[k] = st.size;
      ino[k] = st.ino;
    }
  };
  for (let i = 0; i < n; i += STAT_SLICE) {
    if (i > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    statSlice(i, Math.min(n, i + STAT_SLICE));
  }
  /** the file stamp a cached digest was made from */
  const stampAt = (k: number): string => `${ids[k]}:${mtime[k]}:${size[k]}`;
  const indexStampAt = (k: number): string =>
    indexStamp({ mtimeMs: mtime[k] ?? 0, size: size[k] ?? 0, ino: ino[k] ?? 0 });

  // The digests read now are held packed (store/packed-digests.ts): a few dozen bytes per run.
  const packed = new PackedDigests(n);
  const digestAt = new Array<RunDigest | undefined>(n);
  const problemAt = new Map<number, ReadProblem>();
  /** where each run's full report is in the index: offset and length; length -1: in its report.json */
  let spans = new Float64Array(2 * n).fill(-1);
  /** 1: the index holds a current line of the run (with or without its report text) */
  const indexed = new Uint8Array(n);
  const source = useIndex ? await IndexReports.open(outDir) : null;
  const index = await readRunIndex(
    source,
    (id, stamp) => {
      const k = positionOf(ids, id);
      return k < 0 || (size[k] ?? -1) < 0 || indexStampAt(k) !== stamp
        ? "stale"
        : cache?.get(id)?.stamp === stampAt(k)
          ? "known"
          : "parse";
    },
    (id, digest, range) => {
      const k = positionOf(ids, id);
      if (k < 0) return;
      if (digest) digestAt[k] = packed.add(digest);
      indexed[k] = 1;
      spans[2 * k] = range?.at ?? 0;
      spans[2 * k + 1] = range?.len ?? -1;
    },
  );
  if (!index.valid) {
    digestAt.fill(undefined);
    spans.fill(-1);
    indexed.fill(0);
  }

  const missing: number[] = [];
  for (let k = 0; k < n; k++) {
    if ((size[k] ?? -1) < 0 || digestAt[k]) continue;
    const hit = cache?.get(ids[k] ?? "");
    if (hit && hit.stamp === stampAt(k)) {
      if (hit.entry.kind === "digest") digestAt[k] = hit.entry.digest;
      else problemAt.set(k, hit.entry.problem);
    } else {
      spans[2 * k + 1] = -1;
      indexed[k] = 0;
      missing.push(k);
    }
  }

  // Written again when a report was read from its file (a problem is not indexed, so it
  // alone does not count), or when the index held lines that were not used.
  const opened: { writer: Promise<RunIndexWriter | null> | null } = { writer: null };
  const writer = (): Promise<RunIndexWriter | null> =>
    (opened.writer ??= writeIndex ? RunIndexWriter.create(outDir) : Promise.resolve(null));
  const shared = new SharedValues();
  /** the runs' ranges in the index being written */
  const newSpans = new Float64Array(2 * n).fill(-1);
  // Read synchronously (a promise per open, stat, read and close costs more than reading a small
  // file from the page cache), a slice at a time so that a server reading a folder stays responsive.
  // A slice is read by a function of its own that never awaits: a loop here that awaited twice a
  // run (the writer, its drain) resumed this long function 20,000 times at 10,000 runs, which
  // sent the whole of it to V8's optimizing compiler, where the work per run is these few lines.
  /** the index writer: undefined until the first digest read asks for it (a problem does not) */
  let openedWriter: RunIndexWriter | null | undefined;
  const digestParser = new DigestParser();
  /** a digest read before the writer was open, added once it is */
  const waiting: { k: number; digest: RunDigest | null } = { k: -1, digest: null };
  const addDigest = (k: number, digest: RunDigest, w: RunIndexWriter | null): void => {
    const id = ids[k] ?? "";
    // Without the report's text (its line says: read report.json): writing the parsed report
    // out again cost this pass as much as parsing it (store/run-index.ts).
    digestAt[k] = packed.add(
      w
        ? w.add(id, indexStampAt(k), digest, null).digest
        : shared.intern(id, indexStampAt(k), digest).digest,
    );
  };
  /** Read missing[from, to); returns where it stopped: `to`, or after a digest left `waiting`. */
  const readSlice = (from: number, to: number): number => {
    for (let j = from; j < to; j++) {
      const k = missing[j] ?? -1;
      const file = reportOf(ids[k] ?? "");
      let text: string;
      try {
        text = readFileSync(file, "utf8");
      } catch {
        continue; // a run without a report is incomplete: not an error
      }
      const digest = parseDigest(file, text, digestParser);
      if (isProblem(digest)) problemAt.set(k, digest);
      else if (openedWriter === undefined) {
        waiting.k = k;
        waiting.digest = digest;
        return j + 1;
      } else addDigest(k, digest, openedWriter);
    }
    return to;
  };
  for (let j = 0; j < missing.length;) {
    const to = Math.min(missing.length, j + READ_SLICE);
    j = readSlice(j, to);
    if (waiting.digest) {
      openedWriter = await writer();
      addDigest(waiting.k, waiting.digest, openedWriter);
      waiting.digest = null;
    }
    await openedWriter?.drained();
    if (j === to && j < missing.length) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  // Every digest read is added: what numbering their values held is freed.
  packed.seal();
  const w = opened.writer !== null || index.lines !== index.matched ? await writer() : null;
  if (w && source) {
    // Copy the current lines (their report text, when they hold one), in batches read in file order.
    const current: number[] = [];
    for (let k = 0; k < n; k++) if (indexed[k] && digestAt[k]) current.push(k);
    for (let i = 0; i < current.length; i += REPORT_BATCH) {
      const batch = current.slice(i, i + REPORT_BATCH);
      const withText = batch.filter((k) => (spans[2 * k + 1] ?? -1) >= 0);
      const read = await source.texts(
        withText.map((k) => ({ at: spans[2 * k] ?? 0, len: spans[2 * k + 1] ?? 0 })),
      );
      const texts = new Map(withText.map((k, j) => [k, read[j] ?? null]));
      batch.forEach((k) => {
        const digest = digestAt[k];
        const text = texts.get(k);
        // A report text the file no longer holds in full: the line is dropped, the run read
        // from its file next time (as before).
        if (!digest || text === null) return;
        const range = w.add(ids[k] ?? "", indexStampAt(k), digest, text ?? null).range;
        if (range) {
          newSpans[2 * k] = range.at;
          newSpans[2 * k + 1] = range.len;
        }
      });
      await w.drained();
    }
  }
  await source?.close();
  if (w && (await w.commit())) spans = newSpans;
  if (cache) {
    for (let k = 0; k < n; k++) {
      const digest = digestAt[k];
      const problem = problemAt.get(k);
      const entry: Entry | null = digest
        ? { kind: "digest", digest }
        : problem
          ? { kind: "problem", problem }
          : null;
      if (entry) cache.set(ids[k] ?? "", { stamp: stampAt(k), entry });
    }
    const live = new Set(ids);
    for (const id of [...cache.keys()]) if (!live.has(id)) cache.delete(id);
  }

  // Positions of the runs with a digest, in the order every report lists runs.
  const order: number[] = [];
  const problems: ReadProblem[] = [];
  for (let k = 0; k < n; k++) {
    if (digestAt[k]) order.push(k);
    else {
      const problem = problemAt.get(k);
      if (problem) problems.push(problem);
    }
  }
  order.sort((a, b) => byTaskTreatmentRep(digestAt[a] as RunDigest, digestAt[b] as RunDigest));
  const digests = order.map((k) => digestAt[k] as RunDigest);
  // A hash of the stamps rather than their text (some 50 bytes a run, held as long as the runs).
  const stamps = createHash("sha256");
  const incomplete: string[] = [];
  for (let k = 0; k < n; k++) {
    if ((size[k] ?? -1) < 0) incomplete.push(`${ids[k]}:-`);
    else stamps.update(`${stampAt(k)}|`);
  }
  const signature = [stamps.digest("hex"), ...incomplete].join("|");
  return {
    digests,
    problems,
    signature,
    reports: fullReportReader(outDir, useIndex, digests, order, ids, spans),
  };
}

/** The position of `id` in the sorted `ids` (Array.prototype.sort's order), or -1. */
function positionOf(ids: readonly string[], id: string): number {
  let lo = 0;
  let hi = ids.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = ids[mid] ?? "";
    if (v === id) return mid;
    if (v < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/**
 * `StoredRuns.reports` for the runs `digests` (the i-th at position order[i] of `ids`, its
 * folder, whose full report is at `spans` in the index): kept in typed arrays by digest, so
 * that what the closure holds is a few bytes per run rather than the reading's arrays.
 */
function fullReportReader(
  outDir: string,
  useIndex: boolean,
  digests: readonly RunDigest[],
  order: readonly number[],
  ids: readonly string[],
  spans: Float64Array,
): StoredRuns["reports"] {
  /** byte offset and length of each digest's report in the index; length -1: read report.json */
  const where = new Float64Array(digests.length * 2);
  /** run folders not named as their run id (renamed by hand) */
  const renamed = new Map<number, string>();
  for (let i = 0; i < digests.length; i++) {
    const d = digests[i];
    const k = order[i] ?? -1;
    if (!d) continue;
    where[2 * i] = spans[2 * k] ?? 0;
    where[2 * i + 1] = spans[2 * k + 1] ?? -1;
    const folder = ids[k];
    if (folder !== undefined && folder !== d.run_id) renamed.set(i, folder);
  }
  return async (want, fn) => {
    // Each digest's slot by run id, built when asked for (not held beside the digests meanwhile).
    const slotOf = new Map<string, number>();
    digests.forEach((d, i) => slotOf.set(d.run_id, i));
    // Opened again: the ranges are checked against each run's id (a rewritten index falls back to the files).
    const index = useIndex ? await IndexReports.open(outDir) : null;
    try {
      for (let i = 0; i < want.length; i += REPORT_BATCH) {
        const runIds = want.slice(i, i + REPORT_BATCH);
        const slots = runIds.map((id) => slotOf.get(id));
        const batch = runIds.map((id, k) => {
          const slot = slots[k];
          return (slot === undefined ? undefined : renamed.get(slot)) ?? id;
        });
        const ranges = slots.map((slot): ReportRange | null => {
          if (slot === undefined) return null;
          const len = where[2 * slot + 1] ?? -1;
          return len < 0 ? null : { at: where[2 * slot] ?? 0, len };
        });
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
}

/**
 * A run's full report (folder `id`, run id `runId`): from the index's bytes when they are that
 * run's (else, e.g. the index was replaced under the reader, from report.json, schema-parsed);
 * null when neither reads (the run's report is gone); InputError when report.json is not a
 * valid run report.
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
  // Its digest was read (parseDigest): the report is broken where a digest does not look.
  // Bad input, named, rather than a run silently missing from what reads runs whole.
  if (isProblem(parsed))
    throw new InputError(`${file}: not a valid run report: ${parsed.message}`, { file });
  return parsed;
}

/**
 * Every stored report of a results folder, whole (readStoredRuns, then every report): for
 * callers that need each run's every field. Reports sorted by task, treatment, rep.
 */
export async function readReports(
  outDir: string,
  opts: { index?: boolean | "read" } = {},
): Promise<StoredReports> {
  const runs = await readStoredRuns(outDir, opts);
  const reports: RunReport[] = [];
  await runs.reports(
    runs.digests.map((d) => d.run_id),
    (r) => void reports.push(r),
  );
  return { reports, problems: runs.problems, signature: runs.signature };
}
