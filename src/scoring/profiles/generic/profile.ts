import {
  artifactPresenceDimension,
  completionDimension,
  efficiencyDimension,
  instructionFollowingDimension,
  interactionComplianceDimension,
  safetyBoundaryDimension,
  skillInvocationDimension,
} from "../../dimensions.js";
import { skillAdherenceDimension } from "../../adherence.js";
import type { DimensionResult, RubricInput, RubricProfile } from "../../types.js";

/**
 * When the task sets `require_skill_invocation` and skill_invocation is below 1.0 or N/A:
 * `Required skill not invoked: <skill>` for each required skill that was not invoked.
 */
export function requiredSkillFailures(
  input: RubricInput,
  dims: readonly DimensionResult[],
  dimension = "skill_invocation",
): string[] {
  if (!input.task.require_skill_invocation) return [];
  const d = dims.find((x) => x.name === dimension);
  if (d !== undefined && d.score !== null && d.score >= 1) return [];
  const invoked = new Set(input.evidence.skills_invoked);
  return [...new Set(input.task.required_skills)]
    .filter((s) => !invoked.has(s))
    .map((s) => `Required skill not invoked: ${s}`);
}

/** The simulated user's default instructions for every profile without its own (docs/interaction.md §1). */
export const GENERIC_SIMULATOR_PROMPT = [
  "You are a concise developer user. Answer the assistant's question in 1-3 sentences, choose reasonable",
  "defaults when offered options, and keep the task moving. Do not write code or files yourself.",
].join(" ");

/**
 * The generic rubric (docs/rubrics.md, generic): 7 dimensions, 8 for a task that declares the
 * Skill's steps; empty check lists score 1.0.
 */
export const genericProfile: RubricProfile = {
  name: "generic",
  description:
    "Skill-agnostic rubric: validator completion, skill use, artifacts, constraints, turns, efficiency, safety.",
  emptyChecks: { score: 1, reason: "no checks required" },
  dimensions: [
    completionDimension({ weight: 2.0 }),
    skillInvocationDimension({ weight: 1.0 }),
    artifactPresenceDimension({ weight: 1.0 }),
    instructionFollowingDimension({ weight: 1.0 }),
    interactionComplianceDimension({ weight: 0.8 }),
    efficiencyDimension({ weight: 0.7 }),
    safetyBoundaryDimension({ weight: 1.2 }),
    // Only in the rubric of a task that declares the Skill's steps (docs/trajectory.md).
    skillAdherenceDimension({ weight: 1.0 }),
  ],
  hardFailures: (input, dims) => requiredSkillFailures(input, dims),
  interaction: { mode: "none", max_turns: 12, simulator_prompt: GENERIC_SIMULATOR_PROMPT },
};
