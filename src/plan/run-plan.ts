import { z } from "zod";
import { errorMessage, InputError } from "../core/errors.js";
import { SANDBOX_KINDS } from "../core/sandbox.js";
import { resolveInteraction, taskInteractionSettings } from "../interaction/index.js";
import type { InteractionConfig, InteractionFlags } from "../interaction/config.js";
import {
  chooseSandbox,
  requestedSandbox,
  type SandboxChoice,
  type SandboxProbe,
} from "../sandbox/index.js";
import { resolveProfile, type RubricProfile } from "../scoring/index.js";
import type { Suite, TaskSpec, TreatmentSpec } from "../suite/index.js";
import type { RunSpec } from "./matrix.js";
import { renderRunPrompt } from "./prompt.js";

const RUN_PLAN_SCHEMA = "skillbench.run-plan.v1";

const Source = z.enum(["cli", "task", "profile"]);

/**
 * Everything decided about one run before it starts, settled once (docs/ARCHITECTURE.md): the
 * agent, profile, sandbox, timeout, interaction, rendered prompt and the treatment's files.
 * Stored as runs/<id>/plan.json; execution, `rescore` and reports read it.
 */
export const RunPlanSchema = z.object({
  schema: z.literal(RUN_PLAN_SCHEMA),
  run_id: z.string(),
  task: z.string(),
  treatment: z.string(),
  rep: z.number().int(),
  /** The id the prompt template and the validators' context see ({run_id}). */
  run_uuid: z.string(),
  agent: z.object({ name: z.string(), bin: z.string(), version: z.string().nullable() }),
  model: z.string().nullable(),
  profile: z.string(),
  sandbox: z.object({
    /** As chosen: --sandbox, else the task's, else the suite's, else auto. */
    choice: z.enum([...SANDBOX_KINDS, "auto"]),
    /** What it resolves to on this machine, and why. */
    kind: z.enum(SANDBOX_KINDS),
    why: z.string(),
  }),
  timeout_sec: z.number().positive(),
  interaction: z.object({
    mode: z.enum(["none", "auto_user"]),
    mode_source: Source,
    max_turns: z.number().int(),
    max_turns_source: Source,
    simulator_prompt: z.string(),
    simulator_prompt_source: z.enum(["cli", "env_file", "task", "suite_file", "profile"]),
    decision_patterns: z.array(z.string()),
    decision_patterns_cli: z.array(z.string()),
    decision_reply: z.string().nullable(),
    decision_replies: z.array(z.string()),
    continue_prompt: z.string(),
    fresh_resume_marker: z.string().nullable(),
    simulator_model: z.string().nullable(),
  }),
  /** The prompt the agent is given (the task's instruction rendered with run_uuid). */
  prompt: z.string(),
  /** What the treatment puts into the workspace. */
  treatment_files: z.object({
    skills: z.array(
      z.object({
        name: z.string(),
        source_type: z.enum(["path", "inline"]),
        path: z.string().nullable(),
        hash: z.string(),
      }),
    ),
    claude_md: z.boolean(),
  }),
});
export type RunPlan = z.infer<typeof RunPlanSchema>;

/**
 * The experiment-wide settings each run's plan is settled from; read-only, built once by
 * `planSettings` (runner/plan-suite.ts) so no plan sees settings another did not.
 */
export interface PlanSettings {
  readonly suite: Suite;
  /** The suite's profiles over the built-ins. */
  readonly profiles: Readonly<Record<string, RubricProfile>>;
  /** --profile (or skillbench.yaml's profile). */
  readonly profileOverride: string | null;
  /** --timeout-sec (or skillbench.yaml's). */
  readonly timeoutSecOverride: number | null;
  readonly sandbox: {
    readonly cli: SandboxChoice | null;
    readonly suite: SandboxChoice | null;
    /** What this machine offers (null: not probed; auto then resolves as if nothing were there). */
    readonly probe: SandboxProbe | null;
    /** The task's environment has a Dockerfile (the one file the plan needs to know of). */
    readonly hasDockerfile: (task: TaskSpec) => boolean;
  };
  readonly interaction: {
    readonly cli?: InteractionFlags | undefined;
    readonly envPromptFileText?: string | null | undefined;
    readonly suitePromptFileText?: string | null | undefined;
    readonly simulatorModel?: string | null | undefined;
  };
  /**
   * The resolved agents by driver name (src/runner/preflight.ts): each run's plan records the
   * binary and version of its own agent (its RunSpec's, settled by the matrix). Before the agents
   * are resolved (the pre-flight check) it is empty and plans carry no binary or version yet.
   */
  readonly agents: Readonly<
    Record<string, { readonly bin: string; readonly version: string | null }>
  >;
  /** The experiment's model (the first of `--model`'s list): a spec without its own takes it. */
  readonly model: string | null;
}

