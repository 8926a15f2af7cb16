/**
 * One finished experiment as the history store keeps it (docs/history.md): which Skill at which
 * content hash and git ref, which agent and model, per arm the pass rate with its interval,
 * pass^k and cost, the band with Δ and its interval, lift, per task the passes of each arm (the
 * flaky-case ledger reads these), and where the results folder was. Pure: built from the reading
 * of a results folder and its comparison; the git ref is handed in by the caller.
 */
import { z } from "zod";
import type { Comparison } from "../report/comparison/types.js";
import type { ComparisonSource } from "../report/comparison/write.js";
import { historySkillName } from "../store/history-page.js";
import type { SuiteSnapshot } from "../store/suite-snapshot.js";
import { sha256 } from "../util/hash.js";

/** The version of a stored record's shape; a reader refuses a newer one by name. */
export const HISTORY_RECORD_SCHEMA = "skillbench.history-record.v1";

const Interval = z.object({ low: z.number(), high: z.number() }).nullable();

const ArmSchema = z.object({
  treatment: z.string(),
  role: z.enum(["candidate", "baseline", "other"]),
  /** Content hash of the arm's Skills (their hashes, in name order), null when it has none. */
  skill_hash: z.string().nullable(),
  runs: z.number().int().nonnegative(),
  passed: z.number().int().nonnegative(),
  pass_rate: z.number().nullable(),
  /** Wilson 95 % interval of the pass rate. */
  interval: Interval,
  /** pass^k (strict) at the largest k the runs allow, with that k. */
  pass_hat_k: z.object({ k: z.number().int(), value: z.number().nullable() }).nullable(),
  cost_usd: z.number().nullable(),
});

const TaskSchema = z.object({
  task: z.string(),
  task_hash: z.string().nullable(),
  /** Per treatment: passed runs (c) of the analysis-set runs (n). */
  cells: z.record(z.string(), z.object({ c: z.number().int(), n: z.number().int() })),
});

export const HistoryRecordSchema = z.object({
  schema: z.literal(HISTORY_RECORD_SCHEMA),
  experiment_id: z.string().min(1),
  kind: z.enum(["run", "eval", "calibrate", "triggers"]),
  recorded_at: z.string(),
  started_at: z.string().nullable(),
  results_dir: z.string(),
  skillbench_version: z.string().nullable(),
  /** The Skill under test: the candidate's Skills by name ("a+b" for several), else the candidate treatment. */
  skill: z.string(),
  skill_hash: z.string().nullable(),
  git: z.object({ ref: z.string(), dirty: z.boolean() }).nullable(),
  suite_hash: z.string().nullable(),
  agent: z.string().nullable(),
  agent_version: z.string().nullable(),
  model: z.string().nullable(),
  endpoint: z.enum(["scripted", "real"]),
  candidate: z.string().nullable(),
  baseline: z.string().nullable(),
  band: z.string().nullable(),
  band_reason: z.string().nullable(),
  delta: z.number().nullable(),
  delta_interval: Interval,
  /** Δ pass rate over the candidate's runs in which its Skill fired (per protocol). */
  lift: z.number().nullable(),
  invocation_rate: z.number().nullable(),
  cost_usd: z.number().nullable(),
  runs: z.number().int().nonnegative(),
  arms: z.array(ArmSchema),
  tasks: z.array(TaskSchema),
  /** Trigger figures of a `triggers` experiment, per description: precision and recall. */
  triggers: z
    .array(
      z.object({
        description: z.string(),
        precision: z.number().nullable(),
        recall: z.number().nullable(),
      }),
    )
    .default([]),
  /** Health problems of a checked experiment (health.json), as `task: kind (cause)`. */
  health: z.array(z.string()).default([]),
  /**
   * With runs of several models (docs/agents.md, "Models as a matrix axis"): the candidate and
   * baseline compared on each model alone (comparison.json `by_model`); `model` then lists them.
   */
  by_model: z
    .array(
      z.object({
        model: z.string(),
        band: z.string().nullable(),
        delta: z.number().nullable(),
        delta_interval: Interval,
      }),
    )
    .optional(),
});
export type HistoryRecord = z.infer<typeof HistoryRecordSchema>;

/** The content hash of a set of Skills: their hashes in name order, hashed; null for none. */
function skillSetHash(skills: readonly { name: string; hash: string | null }[]): string | null {
  if (skills.length === 0) return null;
  const sorted = [...skills].sort((a, b) => a.name.localeCompare(b.name));
  return `sha256:${sha256(sorted.map((s) => `${s.name}\0${s.hash ?? ""}\n`).join(""))}`;
}

function sumOrNull(xs: readonly (number | null | undefined)[]): number | null {
  let out: number | null = null;
  for (const x of xs) if (typeof x === "number") out = (out ?? 0) + x;
  return out;
}

/** The agent a results folder's metadata names (metadata.json is read leniently: see store/metadata.ts). */
const NamedVersion = z.object({ name: z.string(), version: z.string().nullable() });
const AgentOfMetadata = z
  .object({
    agents: z.array(NamedVersion).optional().catch(undefined),
    agent: NamedVersion.optional().catch(undefined),
  })
  .loose();

