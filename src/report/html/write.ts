/** writeHtmlReports: summary.html (+ comparison_report.html) of a results folder (I/O). */
import path from "node:path";
import { writeReportPieces } from "../../store/report-files.js";
import { chartJsSource } from "./chart-asset.js";
import { scriptSafe } from "./escape.js";
import { historyPageField } from "./history-link.js";
import { loadResults, type LoadedResults } from "./load.js";
import { pageAssets, staticPagePieces, type PageAssets } from "./page.js";
import { readRunPageSync } from "./read-run.js";
import type { HtmlView, RunPageData } from "./wire.js";
import { buildHtmlOverview, failedFirst, type HtmlOverview } from "./summary-data.js";

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

/** The embedded run pages, and each one's JSON (escaped for the page), serialized once for both pages. */
interface EmbeddedPages {
  pages: Record<string, RunPageData>;
  json: Map<string, string>;
}

/** Run pages to embed, failed and errored runs first, until the budget is spent (the first page that does not fit ends it). */
function embeddedRunPages(outDir: string, loaded: LoadedResults, budget: number): EmbeddedPages {
  const pages: Record<string, RunPageData> = {};
  const json = new Map<string, string>();
  let used = 0;
  for (const { run_id: id } of failedFirst(loaded.reports)) {
    if (used >= budget) break;
    const page = readRunPageSync(outDir, id, {
      maxText: EMBED_MAX_TEXT,
      embedFilesUpTo: EMBED_FILE_MAX,
    });
    if (!page) continue;
    let text = JSON.stringify(page);
    if (used + text.length > budget) {
      // try once without file contents before giving up
      for (const f of page.files) delete f.content;
      text = JSON.stringify(page);
      if (used + text.length > budget) break;
    }
    used += text.length;
    pages[id] = page;
    json.set(id, scriptSafe(text));
  }
  return { pages, json };
}

/** The run pages' JSON object, a page at a time (keys in the order JSON.stringify gives them). */
function* runPagePieces(embedded: EmbeddedPages): Generator<string> {
  let sep = "{";
  for (const id of Object.keys(embedded.pages)) {
    yield `${sep}${scriptSafe(JSON.stringify(id))}:`;
    yield embedded.json.get(id) ?? "null";
    sep = ",";
  }
  yield sep === "{" ? "{}" : "}";
}

/** One page, written a piece at a time and atomically. */
async function writePage(
  file: string,
  overview: HtmlOverview,
  embedded: EmbeddedPages,
  assets: PageAssets,
): Promise<void> {
  await writeReportPieces(
    file,
    staticPagePieces(overview, () => runPagePieces(embedded), assets),
  );
}

/**
 * Write <outDir>/summary.html and, when comparison.json exists or the results have 2+
 * treatments, <outDir>/comparison_report.html. Each is one self-contained file (data,
 * Chart.js, script and styles inline), written a piece at a time. Returns the files written.
 */
export async function writeHtmlReports(
  outDir: string,
  opts: WriteHtmlOptions = {},
): Promise<string[]> {
  const loaded = opts.loaded ?? (await loadResults(outDir));
  const embedded = embeddedRunPages(outDir, loaded, opts.embedBudget ?? DEFAULT_EMBED_BUDGET);
  const assets = pageAssets({ chartJs: chartJsSource() });
  // The two pages differ only in their view: the data is built once.
  const built = buildHtmlOverview({
    view: "summary",
    mode: "static",
    reports: loaded.reports,
    metadata: loaded.metadata,
    comparison: loaded.comparison,
    problems: loaded.problems,
    runPages: embedded.pages,
  });
  const linked = await historyPageField(outDir, loaded.comparison, loaded.metadata);
  const overview = { ...built, experiment: { ...built.experiment, ...linked } };
  const views: Array<[HtmlView, string]> = [["summary", path.join(outDir, "summary.html")]];
  if (loaded.comparison) views.push(["comparison", path.join(outDir, "comparison_report.html")]);
  const written: string[] = [];
  for (const [view, file] of views) {
    await writePage(file, { ...overview, view }, embedded, assets);
    written.push(file);
  }
  return written;
}
