/**
 * The experiment's link to its Skill's history page (docs/history.md): present when the page
 * exists beside the results (store/history-page.ts) as the report is written, i.e. once the
 * store knows the Skill. The recorder writes the page after the experiment's reports, so an
 * experiment's own HTML links to it from the Skill's next experiment on, or when rewritten
 * (`skillbench report`). I/O: reads suite.json and looks for the file.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { historyPageOfResults, historySkillName } from "../../store/history-page.js";
import type { Metadata } from "../../store/metadata.js";
import { readSuiteSnapshot } from "../../store/suite-snapshot.js";
import type { Comparison } from "../comparison/types.js";

/** The header's link, as the overview's `experiment.history_page` (absent without a page). */
export async function historyPageField(
  outDir: string,
  comparison: Comparison | null,
  metadata: Metadata | null,
): Promise<{ history_page?: { skill: string; href: string } }> {
  const treatments = comparison?.treatments ?? metadata?.treatments ?? [];
  const candidate = comparison?.roles.candidate ?? treatments[treatments.length - 1] ?? null;
  if (candidate === null) return {};
  const suite = await readSuiteSnapshot(outDir).catch(() => null);
  const skills = suite?.treatments.find((t) => t.name === candidate)?.skills ?? [];
  const skill = historySkillName(candidate, skills);
  const file = historyPageOfResults(outDir, skill);
  if (!existsSync(file)) return {};
  return { history_page: { skill, href: path.relative(outDir, file).split(path.sep).join("/") } };
}
