/**
 * The inputs of a run's arm-integrity check after its agent (analysis/arm-leak.ts) that come
 * from the disk: each Skill's frozen copy, file by file, and the workspace as its manifest says.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { RunArmProblem } from "../core/arm-integrity.js";
import type { Evidence } from "../core/evidence.js";
import type { RunReport } from "../core/report.js";
import type { WorkspaceManifest } from "../core/workspace-manifest.js";
import { runArmProblems, type InstalledSkill } from "../analysis/arm-leak.js";
import { isIgnoredSkillPath, type TreatmentSpec } from "../suite/index.js";
import type { SkillSpec } from "../suite/types.js";
import { listFiles, sha256 } from "../util/hash.js";

/** The Skills some treatment installs: the ones a leak is of. */
export function skillsUnderTest(treatments: Iterable<TreatmentSpec>): Set<string> {
  const out = new Set<string>();
  for (const t of treatments) for (const s of t.skills) out.add(s.name);
  return out;
}

/** A Skill's frozen copy as file hashes: its folder as the suite loaded it, or its inline SKILL.md. */
async function frozenSkillFiles(s: SkillSpec): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  if (s.path !== null)
    for (const rel of await listFiles(s.path, isIgnoredSkillPath))
      files.set(rel, sha256(await readFile(path.join(s.path, rel))));
  if (s.content !== null) files.set("SKILL.md", sha256(s.content));
  return files;
}

async function installedSkills(t: TreatmentSpec | undefined): Promise<InstalledSkill[]> {
  return Promise.all(
    (t?.skills ?? []).map(async (s) => ({ name: s.name, files: await frozenSkillFiles(s) })),
  );
}

/** A workspace file's SHA-256 as the manifest records it (undefined: not listed). */
function manifestSha(m: WorkspaceManifest | null): (rel: string) => string | null | undefined {
  const byPath = new Map((m?.entries ?? []).map((e) => [e.path, e.sha256]));
  return (rel) => byPath.get(rel);
}

/** A finished run's problems (its report's `arm_integrity`). */
export async function checkRunArms(i: {
  evidence: Evidence | null;
  treatment: TreatmentSpec | undefined;
  treatments: Iterable<TreatmentSpec>;
  workspace: string | null;
  manifest: WorkspaceManifest | null;
}): Promise<RunArmProblem[]> {
  if (i.evidence === null) return [];
  return runArmProblems({
    evidence: i.evidence,
    installed: await installedSkills(i.treatment),
    underTest: skillsUnderTest(i.treatments),
    roots: [i.workspace, i.evidence.agent.cwd].filter((r): r is string => r !== null),
    workspaceSha: manifestSha(i.manifest),
  });
}

/**
 * A rescored run's problems: its leaks found again in its evidence, its drift as the run found
 * it (the frozen copy it was compared with is not in the results folder).
 */
export function rescoredArms(
  old: Pick<RunReport, "arm_integrity">,
  evidence: Evidence | null,
  treatment: TreatmentSpec | undefined,
  treatments: Iterable<TreatmentSpec>,
): RunArmProblem[] {
  const leaks =
    evidence === null
      ? (old.arm_integrity ?? []).filter((p) => p.kind === "arm_leak")
      : runArmProblems({
          evidence,
          installed: (treatment?.skills ?? []).map((s) => ({ name: s.name, files: new Map() })),
          underTest: skillsUnderTest(treatments),
          roots: evidence.agent.cwd === null ? [] : [evidence.agent.cwd],
          workspaceSha: () => undefined,
        });
  return [...leaks, ...(old.arm_integrity ?? []).filter((p) => p.kind === "skill_drift")];
}
