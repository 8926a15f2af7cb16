/** The single HTML document used for summary.html, comparison_report.html and the viewer's pages (given Chart.js's source; the client script is read once). */
import { CLIENT_CSS } from "./client-css.js";
import { clientJsSource } from "./client-asset.js";
import { toWire } from "./columns.js";
import { escapeHtml, inlineScript, inlineStyle, jsonForScript } from "./escape.js";
import type { HtmlData } from "./wire.js";

export interface PageOptions {
  /** Chart.js UMD source (chartJsSource()) */
  chartJs: string;
}

export function renderHtmlPage(data: HtmlData, opts: PageOptions): string {
  const title = `${data.view === "comparison" ? "Skillbench comparison report" : "Skillbench summary"} — ${data.experiment.id ?? ""}`;
  return [
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
    `<script type="application/json" id="skillbench-data">${jsonForScript({ ...toWire(data), run_pages: {} })}</script>`,
    `<script type="application/json" id="skillbench-run-pages">${jsonForScript(data.run_pages)}</script>`,
    `<script>${inlineScript(opts.chartJs)}</script>`,
    `<script>${inlineScript(clientJsSource())}</script>`,
    "</body>",
    "</html>",
    "",
  ].join("\n");
}
