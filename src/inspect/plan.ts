import { existsSync } from "node:fs";
import path from "node:path";
import { InputError } from "../core/errors.js";
import { resolveInteraction, taskInteractionSettings } from "../interaction/index.js";
import type { InteractionFlags } from "../interaction/config.js";
import { selectRuns } from "../plan/select.js";
import { shardRuns, type Shard } from "../plan/shard.js";
import { runProfile } from "../plan/run-plan.js";
import { agentsOfTreatments } from "../plan/agents.js";
import { modelsOfTreatments, parseModelList } from "../plan/models.js";
import {
  chooseSandbox,
  probeSandboxes,
  requestedSandbox,
  type SandboxChoice,
} from "../sandbox/index.js";
import { loadSuiteProfiles } from "../scoring/index.js";
import { loadSuite, type Suite, type SuiteWarning } from "../suite/index.js";
import { textTableLines } from "../util/format.js";

/**
 * What a suite holds and what `run` would do with it, without running anything: the
 * tasks, the treatments and the planned matrix with each run's profile, sandbox, timeout
 * and interaction. Used by `list`, `validate` and `run --dry-run`. It reads files and may
 * probe the sandboxes (`docker info`, a bwrap test); it never starts an agent.
 */

export interface PlanOptions {
  suite: string;
  task?: string | undefined;
  treatment?: string | undefined;
  count?: number | undefined;
  profile?: string | undefined;
  timeoutSec?: number | undefined;
  sandbox?: SandboxChoice | undefined;
  /** `--agent` (a name or a comma list): the agent of every treatment that pins none. */
  agent?: string | undefined;
  interaction?: InteractionFlags | undefined;
  /** `--shard I/N`: only that slice of the plan (plan/shard.ts). */
  shard?: Shard | undefined;
  /** `--model`, `--model-script` and `--concurrency`: what the cost estimate needs to know. */
  model?: string | undefined;
  modelScript?: string | undefined;
  concurrency?: number | undefined;
  /** Resolve `auto` sandboxes by probing the machine (default true). */
  probe?: boolean;
  cwd?: string;
  onWarning?: (w: SuiteWarning) => void;
}

interface PlannedRun {
  run_id: string;
  task: string;
  treatment: string;
  rep: number;
  /** The run's agent: its treatment's pin, else `--agent`. */
  agent: string;
  /** The run's model: its treatment's pin, else one of `--model`'s (null: the agent's own). */
  model: string | null;
  profile: string;
  /** As chosen (flag, task, suite, default local). */
  sandbox: SandboxChoice;
  /** What `auto` resolves to here (null when not probed). */
  sandbox_kind: string | null;
  timeout_sec: number;
  /** `decision_patterns`: the task's, then `--decision-pattern`'s. */
  interaction: { mode: string; max_turns: number; decision_patterns: string[] };
}

export interface SuitePlan {
  schema: "skillbench.plan.v1";
  suite: string;
  tasks: {
    name: string;
    /** The task's content hash (the run key's `task_hash`). */
    hash: string;
    dir: string;
    category: string;
    profile: string;
    interaction: string;
    timeout_sec: number;
    validators: string[];
    default_treatments: string[];
  }[];
  treatments: {
    name: string;
    description: string;
    skills: { name: string; source: string; hash: string }[];
    profile: string | null;
  }[];
  count: number;
  /** `--concurrency`, else the suite's, else 1. */
  concurrency: number;
  /** The model asked for (`--model`, the suite's, ANTHROPIC_MODEL); null: the agent's default. */
  model: string | null;
  /** The scripted model's script when one plays the runs (`--model-script`, the suite's). */
  model_script: string | null;
  runs: PlannedRun[];
  warnings: SuiteWarning[];
}

function positive(name: string, v: unknown): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "number" || !Number.isInteger(v) || v < 1)
    throw new InputError(`${name}: expected a positive whole number, got ${JSON.stringify(v)}`, {
      field: name,
    });
  return v;
}

