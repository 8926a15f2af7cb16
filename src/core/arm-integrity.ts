/**
 * Arm integrity and assertion hygiene (docs/statistics.md, "Arm integrity"): the problems that make an
 * experiment's arms unsound or its checks uninformative, as data. The kinds are shared with
 * health.json (issue #34): each problem names its kind, where it was found and why.
 */
import { z } from "zod";

const ARM_PROBLEM_KINDS = [
  /** A Skill invoked, or its files read, in an arm that does not install it. */
  "arm_leak",
  /** A Skill of the host user's own (e.g. ~/.claude/skills/<name>) with the name of one under test. */
  "host_skill_shadow",
  /** A prepared workspace or agent config that differs from what its treatment declares. */
  "arm_mismatch",
  /** A run read a file of its Skill whose content differs from the frozen copy. */
  "skill_drift",
  /** A check with the same result in every run of every compared arm. */
  "non_discriminating",
  /** A task where no run of the candidate invoked its Skill. */
  "never_exercised",
  /** A trigger query that no description variant got right. */
  "case_defect",
] as const;

/**
 * One problem of a run's own (report.json `arm_integrity`): a leak of a Skill its arm does not
 * install, or a read of one of its own Skill's files that differs from the frozen copy.
 */
export const RunArmProblemSchema = z.object({
  kind: z.enum(["arm_leak", "skill_drift"]),
  skill: z.string(),
  /** The Skill file read (as the agent named it, made workspace-relative); null for an invocation. */
  path: z.string().nullable(),
  cause: z.string(),
});
export type RunArmProblem = z.infer<typeof RunArmProblemSchema>;

/** One problem of an experiment (comparison.json, arm-integrity.json, health.json). */
export const ArmProblemSchema = z.object({
  kind: z.enum(ARM_PROBLEM_KINDS),
  /** null: not one task's (a host Skill, a trigger query). */
  task: z.string().nullable(),
  treatment: z.string().nullable(),
  /** The agent whose arm or run it concerns; null when it is every agent's. */
  agent: z.string().nullable(),
  /** The Skill, check or query it is about. */
  subject: z.string(),
  /** The runs it was seen in (empty for a problem found before runs). */
  runs: z.array(z.string()),
  cause: z.string(),
});
export type ArmProblem = z.infer<typeof ArmProblemSchema>;

export const ARM_INTEGRITY_SCHEMA = "skillbench.arm-integrity.v1";

/** arm-integrity.json: what the check before runs found (runner/arm-preflight.ts). */
export const ArmIntegrityFileSchema = z.object({
  schema: z.literal(ARM_INTEGRITY_SCHEMA),
  problems: z.array(ArmProblemSchema),
});