export interface RecordInput {
  kind: HistoryRecord["kind"];
  outDir: string;
  source: ComparisonSource;
  comparison: Comparison | null;
  suite: SuiteSnapshot | null;
  git: HistoryRecord["git"];
  recordedAt: string;
  health?: string[];
}

/** The history record of one finished experiment. */
export function historyRecord(i: RecordInput): HistoryRecord {
  const meta = i.source.metadata;
  const c = i.comparison;
  const roles = c?.roles ?? null;
  const treatments = c?.treatments ?? meta?.treatments ?? [];
  const skillsOf = (t: string | null): { name: string; hash: string | null }[] =>
    t === null
      ? []
      : (i.suite?.treatments.find((x) => x.name === t)?.skills ?? []).map((s) => ({
          name: s.name,
          hash: s.hash,
        }));
  const candidate = roles?.candidate ?? treatments[treatments.length - 1] ?? null;
  const candidateSkills = skillsOf(candidate);
  const skill = historySkillName(candidate, candidateSkills);
  const reports = i.source.reports;
  const arms = treatments.map((t) => {
    const row = c?.pass_k.rows.find((r) => r.metric === "overall" && r.treatment === t);
    const ks = Object.keys(row?.pass_hat_k_strict ?? {})
      .map(Number)
      .filter(Number.isFinite);
    const k = ks.length > 0 ? Math.max(...ks) : null;
    const mine = reports.filter((r) => r.treatment === t);
    return {
      treatment: t,
      role:
        t === roles?.candidate
          ? ("candidate" as const)
          : t === roles?.baseline
            ? ("baseline" as const)
            : ("other" as const),
      skill_hash: skillSetHash(skillsOf(t)),
      runs: row?.n ?? mine.length,
      passed: row?.c ?? mine.filter((r) => r.passed).length,
      pass_rate: row?.pass_rate ?? null,
      interval: row?.wilson95 ?? null,
      pass_hat_k: k === null ? null : { k, value: row?.pass_hat_k_strict[String(k)] ?? null },
      cost_usd:
        c?.spend.find((s) => s.treatment === t)?.cost_usd ??
        sumOrNull(mine.map((r) => r.events_summary?.total_cost_usd)),
    };
  });
  const taskHash = new Map((i.suite?.tasks ?? []).map((t) => [t.name, t.hash]));
  const tasks = (c?.task_outcomes ?? []).map((row) => ({
    task: row.task,
    task_hash: taskHash.get(row.task) ?? null,
    cells: Object.fromEntries(
      Object.entries(row.cells).flatMap(([t, cell]) =>
        cell ? [[t, { c: cell.c, n: cell.n }]] : [],
      ),
    ),
  }));
  const agent = AgentOfMetadata.safeParse(meta ?? {}).data ?? null;
  const v = c?.verdict ?? null;
  return HistoryRecordSchema.parse({
    schema: HISTORY_RECORD_SCHEMA,
    experiment_id: meta?.experiment_id ?? c?.experiment_id ?? i.outDir,
    kind: i.kind,
    recorded_at: i.recordedAt,
    started_at: meta?.started_at ?? null,
    results_dir: i.outDir,
    skillbench_version: meta?.versions.skillbench ?? null,
    skill,
    skill_hash: skillSetHash(candidateSkills),
    git: i.git,
    suite_hash: meta?.suite.hash ?? null,
    agent: agent?.agents?.[0]?.name ?? agent?.agent?.name ?? null,
    agent_version: agent?.agents?.[0]?.version ?? agent?.agent?.version ?? null,
    // Several models: all of them ("large, small"), so the trend never reads the pool as one.
    model:
      c?.models && c.models.length > 1
        ? c.models.map((m) => m.model).join(", ")
        : (meta?.model ?? null),
    endpoint:
      c?.endpoint.scripted || meta?.fingerprint?.endpoint === "scripted" ? "scripted" : "real",
    candidate: roles?.candidate ?? null,
    baseline: roles?.baseline ?? null,
    band: v?.band ?? null,
    band_reason: v?.reason ?? null,
    delta: v?.delta ?? null,
    delta_interval: v?.ci ? { low: v.ci.low, high: v.ci.high } : null,
    lift: c?.lift.per_protocol.delta ?? null,
    invocation_rate: c?.lift.invocation_rate.candidate ?? null,
    cost_usd: sumOrNull(arms.map((a) => a.cost_usd)),
    runs: reports.length,
    arms,
    tasks,
    triggers: [],
    health: i.health ?? [],
    // Absent with one model, so such a record is as before.
    ...(c?.by_model && c.by_model.length > 0
      ? {
          by_model: c.by_model.map((m) => {
            const mv = m.comparison?.verdict ?? null;
            return {
              model: m.model,
              band: mv?.band ?? null,
              delta: mv?.delta ?? null,
              delta_interval: mv?.ci ? { low: mv.ci.low, high: mv.ci.high } : null,
            };
          }),
        }
      : {}),
  });
}