/** Plan a suite as `run` would. Throws InputError on bad input (as `run` would, before any agent). */
export async function planSuite(opts: PlanOptions): Promise<SuitePlan> {
  const cwd = opts.cwd ?? process.cwd();
  const warnings: SuiteWarning[] = [];
  const suite: Suite = await loadSuite(path.resolve(cwd, opts.suite), {
    onWarning: (w) => {
      warnings.push(w);
      opts.onWarning?.(w);
    },
    taskFilter: opts.task,
  });
  const cfg = suite.config;
  const count = positive("--count", opts.count) ?? cfg.count ?? 1;
  const defaultModel = opts.model ?? cfg.model ?? process.env.ANTHROPIC_MODEL ?? null;
  const selected = selectRuns(suite, {
    task: opts.task,
    treatment: opts.treatment,
    count,
    agentsOf: agentsOfTreatments(suite, opts),
    modelsOf: modelsOfTreatments(suite, parseModelList(defaultModel)),
  }).specs;
  const specs = opts.shard ? shardRuns(selected, opts.shard) : selected;
  const profiles = await loadSuiteProfiles(suite.profiles);
  const override = opts.profile ?? cfg.profile ?? null;
  const probe =
    opts.probe !== false &&
    specs.some((r) => {
      const t = suite.tasks.find((x) => x.name === r.task);
      return requestedSandbox(opts.sandbox, t, cfg.sandbox) === "auto";
    })
      ? await probeSandboxes()
      : null;
  const runs: PlannedRun[] = specs.map((r) => {
    const task = suite.tasks.find((t) => t.name === r.task);
    const tr = suite.treatments.find((t) => t.name === r.treatment);
    if (!task || !tr) throw new Error(`planned run ${r.run_id} has no task or treatment`);
    const profile = runProfile({ profiles, profileOverride: override }, task, tr);
    const sandbox = requestedSandbox(opts.sandbox, task, cfg.sandbox);
    const hasDockerfile =
      task.environment_dir !== null && existsSync(path.join(task.environment_dir, "Dockerfile"));
    const kind =
      sandbox === "auto"
        ? probe
          ? chooseSandbox(sandbox, { hasDockerfile }, probe).kind
          : null
        : sandbox;
    const inter = resolveInteraction({
      profile,
      task: taskInteractionSettings(task.interaction),
      cli: opts.interaction,
    });
    return {
      ...r,
      profile,
      sandbox,
      sandbox_kind: kind,
      timeout_sec: opts.timeoutSec ?? cfg.timeout_sec ?? task.environment.timeout_sec,
      interaction: {
        mode: inter.mode,
        max_turns: inter.max_turns,
        decision_patterns: inter.decision_patterns,
      },
    };
  });
  return {
    schema: "skillbench.plan.v1",
    suite: suite.root,
    tasks: suite.tasks.map((t) => {
      const inter = resolveInteraction({
        profile: t.evaluation.inferred_profile,
        task: taskInteractionSettings(t.interaction),
      });
      return {
        name: t.name,
        hash: t.hash,
        dir: t.rel_dir,
        category: t.metadata.category,
        profile: t.evaluation.inferred_profile,
        interaction: inter.mode === "none" ? "none" : `${inter.mode} (≤${inter.max_turns} turns)`,
        timeout_sec: t.environment.timeout_sec,
        validators: t.validation.test_scripts,
        default_treatments: t.metadata.default_treatments,
      };
    }),
    treatments: suite.treatments.map((t) => ({
      name: t.name,
      description: t.description,
      skills: t.skills.map((s) => ({
        name: s.name,
        source: s.path ?? "(inline)",
        hash: s.hash,
      })),
      profile: t.profile ?? null,
    })),
    count,
    concurrency: positive("--concurrency", opts.concurrency) ?? cfg.concurrency ?? 1,
    model: defaultModel,
    model_script: opts.modelScript ?? cfg.model_script ?? null,
    runs,
    warnings,
  };
}

function table(head: string[], rows: string[][]): string {
  return textTableLines(head, rows).join("\n");
}

export function renderTasksAndTreatments(p: SuitePlan): string {
  const tasks = table(
    ["TASK", "CATEGORY", "PROFILE", "INTERACTION", "TIMEOUT", "VALIDATORS"],
    p.tasks.map((t) => [
      t.name,
      t.category || "-",
      t.profile,
      t.interaction,
      `${t.timeout_sec}s`,
      t.validators.join(",") || "-",
    ]),
  );
  const trs = table(
    ["TREATMENT", "SKILLS", "PROFILE", "DESCRIPTION"],
    p.treatments.map((t) => [
      t.name,
      t.skills.map((s) => s.name).join(",") || "-",
      t.profile ?? "(task's)",
      t.description,
    ]),
  );
  return `Suite: ${p.suite}\n\n${tasks}\n\n${trs}\n`;
}

export function renderMatrix(p: SuitePlan): string {
  const rows = p.runs.map((r) => [
    r.run_id,
    r.profile,
    r.sandbox === "auto" && r.sandbox_kind !== null ? `auto→${r.sandbox_kind}` : r.sandbox,
    `${r.timeout_sec}s`,
    r.interaction.mode === "none" ? "none" : `${r.interaction.mode}/${r.interaction.max_turns}`,
  ]);
  const tasks = new Set(p.runs.map((r) => r.task)).size;
  const trs = new Set(p.runs.map((r) => r.treatment)).size;
  return `${table(["RUN", "PROFILE", "SANDBOX", "TIMEOUT", "INTERACTION"], rows)}\n\n${p.runs.length} runs planned (${tasks} tasks × ${trs} treatments × ${p.count} repetitions at most)\n`;
}

/** `run --dry-run`: the matrix, the cost estimate (docs/cost.md), and a last line saying nothing ran. */
export function renderPlan(p: SuitePlan, estimate = ""): string {
  return `${renderMatrix(p)}${estimate ? `\n${estimate}` : ""}Dry run: no agent, validator or model server was started.\n`;
}
