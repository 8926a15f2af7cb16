import { mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Evidence } from "../core/evidence.js";
import { parseEvidenceFile } from "../evidence/index.js";
import type { RunPlan } from "../plan/run-plan.js";
import type { Launcher } from "../sandbox/index.js";
import { validatorEnv, type TaskSpec, type TreatmentSpec } from "../suite/index.js";
import { trajectoryOf } from "../trajectory/index.js";
import { tempStem } from "../util/temp-names.js";
import { runValidators, type ValidationReport } from "../validators/index.js";
import { installValidation, type RunDirs } from "../workspace/prepare.js";
import { agentOf, type RunContext } from "./context.js";
import type { AgentSummary } from "./evaluate.js";
import { rubricTaskInput } from "./score-run.js";

export interface CheckRunInput {
  task: TaskSpec;
  treatment: TreatmentSpec;
  dirs: RunDirs;
  evidence: Evidence;
  agent: AgentSummary;
  launcher: Launcher;
  /** Told the validators' HOME as soon as it exists (the caller removes it, whatever happens). */
  onValidatorHome: (dir: string) => void;
}

/** The evidence of a run: its stored stream, read by the subject agent's decoder. */
export async function decodeRunEvidence(
  ctx: RunContext,
  plan: RunPlan,
  workspace: string,
  preexisting: Set<string>,
  stdoutFile: string,
): Promise<Evidence> {
  const opts = { workspace, preexisting };
  return parseEvidenceFile(stdoutFile, opts, agentOf(ctx, plan).driver.decoder(opts));
}

/**
 * After the agent: install and run the task's validators in the run's sandbox, with the
 * evidence in their _test_context.json (docs/tasks.md).
 */
export async function validateRun(
  ctx: RunContext,
  plan: RunPlan,
  c: CheckRunInput,
): Promise<ValidationReport> {
  const ws = c.dirs.workspace;
  await installValidation({
    workspace: ws,
    validationDir: c.task.validation_dir,
    dataDir: c.task.data_dir,
  });
  // Outside the run root the agent could write to: made fresh, after the agent has finished.
  const home = await mkdtemp(
    path.join(os.tmpdir(), tempStem("validator-home", ctx.store.experimentId, process.pid)),
  );
  c.onValidatorHome(home);
  const expected = rubricTaskInput(c.task, c.treatment);
  const validation = await runValidators({
    workspace: ws,
    scripts: c.task.validation.test_scripts,
    targetArtifacts: c.task.validation.target_artifacts,
    timeoutSec: c.task.validation.timeout,
    // A HOME of their own: nothing the agent left in its HOME can steer a validator.
    env: {
      ...validatorEnv(ctx.suite.spec.config),
      PATH: ctx.env.host.PATH ?? "/usr/bin:/bin",
      HOME: home,
      LANG: ctx.env.host.LANG ?? "C.UTF-8",
    },
    context: {
      run_id: plan.run_uuid,
      run_name: plan.run_id,
      task: plan.task,
      treatment_name: plan.treatment,
      native_terminal: c.task.evaluation.native_terminal,
      rep: plan.rep,
      profile: plan.profile,
      required_skills: expected.required_skills,
      expected_artifacts: expected.expected_artifacts,
      target_artifacts: c.task.validation.target_artifacts,
      interaction: c.agent.interaction,
      events: c.evidence,
      // The tool calls with their neutral kinds, for an inline expect's `tools:` checks
      // (docs/trajectory.md): a validator cannot know each agent's tool names.
      trajectory: trajectoryOf(c.evidence, agentOf(ctx, plan).driver.toolVocabulary).map((t) => ({
        tool: t.tool,
        kind: t.kind,
      })),
    },
    signal: ctx.signal,
    redact: ctx.env.redact,
    launcher: c.launcher,
  });
  return validation;
}
