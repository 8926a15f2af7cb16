import { z } from "zod";
import type { RunDigest } from "../../core/digest.js";
import { pairedSection } from "../comparison/paired.js";
import { SCRIPTED_MODEL_LABEL } from "../endpoint.js";
import {
  experimentFingerprintOf,
  fingerprintDrift,
  isScripted,
  storedFingerprint,
  type RunFingerprint,
  type StoredExperiment,
} from "../../plan/fingerprint.js";
import { metricSuccess } from "../outcomes.js";

/**
 * `skillbench compare DIR_A DIR_B`: two experiments aligned case by case. A case is one
 * (task content hash, treatment, rep): run r of a task whose files are byte-for-byte the same in
 * both folders, under the same treatment. Aligned cases are compared with the paired statistics
 * of comparison_report.md (B as the candidate, A as the baseline, per treatment); the report
 * also says what drifted between the experiments (agent version, model, task and Skill
 * content, sandbox, profile) and which cases have no partner. See docs/reports.md. Pure.
 */

const ALIGNED_SCHEMA = "skillbench.aligned-comparison.v1";

const IntervalSchema = z.object({
  estimate: z.number(),
  low: z.number(),
  high: z.number(),
  valid_replicates: z.number(),
});

const PairedSchema = z.object({
  candidate: z.string(),
  baseline: z.string(),
  tasks: z.array(z.string()),
  candidate_runs: z.number(),
  baseline_runs: z.number(),
  candidate_pass_rate: z.number().nullable(),
  baseline_pass_rate: z.number().nullable(),
  delta_pass_rate: IntervalSchema.nullable(),
  sign_test: z
    .object({ pos: z.number(), neg: z.number(), ties: z.number(), p: z.number() })
    .nullable(),
  mcnemar: z
    .object({
      pairs: z.number(),
      both_pass: z.number(),
      candidate_only: z.number(),
      baseline_only: z.number(),
      both_fail: z.number(),
      p: z.number(),
    })
    .nullable(),
  flip_rate: z.record(z.string(), z.number().nullable()),
  distinguishable: z.boolean(),
  sign_test_min_tasks: z.number(),
  reps_needed: z.number().nullable(),
  conclusion: z.string(),
});

const SideSchema = z.object({
  dir: z.string(),
  experiment_id: z.string().nullable(),
  runs: z.number().int(),
  agents: z.array(z.string()),
  models: z.array(z.string()),
  scripted: z.boolean(),
});

const CaseSchema = z.object({
  task: z.string(),
  task_hash: z.string(),
  treatment: z.string(),
  rep: z.number().int(),
});

export const AlignedComparisonSchema = z.object({
  schema: z.literal(ALIGNED_SCHEMA),
  a: SideSchema,
  b: SideSchema,
  /** Every difference between the two experiments, one line each (empty: none found). */
  drift: z.array(z.string()),
  changed_tasks: z.array(z.object({ task: z.string(), a_hash: z.string(), b_hash: z.string() })),
  changed_skills: z.array(
    z.object({
      treatment: z.string(),
      skill: z.string(),
      a_hash: z.string().nullable(),
      b_hash: z.string().nullable(),
    }),
  ),
  cases: z.object({
    aligned: z.array(
      CaseSchema.extend({
        a_run: z.string(),
        b_run: z.string(),
        a_passed: z.boolean(),
        b_passed: z.boolean(),
        /** Both runs are in their analysis sets (not excluded as infrastructure noise). */
        analysed: z.boolean(),
      }),
    ),
    only_a: z.array(CaseSchema.extend({ run: z.string() })),
    only_b: z.array(CaseSchema.extend({ run: z.string() })),
  }),
  /** Per treatment with aligned cases: B (candidate) vs A (baseline) on the aligned, analysed cases. */
  treatments: z.array(
    z.object({
      treatment: z.string(),
      aligned_cases: z.number().int(),
      analysed_cases: z.number().int(),
      flipped_to_pass: z.number().int(),
      flipped_to_fail: z.number().int(),
      paired: PairedSchema,
    }),
  ),
  endpoint: z.object({ scripted: z.boolean(), label: z.string().nullable() }),
});
export type AlignedComparison = z.infer<typeof AlignedComparisonSchema>;
type Case = z.infer<typeof CaseSchema>;

