import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { InputError } from "../core/errors.js";
import { RunReportSchema, type RunReport } from "../core/report.js";
import { mapPool } from "../util/pool.js";
import { runPaths } from "./layout.js";
import {
  indexedReport,
  indexText,
  readRunIndex,
  writeRunIndex,
  type IndexEntry,
} from "./run-index.js";

/** A run as the index holds it (json null: to be serialised when the index is written). */
interface IndexedRun {
  id: string;
  stamp: string;
  json: string | null;
  report: RunReport;
}

export interface ReadProblem {
  file: string;
  message: string;
}

/** Concurrent file reads (enough to keep the disk busy, few enough not to exhaust descriptors). */
const READ_CONCURRENCY = 16;

type Entry = { kind: "report"; report: RunReport } | { kind: "problem"; problem: ReadProblem };

/** Parsed reports by run id, with the file stamp they were parsed from. */
export type ReportCache = Map<string, { stamp: string; entry: Entry }>;

export interface StoredReports {
  reports: RunReport[];
  problems: ReadProblem[];
  /** `<id>:<mtimeMs>:<size>` of every run folder in id order (`<id>:-` without a report) */
  signature: string;
}

function parseReport(file: string, text: string): Entry {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { kind: "problem", problem: { file, message: `not valid JSON: ${String(e)}` } };
  }
  const parsed = RunReportSchema.safeParse(json);
  if (parsed.success) return { kind: "report", report: parsed.data };
  return {
    kind: "problem",
    problem: {
      file,
      message: parsed.error.issues
        .map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`)
        .join("; "),
    },
  };
}

/**
 * Every stored report of a results folder, parsed with the schema; unreadable ones are
 * listed as problems, not fatal; a run without a report (incomplete) is skipped. Reads
 * with a bounded pool, and with a cache reuses the parse of a report whose file did not
 * change (same mtime and size) since the last call. A report whose file the run index
 * holds unchanged is taken from the index, and the index is written again when it was
 * missing or out of date (store/run-index.ts). Reports sorted by task, treatment, rep.
 */
export async function readReports(
  outDir: string,
  opts: {
    concurrency?: number;
    cache?: ReportCache;
    /** false: neither read nor write the run index (store/run-index.ts) */
    index?: boolean;
  } = {},
): Promise<StoredReports> {
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
  // The run index (store/run-index.ts) stands in for every report.json whose stamp it holds.
  const index = opts.index === false ? new Map<string, IndexEntry>() : await readRunIndex(outDir);
  const indexState = { stale: false };
  const read = await mapPool(
    ids,
    opts.concurrency ?? READ_CONCURRENCY,
    async (id): Promise<{ stamp: string; entry: Entry | null; indexed: IndexedRun | null }> => {
      const file = runPaths(outDir, id).report;
      const st = await stat(file).catch(() => null);
      if (!st || !st.isFile()) return { stamp: `${id}:-`, entry: null, indexed: null };
      const stamp = `${id}:${st.mtimeMs}:${st.size}`;
      const indexStamp = `${st.mtimeMs}:${st.size}:${st.ino}`;
      const hit = cache?.get(id);
      const known = index.get(id);
      if (hit && hit.stamp === stamp) {
        const indexed =
          hit.entry.kind === "report"
            ? {
                id,
                stamp: indexStamp,
                json: known?.stamp === indexStamp ? known.json : null,
                report: hit.entry.report,
              }
            : null;
        if (indexed && indexed.json === null) indexState.stale = true;
        return { stamp, entry: hit.entry, indexed };
      }
      if (known?.stamp === indexStamp) {
        const report = indexedReport(known);
        if (report) {
          const entry: Entry = { kind: "report", report };
          cache?.set(id, { stamp, entry });
          return { stamp, entry, indexed: { id, stamp: indexStamp, json: known.json, report } };
        }
      }
      let text: string;
      try {
        text = await readFile(file, "utf8");
      } catch {
        return { stamp: `${id}:-`, entry: null, indexed: null }; // a run without a report is incomplete: not an error
      }
      const entry = parseReport(file, text);
      cache?.set(id, { stamp, entry });
      if (entry.kind !== "report") return { stamp, entry, indexed: null };
      indexState.stale = true;
      return { stamp, entry, indexed: { id, stamp: indexStamp, json: null, report: entry.report } };
    },
  );
  if (cache) {
    const live = new Set(ids);
    for (const id of [...cache.keys()]) if (!live.has(id)) cache.delete(id);
  }
  // Written again when a report was read from its file, or the index holds runs no longer there.
  const indexed = read.flatMap((r) => (r.indexed ? [r.indexed] : []));
  if (opts.index !== false && (indexState.stale || index.size !== indexed.length))
    await writeRunIndex(
      outDir,
      indexed.map((r) => ({ id: r.id, stamp: r.stamp, json: r.json ?? indexText(r.report) })),
    );
  const reports: RunReport[] = [];
  const problems: ReadProblem[] = [];
  for (const { entry } of read) {
    if (entry?.kind === "report") reports.push(entry.report);
    else if (entry?.kind === "problem") problems.push(entry.problem);
  }
  reports.sort(
    (a, b) =>
      a.task.localeCompare(b.task) || a.treatment.localeCompare(b.treatment) || a.rep - b.rep,
  );
  return { reports, problems, signature: read.map((r) => r.stamp).join("|") };
}
