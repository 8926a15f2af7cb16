import { randomBytes } from "node:crypto";
import { agentDriver, defaultAgent, reportAgentName } from "../agents/index.js";
import type { RunDigest } from "../core/digest.js";
import type { RunSpec } from "../plan/matrix.js";
import type { ExperimentFingerprint } from "../plan/fingerprint.js";
import { METADATA_SCHEMA, type ExperimentMetadata } from "../store/metadata.js";
import type { Suite } from "../suite/index.js";
import type { FrozenBaseline } from "./baseline-from.js";
import type { AgentSetup } from "./context.js";
import type { PriorResults } from "./results-folder.js";
import { SKILLBENCH_VERSION } from "../core/version.js";

export { SKILLBENCH_VERSION };

/** A new experiment's id: its start time and a random suffix. */
export function experimentIdNow(): string {
  const d = new Date();
  const p = (n: number): string => String(n).padStart(2, "0");
  return `${d.getFullYear()}${p(d.getMonth() + 1)}${p(d.getDate())}-${p(d.getHours())}${p(d.getMinutes())}${p(d.getSeconds())}-${randomBytes(3).toString("hex")}`;
}

/** metadata.json of an experiment as a run starts it (completed_at and total_passed come at the end). */
export function experimentMetadata(a: {
  experimentId: string;
  suite: Suite;
  /** This invocation's runs. */
  planned: RunSpec[];
  /** Runs kept from before: stored runs outside the request, and the frozen baseline. */
  kept: RunDigest[];
  prior: PriorResults;
  frozen: FrozenBaseline | null;
  baselineDrift: string[];
  count: number;
  concurrency: number;
  taskCount: number;
  model: string | null;
  profile: string | null;
  margin: number | undefined;
  modelScript: string | null;
  /** The endpoint and judge every run is run with (src/plan/fingerprint.ts). */
  fingerprint: ExperimentFingerprint;
  /** The agents the plans use (preflight.ts), the first one first. */
  agents: readonly AgentSetup[];
  decisionPatterns: readonly string[];
}): ExperimentMetadata {
  const matrix: RunSpec[] = [
    ...a.planned,
    ...a.kept.map((r) => ({
      run_id: r.run_id,
      task: r.task,
      treatment: r.treatment,
      rep: r.rep,
      agent: agentDriver(r.agent.name)?.name ?? r.agent.name,
      model: r.model,
    })),
  ];
  // A row names its model only when it is not the experiment's (so a one-model experiment's
  // matrix is written as before models were an axis).
  const rows = matrix.map(({ model, ...row }) => (model === a.model ? row : { ...row, model }));
  // The first agent (the only one unless treatments pin others or --agent lists several).
  const first = a.agents[0];
  if (first === undefined) throw new Error("an experiment's metadata needs its agents");
  const asked = [
    `--count ${a.count}`,
    `${a.taskCount} task(s)`,
    `treatments ${[...new Set(a.planned.map((r) => r.treatment))].join(", ")}`,
    `${a.planned.length} run(s)`,
  ].join(", ");
  const margin = a.margin ?? a.prior.margin;
  return {
    schema: METADATA_SCHEMA,
    experiment_id: a.experimentId,
    started_at: a.prior.startedAt ?? new Date().toISOString(),
    completed_at: null,
    suite: { path: a.suite.root, hash: a.suite.hash },
    tasks: [...new Set(matrix.map((r) => r.task))],
    treatments: [...new Set(matrix.map((r) => r.treatment))],
    count: Math.max(a.count, ...matrix.map((r) => r.rep)),
    concurrency: a.concurrency,
    matrix: rows,
    // What this invocation asked for; the matrix (and every report) may hold more on --resume.
    last_invocation: {
      asked,
      runs: a.planned.length,
      kept_outside_request: a.prior.keptOutside.length,
    },
    model: a.model,
    profile: a.profile,
    ...(margin !== undefined ? { margin } : {}),
    ...(a.frozen
      ? {
          baseline_from: {
            dir: a.frozen.dir,
            treatment: a.frozen.treatment,
            runs: a.frozen.reports.map((r) => r.run_id),
            drift: a.baselineDrift,
          },
        }
      : {}),
    model_script: a.modelScript,
    fingerprint: a.fingerprint,
    versions: {
      skillbench: SKILLBENCH_VERSION,
      claude: a.agents.find((x) => x.driver.name === defaultAgent().name)?.version ?? null,
      node: process.version,
    },
    agent: { name: reportAgentName(first.driver.name), version: first.version },
    agent_bin: { path: first.bin.path, source: first.bin.source },
    agents: a.agents.map((x) => ({
      name: reportAgentName(x.driver.name),
      version: x.version,
      bin: x.bin.path,
      treatments: [
        ...new Set(matrix.filter((r) => r.agent === x.driver.name).map((r) => r.treatment)),
      ],
    })),
    total_runs: matrix.length,
    total_passed: null,
    /** --decision-pattern: added to every task's decision_patterns. */
    decision_patterns: [...a.decisionPatterns],
    ...(a.prior.roles !== undefined ? { comparison_roles: a.prior.roles } : {}),
  };
}
