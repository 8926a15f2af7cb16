import { efficiencyDimension } from "../../dimensions.js";
import type {
  DimensionDef,
  DimensionEvaluation,
  RubricProfile,
  ScoringInput,
} from "../../types.js";
import {
  ENTRY_SKILLS,
  STAGE_SKILLS,
  SUPERPOWERS_SKILLS,
  artifactQuality,
  completionOf,
  decisionCompliance,
  gateGuard,
  mainFlow,
  recoveryResilience,
  skillInvocation,
  specDrift,
} from "./classic.js";
import { cometChecksForRun, splitChecks } from "./checks-split.js";
import { cometContext } from "./context.js";
import { COMET_CONTRACT, COMET_SIMULATOR_PROMPT } from "./contract.js";
import { cometGuardHook } from "./hooks.js";
import { cometJudge } from "./judge.js";
import { cometNativeTreatment } from "./native-treatment.js";
import type { CometContext } from "./context.js";
import {
  nativeArtifactQuality,
  nativeGateGuard,
  nativeMainFlow,
  nativeRecovery,
} from "./native.js";

const CONTROL_REASON = "CONTROL business-only baseline";

type Eval = (input: ScoringInput, ctx: CometContext) => DimensionEvaluation;

/**
 * A comet dimension: CONTROL → N/A (unless `control` is 'score'); Native runs use `native`
 * when given; an invalid SDK checkpoint scores 0.0 when `sdk` is true.
 */
function dim(
  name: string,
  weight: number,
  description: string,
  classic: Eval,
  opts: { native?: Eval; sdk?: boolean; control?: "na" | "score" } = {},
): DimensionDef {
  return {
    name,
    weight,
    description,
    evaluate: (input) => {
      const ctx = cometContext(input);
      if (ctx.control && opts.control !== "score")
        return { checks: [], reason: CONTROL_REASON, na: CONTROL_REASON };
      if (ctx.native && !ctx.control && opts.native) return opts.native(input, ctx);
      if (opts.sdk === true && ctx.sdk.mode === "invalid" && !ctx.native)
        return { checks: [], score: 0, reason: ctx.sdk.reason };
      return classic(input, ctx);
    },
  };
}

const constant =
  (reason: string): Eval =>
  () => ({ checks: [], score: 1, reason });

const efficiency = efficiencyDimension({ weight: 0.8 });

/** The comet-workflow rubric (docs/rubrics.md): 10 dimensions, Classic, SDK-checkpoint and Native paths. */
export const cometWorkflowProfile: RubricProfile = {
  name: "comet-workflow",
  description:
    "Comet Classic/Native workflow rubric: phases, gates, skills, specs, business and workflow checks, decisions, artifacts, recovery.",
  emptyChecks: { score: 0, reason: "no checks" },
  checksForRun: cometChecksForRun,
  promptPrefix: COMET_CONTRACT,
  interaction: { mode: "auto_user", max_turns: 12, simulator_prompt: COMET_SIMULATOR_PROMPT },
  judge: cometJudge,
  skillHooks: cometGuardHook,
  native: cometNativeTreatment,
  claimsTask: (category, name) => category === "comet" || name.startsWith("comet-"),
  taskInteractionMode: "auto_user",
  dimensions: [
    dim("main_flow", 1.5, "workflow phases evidenced by files", mainFlow, {
      native: nativeMainFlow,
    }),
    dim(
      "gate_guard",
      1.5,
      "guard, transition and --apply commands (SDK: required checks accepted)",
      gateGuard,
      {
        native: (i) => nativeGateGuard(i),
        sdk: true,
      },
    ),
    dim(
      "skill_invocation",
      1.0,
      "entry, stage, OpenSpec and Superpowers skills, entry first",
      (i) => skillInvocation(i),
      {
        native: constant("Native skill invocation is checked by hard failures"),
      },
    ),
    dim("spec_drift", 1.0, "delta specs written are synced/archived", specDrift, {
      native: constant("Native formal spec is portable"),
      sdk: true,
    }),
    dim(
      "business_completion",
      2.0,
      "share of business validator checks passed",
      (i) => completionOf(splitChecks(i.baseline).business, "no business checks ran", false),
      {
        native: (i) =>
          completionOf(splitChecks(i.baseline).business, "no business checks ran", false),
        control: "score",
      },
    ),
    dim(
      "workflow_completion",
      1.0,
      "share of workflow validator checks passed",
      (i) =>
        completionOf(splitChecks(i.baseline).workflow, "workflow validators not available", true),
      {
        native: (i) =>
          completionOf(splitChecks(i.baseline).workflow, "workflow validators not available", true),
      },
    ),
    { ...efficiency, description: efficiency.description ?? "" },
    dim(
      "decision_point_compliance",
      1.0,
      "the subject stopped for the user at decision points",
      decisionCompliance,
      {
        native: constant("Native decisions are checked by Runtime"),
        sdk: true,
      },
    ),
    dim(
      "artifact_quality",
      1.2,
      "proposal, design, tasks and tests have substance",
      artifactQuality,
      { native: nativeArtifactQuality },
    ),
    dim(
      "recovery_resilience",
      1.0,
      "checkpoint, trajectory, context, no pending work, state recorded",
      recoveryResilience,
      {
        native: nativeRecovery,
        sdk: true,
      },
    ),
  ],
  hardFailures: (input) => cometHardFailures(input),
};

/** The comet-workflow hard failures (docs/rubrics.md, Hard failures); none for CONTROL. */
function cometHardFailures(input: ScoringInput): string[] {
  const ctx = cometContext(input);
  if (ctx.control) return [];
  const inv = input.evidence.skills_invoked;
  if (ctx.native)
    return inv.includes("comet-native") ? [] : ["Required skill not invoked: comet-native"];
  if (!inv.some((s) => ENTRY_SKILLS.includes(s))) return ["Required skill not invoked: comet"];
  const out: string[] = [];
  if (!inv.some((s) => STAGE_SKILLS.includes(s)))
    out.push("Required nested Comet stage skill not invoked");
  if (!inv.some((s) => s.startsWith("openspec-")))
    out.push("Required OpenSpec dependency skill not invoked");
  if (!inv.some((s) => SUPERPOWERS_SKILLS.includes(s)))
    out.push("Required Superpowers dependency skill not invoked");
  return out;
}
