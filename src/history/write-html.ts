/**
 * Writing a Skill's history page (docs/history.md): `skillbench history SKILL --html [FILE]`, and
 * the recorder after each record, beside the results (store/history-page.ts), so that the
 * experiment's HTML report can link to it. I/O at the edge of the pure renderer (render-html.ts).
 */
import { chartJsSource } from "../report/html/chart-asset.js";
import { writeFileAtomic } from "../util/fs.js";
import { historyClientJsSource } from "./html-asset.js";
import { historyPageData, renderHistoryHtml } from "./render-html.js";
import type { HistoryStore } from "./store.js";
import { skillHistory, type SkillHistory } from "./trend.js";

/** Write the page of a Skill's history to `file` (its folder made if missing), atomically. */
export async function writeHistoryPage(
  file: string,
  h: SkillHistory,
  store: string,
): Promise<void> {
  const html = renderHistoryHtml(historyPageData(h, store), {
    chartJs: chartJsSource(),
    clientJs: historyClientJsSource(),
  });
  await writeFileAtomic(file, html);
}

/** The Skill's page as the store now has it (after a record), written to `file`. */
export async function refreshHistoryPage(
  store: HistoryStore,
  skill: string,
  file: string,
): Promise<void> {
  const records = await store.records(skill);
  await writeHistoryPage(file, skillHistory(skill, records), store.where);
}
