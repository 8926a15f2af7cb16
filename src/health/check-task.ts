/**
 * One task's health observations (docs/health.md): the validators on the untouched prepared
 * workspace (the null agent) and on the reference solution's (the oracle), each `repeats` times,
 * in a sandbox of the kind a run of the task gets. The workspace is prepared, the validators are
 * installed and run, exactly as a run does it (workspace/prepare.ts, validators/), without an agent.
 */
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { errorMessage } from "../core/errors.js";
import { parseEvidence } from "../evidence/index.js";
import { createSandbox, type Sandbox, type SandboxKind } from "../sandbox/index.js";
import { validatorEnv, type TaskSpec } from "../suite/index.js";
import type { SuiteConfig } from "../suite/types.js";
import { tempStem } from "../util/temp-names.js";
import { runValidators } from "../validators/index.js";
import {
  createRunDirs,
  installValidation,
  prepareWorkspace,
  removeRunDirs,
  type RunDirs,
} from "../workspace/prepare.js";
import type { CheckSet, OracleObservation, TaskObservation } from "./classify.js";
import { applySolution, findSolution } from "./solution.js";

export interface TaskCheckContext {
  config: SuiteConfig;
  sandbox: { kind: SandboxKind; why: string };
  repeats: number;
  hostEnv: Record<string, string | undefined>;
  /** Hidden from bwrap, never mounted into docker (the results folder, or check's --out). */
  resultsDir: string;
  redact: (s: string) => string;
  signal?: AbortSignal | undefined;
  /** An id for temporary folders (swept after a kill -9 as a run's are). */
  experimentId: string;
}

/** The validators' view of a health check: no agent ran, so no transcript (docs/health.md). */
function validatorContext(task: TaskSpec, phase: "oracle" | "null", rep: number): unknown {
  return {
    run_id: randomUUID(),
    run_name: `${task.name}-health-${phase}-r${rep}`,
    task: task.name,
    treatment_name: "CONTROL",
    native_terminal: task.evaluation.native_terminal,
    rep,
    profile: task.evaluation.inferred_profile,
    required_skills: task.evaluation.required_skills,
    expected_artifacts: task.evaluation.expected_artifacts,
    target_artifacts: task.validation.target_artifacts,
    interaction: null,
    events: parseEvidence(""),
    /** Set only here: a validator may leave out what only an agent's transcript can show. */
    health: phase,
  };
}

async function withWorkspace<R>(
  task: TaskSpec,
  ctx: TaskCheckContext,
  phase: string,
  body: (dirs: RunDirs, sandbox: Sandbox) => Promise<R>,
): Promise<R> {
  const dirs = await createRunDirs(`health-${task.name}-${phase}`, undefined, ctx.experimentId);
  let sandbox: Sandbox | null = null;
  try {
    await prepareWorkspace({
      workspace: dirs.workspace,
      environmentDir: task.environment_dir,
      skills: [],
      claudeMd: null,
    });
    sandbox = await createSandbox(ctx.sandbox.kind, {
      runDirs: dirs,
      task: {
        environmentDir: task.environment_dir,
        cpus: task.environment.cpus,
        memory: task.environment.memory,
        pids: task.environment.pids,
      },
      // No agent: the sandbox exposes the binary's folder, and node's is there anyway.
      agentBin: process.execPath,
      agentVersion: "none",
      resultsDir: ctx.resultsDir,
      runName: `health-${task.name}-${phase}`,
      experimentId: ctx.experimentId,
      why: ctx.sandbox.why,
      network: task.environment.network,
      exposeReadOnly: ctx.config.validation?.python_path,
      signal: ctx.signal,
    });
    await sandbox.start();
    return await body(dirs, sandbox);
  } finally {
    await sandbox?.stop();
    await removeRunDirs(dirs).catch(() => undefined);
  }
}

async function validateRepeatedly(
  task: TaskSpec,
  ctx: TaskCheckContext,
  dirs: RunDirs,
  sandbox: Sandbox,
  phase: "oracle" | "null",
): Promise<CheckSet[]> {
  const out: CheckSet[] = [];
  for (let rep = 1; rep <= ctx.repeats; rep++) {
    // Installed afresh each time, as after a run's agent: a validator that changed its own
    // folder does not steer the next repeat.
    await installValidation({
      workspace: dirs.workspace,
      validationDir: task.validation_dir,
      dataDir: task.data_dir,
    });
    const home = await mkdtemp(
      path.join(os.tmpdir(), tempStem("validator-home", ctx.experimentId, process.pid)),
    );
    try {
      const v = await runValidators({
        workspace: dirs.workspace,
        scripts: task.validation.test_scripts,
        targetArtifacts: task.validation.target_artifacts,
        timeoutSec: task.validation.timeout,
        env: {
          ...validatorEnv(ctx.config),
          PATH: ctx.hostEnv.PATH ?? "/usr/bin:/bin",
          HOME: home,
          LANG: ctx.hostEnv.LANG ?? "C.UTF-8",
        },
        context: validatorContext(task, phase, rep),
        ...(ctx.signal ? { signal: ctx.signal } : {}),
        redact: ctx.redact,
        launcher: sandbox.launcher,
      });
      out.push({ passed: v.passed, failed: v.failed });
    } finally {
      await rm(home, { recursive: true, force: true }).catch(() => undefined);
    }
  }
  return out;
}

/** Observe one task: null agent first, then the oracle when the task ships a solution. */
export async function observeTask(task: TaskSpec, ctx: TaskCheckContext): Promise<TaskObservation> {
  const nullAgent = await withWorkspace(task, ctx, "null", (dirs, sandbox) =>
    validateRepeatedly(task, ctx, dirs, sandbox, "null"),
  );
  const solution = await findSolution(task.dir);
  let oracle: OracleObservation | null = null;
  if (solution !== null) {
    oracle = await withWorkspace(task, ctx, "oracle", async (dirs, sandbox) => {
      let ended: Omit<OracleObservation, "repeats">;
      try {
        ended = await applySolution({
          solution,
          dirs,
          launcher: sandbox.launcher,
          timeoutSec: task.environment.timeout_sec,
          hostPath: ctx.hostEnv.PATH ?? "/usr/bin:/bin",
          signal: ctx.signal,
          redact: ctx.redact,
        });
      } catch (e) {
        ctx.signal?.throwIfAborted();
        ended = {
          outcome: "error",
          cause: ctx.redact(`the reference solution could not run: ${errorMessage(e)}`),
          exit_code: null,
          duration_ms: 0,
          output_tail: "",
        };
      }
      const repeats =
        ended.outcome === "ok" ? await validateRepeatedly(task, ctx, dirs, sandbox, "oracle") : [];
      return { ...ended, repeats };
    });
  }
  return {
    task: task.name,
    solution: solution?.kind ?? null,
    sandbox: ctx.sandbox.kind,
    oracle,
    null_agent: nullAgent,
  };
}
