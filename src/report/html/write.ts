/** writeHtmlReports: summary.html (+ comparison_report.html) of a results folder (I/O). */
import path from "node:path";
import { writeReportFile } from "../../store/report-files.js";
import { chartJsSource } from "./chart-asset.js";
import { loadResults, type LoadedResults } from "./load.js";
import { renderHtmlPage } from "./page.js";
import { readRunPage } from "./read-run.js";
import type { HtmlView, RunPageData } from "./wire.js";
import { buildHtmlData, embedOrder, runRow } from "./summary-data.js";

/** Characters of run-page JSON embedded per file (all run pages together). */
const DEFAULT_EMBED_BUDGET = 2_000_000;
/** Longest text of one transcript field in an embedded run page. */
const EMBED_MAX_TEXT = 4_000;
/** Workspace text files up to this size are embedded in the run page. */
const EMBED_FILE_MAX = 16_000;

export interface WriteHtmlOptions {
  /** characters of embedded run-page JSON per file (default 2,000,000); 0 embeds none */
  embedBudget?: number;
  /** the folder's reports and comparison, already read and built by the caller (default: read them) */
  loaded?: LoadedResults;
}

/** Run pages to embed, failed and errored runs first, until the budget is spent (the first page that does not fit ends it). */
async function embeddedRunPages(
  outDir: string,
  loaded: LoadedResults,
  budget: number,
): Promise<Record<string, RunPageData>> {
  const pages: Record<string, RunPageData> = {};
  let used = 0;
  for (const id of embedOrder(loaded.reports.map(runRow))) {
    if (used >= budget) break;
    const page = await readRunPage(outDir, id, {
      maxText: EMBED_MAX_TEXT,
      embedFilesUpTo: EMBED_FILE_MAX,
    });
    if (!page) continue;
    let size = JSON.stringify(page).length;
    if (used + size > budget) {
      // try once without file contents before giving up
      for (const f of page.files) delete f.content;
      size = JSON.stringify(page).length;
      if (used + size > budget) break;
    }
    used += size;
    pages[id] = page;
  }
  return pages;
}

/**
 * Write <outDir>/summary.html and, when comparison.json exists or the results have 2+
 * treatments, <outDir>/comparison_report.html. Each is one self-contained file (data,
 * Chart.js, script and styles inline). Returns the files written.
 */
export async function writeHtmlReports(
  outDir: string,
  opts: WriteHtmlOptions = {},
): Promise<string[]> {
  const loaded = opts.loaded ?? (await loadResults(outDir));
  const pages = await embeddedRunPages(outDir, loaded, opts.embedBudget ?? DEFAULT_EMBED_BUDGET);
  const chartJs = chartJsSource();
  const views: Array<[HtmlView, string]> = [["summary", path.join(outDir, "summary.html")]];
  if (loaded.comparison) views.push(["comparison", path.join(outDir, "comparison_report.html")]);
  const written: string[] = [];
  for (const [view, file] of views) {
    const data = buildHtmlData({
      view,
      mode: "static",
      reports: loaded.reports,
      metadata: loaded.metadata,
      comparison: loaded.comparison,
      problems: loaded.problems,
      runPages: pages,
    });
    await writeReportFile(file, renderHtmlPage(data, { chartJs }));
    written.push(file);
  }
  return written;
}
