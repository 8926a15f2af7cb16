/**
 * The inputs of a run's Skill usage (analysis/skill-usage.ts) that come from the disk: each
 * installed Skill's file list, as the suite froze it. A rescore has no frozen copy: it derives
 * the usage again from the evidence with the file list the run recorded.
 */
import type { Evidence } from "../core/evidence.js";
import type { RunReport, SkillUsage } from "../core/report.js";
import { runSkillUsage, type InstalledSkillFiles } from "../analysis/skill-usage.js";
import { isIgnoredSkillPath, type TreatmentSpec } from "../suite/index.js";
import { listFiles } from "../util/hash.js";

/** The treatment's Skills with their files (a folder's, or an inline Skill's one SKILL.md). */
async function installedSkillFiles(t: TreatmentSpec | undefined): Promise<InstalledSkillFiles[]> {
  return Promise.all(
    (t?.skills ?? []).map(async (s) => ({
      name: s.name,
      files: s.path !== null ? await listFiles(s.path, isIgnoredSkillPath) : ["SKILL.md"],
      keyFiles: s.key_files,
    })),
  );
}

/** A finished run's `skill_usage` (undefined: no Skill installed, or no evidence). */
export async function runSkillUsageOf(
  evidence: Evidence | null,
  treatment: TreatmentSpec | undefined,
): Promise<SkillUsage[] | undefined> {
  if (evidence === null || !treatment?.skills.length) return undefined;
  // The Skill folders were read when the suite loaded and installed since; one gone meanwhile
  // leaves the report without a usage rather than without a report.
  const installed = await installedSkillFiles(treatment).catch(() => null);
  return installed === null ? undefined : runSkillUsage(evidence, installed);
}

/** A rescored run's `skill_usage`: derived again from its evidence over the files it recorded. */
export function rescoredSkillUsage(
  old: Pick<RunReport, "skill_usage">,
  evidence: Pick<Evidence, "files_read" | "commands_run" | "skills_invoked"> | null,
): SkillUsage[] | undefined {
  if (old.skill_usage === undefined || evidence === null) return old.skill_usage;
  return runSkillUsage(
    evidence,
    old.skill_usage.map((u) => ({ name: u.skill, files: u.files, keyFiles: u.key_files })),
  );
}
