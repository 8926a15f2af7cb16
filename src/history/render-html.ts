/**
 * A Skill's history page (history/<skill>.html, docs/history.md): one self-contained file like
 * the experiment's summary.html (report/html/page.ts): the data as JSON in a
 * `<script type="application/json">`, Chart.js and the history client inline, no network.
 * Pure: the scripts' sources are handed in.
 */
import { CLIENT_CSS } from "../report/html/client-css.js";
import { escapeHtml, inlineScript, inlineStyle, jsonForScript } from "../report/html/escape.js";
import { HISTORY_PAGE_SCHEMA, type HistoryPageData } from "./html-wire.js";
import type { SkillHistory } from "./trend.js";

export interface HistoryPageAssets {
  /** Chart.js's UMD source (report/html/chart-asset.ts) */
  chartJs: string;
  /** the history client's bundle (html-asset.ts) */
  clientJs: string;
}

/** The page's data: the history as `skillbench history SKILL --json` prints it, and the store. */
export function historyPageData(h: SkillHistory, store: string): HistoryPageData {
  return {
    schema: HISTORY_PAGE_SCHEMA,
    skill: h.skill,
    store,
    versions: h.versions,
    flaky: h.flaky,
    triggers: h.triggers,
  };
}

/** The page's HTML. */
export function renderHistoryHtml(data: HistoryPageData, assets: HistoryPageAssets): string {
  return [
    "<!doctype html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    // Everything is inline: no network access at all.
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">`,
    `<title>${escapeHtml(`Skillbench history — ${data.skill}`)}</title>`,
    `<style>${inlineStyle(CLIENT_CSS)}</style>`,
    "</head>",
    "<body>",
    '<main id="main" tabindex="-1"><noscript>This page needs JavaScript to draw its tables and charts.</noscript></main>',
    `<script type="application/json" id="skillbench-history">${jsonForScript(data)}</script>`,
    `<script>${inlineScript(assets.chartJs)}</script>`,
    `<script>${inlineScript(assets.clientJs)}</script>`,
    "</body>",
    "</html>",
    "",
  ].join("\n");
}
