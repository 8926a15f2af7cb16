/**
 * Where a Skill's history page lives (docs/history.md): `history/<skill>.html` in the `.skillbench`
 * folder beside the results (layout.ts `besideResults`), the folder that also holds the default
 * history store. The recorder writes it there, `skillbench history SKILL --html` writes it there
 * by default, and an experiment's HTML report links to it when it exists. Here, below both the
 * history and the reports, so that both name the page the same way.
 */
import path from "node:path";
import { besideResults } from "./layout.js";

/**
 * The Skill a history record is about: the candidate's Skills by name (`a+b` for several, sorted),
 * else the candidate treatment's name (`(none)` without one).
 */
export function historySkillName(
  candidate: string | null,
  candidateSkills: readonly { name: string }[],
): string {
  if (candidateSkills.length > 0)
    return candidateSkills
      .map((s) => s.name)
      .sort()
      .join("+");
  return candidate ?? "(none)";
}

/** A file name for a Skill's page: a Skill name may hold `+`, `/` or spaces. */
export function historyPageName(skill: string): string {
  return `${skill.replace(/[^A-Za-z0-9._-]/g, "_") || "_"}.html`;
}

/** The history folder beside a store file or, for a results folder, beside the results. */
export function historyPageDir(besideFolder: string): string {
  return path.join(besideFolder, "history");
}

/** The Skill's history page beside a results folder. */
export function historyPageOfResults(outDir: string, skill: string): string {
  return path.join(historyPageDir(besideResults(outDir)), historyPageName(skill));
}
