import { matchSteps, trajectoryOf } from "../trajectory/index.js";
import type { DimensionDef, RubricCheck } from "./types.js";
import type { DimensionOptions } from "./dimensions.js";

/**
 * skill_adherence (docs/trajectory.md): the share of the Skill's declared steps the run met,
 * in order when the steps say so. A forbidden step that happened scores the dimension 0 (a
 * Skill followed except for the one thing it forbids was not followed). N/A when the Skill did
 * not fire; left out of the rubric (`absent`) when the task declares no steps. Pure.
 */
export function skillAdherenceDimension(opts: DimensionOptions): DimensionDef {
  return {
    name: opts.name ?? "skill_adherence",
    weight: opts.weight,
    description: "share of the Skill's declared steps met (docs/trajectory.md)",
    evaluate: ({ task, evidence, tool_vocabulary }) => {
      const spec = task.skill_steps;
      if (spec === null) return { checks: [], reason: "no steps declared", absent: true };
      const fired =
        spec.skill === undefined
          ? evidence.skills_invoked.length > 0
          : evidence.skills_invoked.includes(spec.skill);
      if (!fired) {
        const why = `the Skill did not fire (${spec.skill ?? "no Skill"} not invoked)`;
        return { checks: [], reason: why, na: why };
      }
      const m = matchSteps(spec, trajectoryOf(evidence, tool_vocabulary));
      const checks: RubricCheck[] = [
        ...m.expected.map((r, i) => ({ name: `step ${i + 1}: ${r.label}`, passed: r.matched })),
        ...m.forbidden.map((r) => ({ name: `forbidden: ${r.label}`, passed: !r.matched })),
      ];
      const total = m.expected.length;
      const missed = m.expected
        .filter((r) => !r.matched)
        .map((r) => `${r.label} (${r.why ?? "not met"})`);
      const hit = m.forbidden
        .filter((r) => r.matched)
        .map((r) => `${r.label} at #${(r.call ?? 0) + 1} (${r.tool ?? "?"})`);
      const reason = [
        `${m.met}/${total} steps met${m.ordered ? " in order" : ""}`,
        ...(missed.length > 0 ? [`missed: ${missed.join("; ")}`] : []),
        ...(hit.length > 0 ? [`forbidden step taken: ${hit.join("; ")}`] : []),
      ].join("; ");
      const score = m.violated > 0 ? 0 : total === 0 ? 1 : m.met / total;
      return { checks, reason, score };
    },
  };
}
