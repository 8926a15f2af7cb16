/** The single HTML document used for summary.html, comparison_report.html and the viewer's pages (given Chart.js's source; the client script is read once). */
import { CLIENT_CSS } from "./client-css.js";
import { clientJsSource } from "./client-asset.js";
import { toWire } from "./columns.js";
import { escapeHtml, inlineScript, inlineStyle, jsonForScript } from "./escape.js";
import { jsonPieces } from "./json-pieces.js";
import { runColumnPieces } from "./run-table.js";
import type { HtmlOverview } from "./summary-data.js";
import type { HtmlData, HtmlView } from "./wire.js";

export interface PageOptions {
  /** Chart.js UMD source (chartJsSource()) */
  chartJs: string;
}

/** The inline scripts of a page, escaped once for every page written with them. */
export interface PageAssets {
  chartJs: string;
  clientJs: string;
}

export function pageAssets(opts: PageOptions): PageAssets {
  return { chartJs: inlineScript(opts.chartJs), clientJs: inlineScript(clientJsSource()) };
}

interface PageParts {
  view: HtmlView;
  experimentId: string | null;
  /** the overview JSON (escaped pieces) */
  data: Iterable<string>;
  /** the run pages' JSON (escaped pieces) */
  runPages: Iterable<string>;
}

/** The page, a piece at a time (the pieces joined are the document). */
function* pagePieces(parts: PageParts, assets: PageAssets): Generator<string> {
  const title = `${parts.view === "comparison" ? "Skillbench comparison report" : "Skillbench summary"} — ${parts.experimentId ?? ""}`;
  yield [
    "<!doctype html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    // Everything is inline: no network access at all.
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; connect-src 'self'">`,
    `<title>${escapeHtml(title)}</title>`,
    `<style>${inlineStyle(CLIENT_CSS)}</style>`,
    "</head>",
    "<body>",
    '<a class="sr-only" href="#main">Skip to content</a>',
    '<main id="main" tabindex="-1"><noscript>This report needs JavaScript to draw its tables and charts.</noscript></main>',
    // The run pages in an element of their own: the client parses them only when one is opened,
    // so they do not delay the first view.
    '<script type="application/json" id="skillbench-data">',
  ].join("\n");
  yield* parts.data;
  yield '</script>\n<script type="application/json" id="skillbench-run-pages">';
  yield* parts.runPages;
  yield `</script>\n<script>${assets.chartJs}</script>\n<script>${assets.clientJs}</script>\n</body>\n</html>\n`;
}

export function renderHtmlPage(data: HtmlData, opts: PageOptions): string {
  const parts: PageParts = {
    view: data.view,
    experimentId: data.experiment.id,
    data: [jsonForScript({ ...toWire(data), run_pages: {} })],
    runPages: [jsonForScript(data.run_pages)],
  };
  return [...pagePieces(parts, pageAssets(opts))].join("");
}

/**
 * A static page written a piece at a time: the same bytes as renderHtmlPage of the same data
 * (the run table from the overview's digests, a chunk of runs at a time), never the whole
 * document or its data as one string. `runPages` gives the run pages' JSON, escaped.
 */
export function staticPagePieces(
  overview: HtmlOverview,
  runPages: () => Iterable<string>,
  assets: PageAssets,
): Generator<string> {
  const data = { ...overview, run_pages: {} };
  return pagePieces(
    {
      view: overview.view,
      experimentId: overview.experiment.id,
      data: jsonPieces(data, { runs: () => runColumnPieces(overview.runs) }),
      runPages: runPages(),
    },
    assets,
  );
}