/** The profile a run is scored with: --profile, else the treatment's, else the task's. */
export function runProfile(
  s: Pick<PlanSettings, "profiles" | "profileOverride">,
  task: TaskSpec,
  tr: TreatmentSpec,
): string {
  const profile = s.profileOverride ?? tr.profile ?? task.evaluation.inferred_profile;
  try {
    resolveProfile(profile, s.profiles);
  } catch (e) {
    if (s.profileOverride)
      throw new InputError(`--profile ${s.profileOverride}: ${errorMessage(e)}`, {
        field: "--profile",
      });
    throw new InputError(`${task.rel_dir}/task.toml: [evaluation].profile: ${errorMessage(e)}`, {
      file: `${task.rel_dir}/task.toml`,
      field: "[evaluation].profile",
    });
  }
  return profile;
}

/** The interaction settings of a run under a profile. */
function runInteraction(
  s: PlanSettings,
  task: TaskSpec,
  profile: string,
): InteractionConfig & { simulator_model: string | null } {
  return {
    ...resolveInteraction({
      profile,
      task: taskInteractionSettings(task.interaction),
      cli: s.interaction.cli,
      envPromptFileText: s.interaction.envPromptFileText ?? null,
      suitePromptFileText: s.interaction.suitePromptFileText ?? null,
    }),
    simulator_model: s.interaction.simulatorModel ?? null,
  };
}

/**
 * Settle one run: every decision the run's execution, its rescore and its reports share. Pure
 * (the sandbox probe and the Dockerfile check come in with the settings). Throws InputError
 * naming the file and field for a profile that does not resolve or a prompt that does not render.
 */
export function settleRun(s: PlanSettings, spec: RunSpec, runUuid: string): RunPlan {
  const task = s.suite.tasks.find((t) => t.name === spec.task);
  const tr = s.suite.treatments.find((t) => t.name === spec.treatment);
  if (!task || !tr) throw new Error(`planned run ${spec.run_id} has no task or treatment`);
  const profile = runProfile(s, task, tr);
  const prompt = renderRunPrompt(task, tr, profile, runUuid);
  const interaction = runInteraction(s, task, profile);
  // Safe by default: `auto` (docs/sandbox.md); local only when chosen or nothing else works.
  const choice = requestedSandbox(s.sandbox.cli, task, s.sandbox.suite);
  const chosen = chooseSandbox(
    choice,
    { hasDockerfile: s.sandbox.hasDockerfile(task) },
    s.sandbox.probe ?? { dockerDaemon: false, bwrap: false },
  );
  return {
    schema: RUN_PLAN_SCHEMA,
    run_id: spec.run_id,
    task: spec.task,
    treatment: spec.treatment,
    rep: spec.rep,
    run_uuid: runUuid,
    agent: {
      name: spec.agent,
      bin: s.agents[spec.agent]?.bin ?? "",
      version: s.agents[spec.agent]?.version ?? null,
    },
    // The run's own (its treatment's pin, else one of the default list: plan/models.ts); a spec
    // planned without models (null) takes the experiment's.
    model: spec.model ?? s.model,
    profile,
    sandbox: { choice, kind: chosen.kind, why: chosen.why },
    timeout_sec: s.timeoutSecOverride ?? task.environment.timeout_sec,
    interaction,
    prompt,
    treatment_files: {
      skills: tr.skills.map((k) => ({
        name: k.name,
        source_type: k.source_type,
        path: k.path,
        hash: k.hash,
      })),
      claude_md: tr.claude_md !== null,
    },
  };
}
