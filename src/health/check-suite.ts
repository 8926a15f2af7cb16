/**
 * The health of a suite's tasks (docs/health.md): each task observed (check-task.ts) and
 * classified (classify.ts), gathered into one `HealthReport`. Starts no agent.
 */
import { randomBytes } from "node:crypto";
import { HEALTH_SCHEMA, healthEffect, type HealthReport } from "../core/health.js";
import {
  chooseSandbox,
  probeSandboxes,
  requestedSandbox,
  type SandboxChoice,
  type SandboxProbe,
} from "../sandbox/index.js";
import { hasDockerfile, type Suite, type TaskSpec } from "../suite/index.js";
import { makeRedactor, secretsFromEnv } from "../util/redact.js";
import { mapPool } from "../util/pool.js";
import { classifyTask } from "./classify.js";
import { observeTask } from "./check-task.js";

/** Validators run this many times on each workspace unless told otherwise (`--health-repeats`). */
export const DEFAULT_HEALTH_REPEATS = 3;

export interface HealthOptions {
  /** The tasks to check (default: every task of the suite). */
  tasks?: readonly TaskSpec[] | undefined;
  repeats?: number | undefined;
  /** `--sandbox`: else each task's, else the suite's, else `auto` (as a run's). */
  sandbox?: SandboxChoice | undefined;
  /** Hidden from bwrap: the results folder, or where `check` writes. */
  resultsDir: string;
  hostEnv?: Record<string, string | undefined> | undefined;
  signal?: AbortSignal | undefined;
  /** Tasks checked at once (default 2). */
  concurrency?: number | undefined;
  /** Told when a task's check starts and ends. */
  onTask?: ((task: string, state: "start" | "end") => void) | undefined;
  /** The answer of a sandbox probe already made (a run's). */
  probe?: SandboxProbe | null | undefined;
  /** Applied to what validators and solutions print (default: the host's credential-like values). */
  redact?: ((s: string) => string) | undefined;
  /** Shown as `target` in health.json (default: the suite's root). */
  target?: string | undefined;
}

/** Check every task of `suite`; never starts an agent. */
export async function checkSuiteHealth(suite: Suite, o: HealthOptions): Promise<HealthReport> {
  const tasks = o.tasks ?? suite.tasks;
  const repeats = o.repeats ?? DEFAULT_HEALTH_REPEATS;
  const hostEnv = o.hostEnv ?? process.env;
  const redact = o.redact ?? makeRedactor(secretsFromEnv(hostEnv));
  const choices = tasks.map((t) => requestedSandbox(o.sandbox, t, suite.config.sandbox));
  const needsProbe = choices.includes("auto") && o.probe == null;
  const probe: SandboxProbe =
    o.probe ??
    (needsProbe
      ? await probeSandboxes({
          docker: "if-needed",
          dockerfileAuto: tasks.some((t, i) => choices[i] === "auto" && hasDockerfile(t)),
          signal: o.signal,
        })
      : { bwrap: false, dockerDaemon: null });
  const experimentId = `health${randomBytes(3).toString("hex")}`;
  const observed = await mapPool(tasks, o.concurrency ?? 2, async (task, i) => {
    o.onTask?.(task.name, "start");
    const sandbox = chooseSandbox(
      choices[i] ?? "auto",
      { hasDockerfile: hasDockerfile(task) },
      probe,
    );
    try {
      return await observeTask(task, {
        config: suite.config,
        sandbox,
        repeats,
        hostEnv,
        resultsDir: o.resultsDir,
        redact: (s) => redact(s),
        signal: o.signal,
        experimentId,
      });
    } finally {
      o.onTask?.(task.name, "end");
    }
  });
  const classified = observed.map(classifyTask);
  const problems = classified.flatMap((c) => c.problems);
  return {
    schema: HEALTH_SCHEMA,
    target: o.target ?? suite.root,
    repeats,
    level: "quick",
    sound: problems.every((p) => healthEffect(p.kind) === "note"),
    tasks: classified.map((c) => c.health),
    problems,
  };
}
