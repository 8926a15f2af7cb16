import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { InputError } from "../core/errors.js";
import { RunReportSchema, type RunReport } from "../core/report.js";
import { mapPool } from "../util/pool.js";
import { runPaths } from "./layout.js";
import { indexStamp, readRunIndex, writeRunIndex } from "./run-index.js";

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
  const useIndex = opts.index !== false;
  const concurrency = opts.concurrency ?? READ_CONCURRENCY;
  // First the stamps, then the run index (store/run-index.ts), which stands in for every
  // report.json whose stamp it holds (only those of its lines are parsed), then the files.
  const stamps = await mapPool(ids, concurrency, async (id) => {
    const st = await stat(runPaths(outDir, id).report).catch(() => null);
    return st?.isFile()
      ? { id, stamp: `${id}:${st.mtimeMs}:${st.size}`, indexStamp: indexStamp(st) }
      : null;
  });
  const byId = new Map(stamps.flatMap((s) => (s ? [[s.id, s] as const] : [])));
  const index = useIndex
    ? await readRunIndex(outDir, (id, stamp) => {
        const s = byId.get(id);
        return s === undefined || s.indexStamp !== stamp
          ? "stale"
          : cache?.get(id)?.stamp === s.stamp
            ? "known"
            : "parse";
      })
    : { runs: new Map<string, RunReport>(), matched: 0, lines: 0 };
  const read = await mapPool(
    stamps,
    concurrency,
    async (s, i): Promise<{ stamp: string; entry: Entry | null; indexStamp: string | null }> => {
      if (!s) return { stamp: `${ids[i] ?? ""}:-`, entry: null, indexStamp: null };
      const { id, stamp } = s;
      const hit = cache?.get(id);
      if (hit && hit.stamp === stamp) return { stamp, entry: hit.entry, indexStamp: s.indexStamp };
      const indexed = index.runs.get(id);
      if (indexed) {
        const entry: Entry = { kind: "report", report: indexed };
        cache?.set(id, { stamp, entry });
        return { stamp, entry, indexStamp: s.indexStamp };
      }
      const file = runPaths(outDir, id).report;
      let text: string;
      try {
        text = await readFile(file, "utf8");
      } catch {
        return { stamp: `${id}:-`, entry: null, indexStamp: null }; // a run without a report is incomplete: not an error
      }
      const entry = parseReport(file, text);
      cache?.set(id, { stamp, entry });
      return { stamp, entry, indexStamp: s.indexStamp };
    },
  );
  if (cache) {
    const live = new Set(ids);
    for (const id of [...cache.keys()]) if (!live.has(id)) cache.delete(id);
  }
  // Written again when it did not hold every report read (a report read from its file, or
  // one the cache had), or held lines that were not used (runs gone or changed).
  const indexable = read.flatMap((r, i) =>
    r.entry?.kind === "report" && r.indexStamp !== null
      ? [{ id: ids[i] ?? "", stamp: r.indexStamp, report: r.entry.report }]
      : [],
  );
  if (useIndex && (index.matched !== indexable.length || index.lines !== index.matched))
    await writeRunIndex(outDir, indexable);
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
