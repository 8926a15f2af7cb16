/**
 * Depth of use per task and treatment (issue #37 item 1): from each run's `skill_usage`
 * (analysis/skill-usage.ts), one line per Skill, "`fmt` fired in 9/10 runs; `references/format.md`
 * read in 3/10; coverage 45% on average", shown by summary.md, comparison_report.md and the HTML
 * pages. Only runs that recorded a usage count (a report written before it has none), so folders
 * without one render as before. Pure.
 */
import type { RunDigest } from "../../core/digest.js";
import type { SkillUsage } from "../../core/report.js";
import type { SkillUseRow } from "./types.js";
import { RowsByKeys } from "../../plan/group.js";

interface Acc {
  task: string;
  treatment: string;
  skill: string;
  uses: SkillUsage[];
}

/** The most telling file: the first declared key file, else the least-read reference (then any other non-script file). */
function tellingFile(uses: SkillUsage[]): { file: string | null; key: boolean } {
  const key = uses.find((u) => u.key_files?.length)?.key_files?.[0];
  if (key !== undefined) return { file: key, key: true };
  const files = uses[0]?.files ?? [];
  const refs = files.filter((f) => f.startsWith("references/"));
  const pool =
    refs.length > 0 ? refs : files.filter((f) => f !== "SKILL.md" && !f.startsWith("scripts/"));
  let best: string | null = null;
  let fewest = Infinity;
  for (const f of pool) {
    const n = uses.filter((u) => u.files_read.includes(f)).length;
    if (n < fewest) [best, fewest] = [f, n];
  }
  return { file: best, key: false };
}

const percent = (x: number): string => `${Math.round(x * 100)}%`;

/** Every task × treatment × Skill with a recorded usage, in the order the runs come (analysis set only). */
export function skillUseRows(reports: readonly RunDigest[]): SkillUseRow[] {
  // The groups in first-seen order, found by task, treatment and Skill (RowsByKeys: no key text
  // built per run and usage: this runs over every run, for each report that shows the rows).
  const groups = new RowsByKeys<Acc>();
  for (const r of reports) {
    const usage = r.skill_usage;
    if (usage === undefined || !r.sample_quality.include_in_analysis) continue;
    const { task, treatment } = r;
    for (const u of usage)
      groups
        .get(task, treatment, u.skill, () => ({ task, treatment, skill: u.skill, uses: [] }))
        .uses.push(u);
  }
  return groups.rows.map((g) => {
    const runs = g.uses.length;
    const fired = g.uses.filter((u) => u.invoked).length;
    const { file, key } = tellingFile(g.uses);
    const fileRead = file === null ? 0 : g.uses.filter((u) => u.files_read.includes(file)).length;
    const coverage = g.uses.reduce((s, u) => s + u.coverage, 0) / runs;
    const parts = [`\`${g.skill}\` fired in ${fired}/${runs} runs`];
    if (file !== null)
      parts.push(`\`${file}\`${key ? " (key file)" : ""} read in ${fileRead}/${runs}`);
    parts.push(`coverage ${percent(coverage)} on average`);
    return {
      task: g.task,
      treatment: g.treatment,
      skill: g.skill,
      runs,
      fired,
      file,
      key,
      file_read: fileRead,
      coverage,
      text: parts.join("; "),
    };
  });
}

/** Each row as "task · treatment: <text>". */
export function skillUseLines(rows: readonly SkillUseRow[]): string[] {
  return rows.map((u) => `${u.task} · ${u.treatment}: ${u.text}`);
}

/** The markdown section (`## Skill use`), or null when no run recorded a usage. */
export function skillUseSection(rows: readonly SkillUseRow[]): string | null {
  if (rows.length === 0) return null;
  return [
    "## Skill use",
    "",
    '_Per task and treatment, analysis-set runs: fired = the agent invoked the Skill by its own mechanism; a file read = opened by a read tool or a shell command; coverage = share of the Skill\'s files read or run (docs/evidence.md, "Depth of use")._',
    "",
    ...skillUseLines(rows).map((l) => `- ${l}`),
  ].join("\n");
}