const caseKey = (r: RunDigest): string => `${r.hashes.task}\0${r.treatment}\0${r.rep}`;
const caseOf = (r: RunDigest): Case => ({
  task: r.task,
  task_hash: r.hashes.task,
  treatment: r.treatment,
  rep: r.rep,
});
const uniq = (xs: string[]): string[] => [...new Set(xs)];

/**
 * Each of A's runs of a treatment against a run of B of the same task and treatment, as pairs
 * of fingerprints (src/plan/fingerprint.ts; A's first, B's second).
 */
function fingerprintPairs(
  ofA: RunDigest[],
  ofB: RunDigest[],
  expA: StoredExperiment,
  expB: StoredExperiment,
): { then: RunFingerprint; now: RunFingerprint }[] {
  const byTask = new Map(ofB.map((r) => [r.task, r]));
  const out: { then: RunFingerprint; now: RunFingerprint }[] = [];
  for (const ra of ofA) {
    const rb = byTask.get(ra.task) ?? ofB[0];
    if (rb === undefined) continue;
    const then = storedFingerprint(ra, expA);
    const now = storedFingerprint(rb, expB);
    // Another task of B: only what is not the task's own is compared.
    out.push({ then, now: rb.task === ra.task ? now : { ...now, task: ra.task, task_hash: null } });
  }
  return out;
}

/** Skills of a treatment as run: name → content hash. */
function skillsOf(rs: RunDigest[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const r of rs) for (const s of r.skill_sources) out.set(s.name, s.hash);
  return out;
}

export interface AlignedInput {
  a: { dir: string; reports: RunDigest[]; metadata: unknown; experimentId: string | null };
  b: { dir: string; reports: RunDigest[]; metadata: unknown; experimentId: string | null };
  seed?: number | undefined;
}

