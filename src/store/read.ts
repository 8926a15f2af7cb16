import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { InputError } from "../core/errors.js";
import { RunReportSchema, type RunReport } from "../core/report.js";
import { mapPool } from "../util/pool.js";
import { runPaths } from "./layout.js";

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
 * change (same mtime and size) since the last call. Reports sorted by task, treatment, rep.
 */
export async function readReports(
  outDir: string,
  opts: { concurrency?: number; cache?: ReportCache } = {},
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
  const read = await mapPool(
    ids,
    opts.concurrency ?? READ_CONCURRENCY,
    async (id): Promise<{ stamp: string; entry: Entry | null }> => {
      const file = runPaths(outDir, id).report;
      const st = await stat(file).catch(() => null);
      if (!st || !st.isFile()) return { stamp: `${id}:-`, entry: null };
      const stamp = `${id}:${st.mtimeMs}:${st.size}`;
      const hit = cache?.get(id);
      if (hit && hit.stamp === stamp) return { stamp, entry: hit.entry };
      let text: string;
      try {
        text = await readFile(file, "utf8");
      } catch {
        return { stamp: `${id}:-`, entry: null }; // a run without a report is incomplete: not an error
      }
      const entry = parseReport(file, text);
      cache?.set(id, { stamp, entry });
      return { stamp, entry };
    },
  );
  if (cache) {
    const live = new Set(ids);
    for (const id of [...cache.keys()]) if (!live.has(id)) cache.delete(id);
  }
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
