/**
 * The plan fingerprint: what makes two results folders parts of the same experiment (`--shard`
 * slices of one plan, a run and its `--resume`), recorded in metadata.json (`plan`) and checked by
 * `skillbench merge`. It covers the whole plan, not one shard's slice: the arms (task × treatment ×
 * agent × model, in plan order), each arm's settings as in a run's fingerprint (fingerprint.ts: model,
 * endpoint, judge, sandbox, profile, interaction, timeout, the treatment's Skills by name) and the
 * repetitions. It leaves out what `merge` names apart: the suite's content (task and Skill
 * hashes, metadata.json's suite hash) and the agents' versions. Pure.
 */
import { z } from "zod";
import { canonicalJson, sha256 } from "../util/hash.js";
import { fingerprintDrift, type RunFingerprint } from "./fingerprint.js";
import { RunFingerprintSchema } from "./fingerprint-schema.js";

/** An arm's settings: a run fingerprint without the content hashes and the agent's version. */
export type ArmSettings = Omit<RunFingerprint, "task" | "agent_version" | "task_hash">;

export interface PlanArm {
  task: string;
  treatment: string;
  /** the agent driver's name (as in metadata.json's matrix) */
  agent: string;
  settings: ArmSettings;
}

export interface PlanRecord {
  /** `sha256:…` of the arms (in order) and the repetitions */
  fingerprint: string;
  /** runs in the whole plan (every shard's) */
  runs: number;
  /** repetitions of every arm (1..count) */
  count: number;
  arms: PlanArm[];
}

const ArmSettingsSchema = RunFingerprintSchema.omit({
  task: true,
  agent_version: true,
  task_hash: true,
});

/** metadata.json's `plan`. */
export const PlanRecordSchema = z.object({
  fingerprint: z.string(),
  runs: z.number().int().nonnegative(),
  count: z.number().int().nonnegative(),
  arms: z.array(
    z.object({
      task: z.string(),
      treatment: z.string(),
      agent: z.string(),
      settings: ArmSettingsSchema,
    }),
  ),
}) satisfies z.ZodType<PlanRecord>;

/** The record of a plan of `arms` (in plan order) × `count` repetitions. */
export function planRecord(arms: readonly PlanArm[], count: number, runs: number): PlanRecord {
  const fingerprint = `sha256:${sha256(canonicalJson({ arms, count }))}`;
  return { fingerprint, runs, count, arms: [...arms] };
}

const armKey = (a: Pick<PlanArm, "task" | "treatment" | "agent">): string =>
  `${a.task}\0${a.treatment}\0${a.agent}`;

/**
 * Each arm by its key and its place among the arms of that key: a treatment on several models
 * has one arm per model (plan/models.ts), and the k-th of one plan is compared with the k-th of
 * the other, so another model reads as the model's drift (`model: A m1, B m2`) as it does for a
 * treatment on one model.
 */
function armsByKey(arms: readonly PlanArm[]): Map<string, PlanArm> {
  const seen = new Map<string, number>();
  const out = new Map<string, PlanArm>();
  for (const x of arms) {
    const k = armKey(x);
    const n = seen.get(k) ?? 0;
    seen.set(k, n + 1);
    out.set(n === 0 ? k : `${k}\0${n}`, x);
  }
  return out;
}

const armName = (a: PlanArm): string => `${a.task} × ${a.treatment} (${a.agent})`;

/**
 * How plan `b` differs from plan `a`, one line each (empty: the same plan): repetitions, arms
 * only one side plans, then each shared arm's settings (fingerprint.ts's lines), then their order.
 */
export function planDifferences(
  a: PlanRecord,
  b: PlanRecord,
  labels: { a: string; b: string },
): string[] {
  if (a.fingerprint === b.fingerprint) return [];
  const out: string[] = [];
  if (a.count !== b.count)
    out.push(`repetitions (--count): ${labels.a} ${a.count}, ${labels.b} ${b.count}`);
  const inA = armsByKey(a.arms);
  const inB = armsByKey(b.arms);
  const onlyA = [...inA].filter(([k]) => !inB.has(k)).map(([, x]) => armName(x));
  const onlyB = [...inB].filter(([k]) => !inA.has(k)).map(([, x]) => armName(x));
  if (onlyA.length > 0) out.push(`planned only in ${labels.a}: ${onlyA.join(", ")}`);
  if (onlyB.length > 0) out.push(`planned only in ${labels.b}: ${onlyB.join(", ")}`);
  const asRun = (x: PlanArm): RunFingerprint => ({
    ...x.settings,
    task: x.task,
    agent_version: null,
    task_hash: null,
  });
  const pairs = [...inA].flatMap(([k, x]) => {
    const y = inB.get(k);
    return y ? [{ then: asRun(x), now: asRun(y) }] : [];
  });
  out.push(...fingerprintDrift(pairs, { then: labels.a, now: labels.b }));
  if (out.length === 0) out.push(`the arms' order: ${labels.a} and ${labels.b} list them apart`);
  return out;
}