export function buildAlignedComparison(input: AlignedInput): AlignedComparison {
  const seed = input.seed ?? 1;
  const a = [...input.a.reports].sort((x, y) => x.run_id.localeCompare(y.run_id));
  const b = [...input.b.reports].sort((x, y) => x.run_id.localeCompare(y.run_id));
  const bByKey = new Map(b.map((r) => [caseKey(r), r]));
  const aByKey = new Map(a.map((r) => [caseKey(r), r]));

  const aligned: AlignedComparison["cases"]["aligned"] = [];
  for (const ra of a) {
    const rb = bByKey.get(caseKey(ra));
    if (!rb) continue;
    aligned.push({
      ...caseOf(rb),
      a_run: ra.run_id,
      b_run: rb.run_id,
      a_passed: metricSuccess(ra, "overall") ?? false,
      b_passed: metricSuccess(rb, "overall") ?? false,
      analysed: ra.sample_quality.include_in_analysis && rb.sample_quality.include_in_analysis,
    });
  }
  const onlyA = a
    .filter((r) => !bByKey.has(caseKey(r)))
    .map((r) => ({ ...caseOf(r), run: r.run_id }));
  const onlyB = b
    .filter((r) => !aByKey.has(caseKey(r)))
    .map((r) => ({ ...caseOf(r), run: r.run_id }));

  // Drift: the run fingerprints (per treatment both have), Skills, treatments, task sets.
  const drift = new Set<string>();
  const expA = experimentFingerprintOf(input.a.metadata, a);
  const expB = experimentFingerprintOf(input.b.metadata, b);
  const treatmentsA = uniq(a.map((r) => r.treatment));
  const treatmentsB = uniq(b.map((r) => r.treatment));
  const changedSkills: AlignedComparison["changed_skills"] = [];
  for (const t of treatmentsA.filter((x) => treatmentsB.includes(x))) {
    const ofA = a.filter((r) => r.treatment === t);
    const ofB = b.filter((r) => r.treatment === t);
    const pairs = fingerprintPairs(ofA, ofB, expA, expB);
    for (const line of fingerprintDrift(pairs, { then: "A", now: "B" })) drift.add(line);
    const sa = skillsOf(ofA);
    const sb = skillsOf(ofB);
    for (const name of uniq([...sa.keys(), ...sb.keys()]).sort()) {
      const ha = sa.get(name) ?? null;
      const hb = sb.get(name) ?? null;
      if (ha === hb) continue;
      changedSkills.push({ treatment: t, skill: name, a_hash: ha, b_hash: hb });
      drift.add(
        ha === null
          ? `treatment ${t}: Skill ${name} only in B`
          : hb === null
            ? `treatment ${t}: Skill ${name} only in A`
            : `treatment ${t}: Skill ${name} content changed (A ${ha.slice(0, 19)}, B ${hb.slice(0, 19)})`,
      );
    }
  }
  for (const t of treatmentsA.filter((x) => !treatmentsB.includes(x)))
    drift.add(`treatment ${t}: only in A`);
  for (const t of treatmentsB.filter((x) => !treatmentsA.includes(x)))
    drift.add(`treatment ${t}: only in B`);
  const agentsA = uniq(a.map((r) => r.agent.name));
  const agentsB = uniq(b.map((r) => r.agent.name));
  if (agentsA.join(",") !== agentsB.join(","))
    drift.add(`agent: A ${agentsA.join(", ")}, B ${agentsB.join(", ")}`);
  const hashesA = new Map(a.map((r) => [r.task, r.hashes.task]));
  const hashesB = new Map(b.map((r) => [r.task, r.hashes.task]));
  const changedTasks: AlignedComparison["changed_tasks"] = [];
  for (const [task, ha] of [...hashesA].sort()) {
    const hb = hashesB.get(task);
    if (hb === undefined) drift.add(`task ${task}: only in A`);
    else if (hb !== ha) changedTasks.push({ task, a_hash: ha, b_hash: hb });
  }
  for (const task of [...hashesB.keys()].sort())
    if (!hashesA.has(task)) drift.add(`task ${task}: only in B`);
  const scriptedA = isScripted(a, input.a.metadata);
  const scriptedB = isScripted(b, input.b.metadata);
  // With no treatment in common the fingerprints compared nothing: the endpoint is still named.
  if (scriptedA !== scriptedB && !treatmentsA.some((t) => treatmentsB.includes(t)))
    drift.add(
      `endpoint: A ${scriptedA ? "scripted model" : "live endpoint"}, B ${scriptedB ? "scripted model" : "live endpoint"}`,
    );

  // Paired statistics per treatment, on aligned analysed cases grouped by task.
  const treatments: AlignedComparison["treatments"] = [];
  for (const t of uniq(aligned.map((c) => c.treatment))) {
    const cs = aligned.filter((c) => c.treatment === t);
    const used = cs.filter((c) => c.analysed);
    const tasks = uniq(used.map((c) => c.task_hash));
    const names = tasks.map((h) => used.find((c) => c.task_hash === h)?.task ?? h);
    const arm = (side: "a_passed" | "b_passed"): boolean[][] =>
      tasks.map((h) =>
        used
          .filter((c) => c.task_hash === h)
          .sort((x, y) => x.rep - y.rep)
          .map((c) => c[side]),
      );
    const oa = arm("a_passed");
    const ob = arm("b_passed");
    const roles = { candidate: `B ${t}`, baseline: `A ${t}`, control: null };
    treatments.push({
      treatment: t,
      aligned_cases: cs.length,
      analysed_cases: used.length,
      flipped_to_pass: used.filter((c) => !c.a_passed && c.b_passed).length,
      flipped_to_fail: used.filter((c) => c.a_passed && !c.b_passed).length,
      paired: pairedSection(
        roles,
        { tasks: names, outcomes: ob },
        { tasks: names, outcomes: oa },
        { [roles.baseline]: oa, [roles.candidate]: ob },
        seed,
      ),
    });
  }

  const side = (
    s: AlignedInput["a"],
    rs: RunDigest[],
    scripted: boolean,
  ): AlignedComparison["a"] => ({
    dir: s.dir,
    experiment_id: s.experimentId ?? rs[0]?.experiment_id ?? null,
    runs: rs.length,
    agents: uniq(rs.map((r) => `${r.agent.name}@${r.agent.version ?? "unknown"}`)),
    models: uniq(rs.map((r) => r.model ?? "CLI default")),
    scripted,
  });
  return {
    schema: ALIGNED_SCHEMA,
    a: side(input.a, a, scriptedA),
    b: side(input.b, b, scriptedB),
    drift: [...drift],
    changed_tasks: changedTasks,
    changed_skills: changedSkills,
    cases: { aligned, only_a: onlyA, only_b: onlyB },
    treatments,
    endpoint: {
      scripted: scriptedA || scriptedB,
      label: scriptedA || scriptedB ? SCRIPTED_MODEL_LABEL : null,
    },
  };
}
