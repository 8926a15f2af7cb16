import type { RunDigest } from "../core/digest.js";
import { defaultKs, macroPassAtK, macroPassHatK, wilsonInterval } from "../stats/index.js";
import { metricsPresent, perTaskOutcomes, type Metric } from "./outcomes.js";

interface PassKRow {
  metric: Metric;
  treatment: string;
  tasks: number;
  n: number;
  c: number;
  pass_rate: number | null;
  wilson95: { low: number; high: number } | null;
  pass_at_k: Record<string, number | null>;
  pass_hat_k_strict: Record<string, number | null>;
  pass_hat_k_unbiased: Record<string, number | null>;
}

export interface PassKTable {
  ks: number[];
  max_n: number;
  rows: PassKRow[];
  warning: string | null;
}

/** pass@k / pass^k per metric and treatment over the analysis set, task-macro averaged. Pure. */
export function computePassK(
  reports: RunDigest[],
  treatments: string[],
  requestedKs?: number[],
): PassKTable {
  const metrics = metricsPresent(reports);
  const raw = metrics.flatMap((metric) =>
    treatments.map((treatment) => ({
      metric,
      treatment,
      ...perTaskOutcomes(reports, treatment, metric),
    })),
  );
  // k is bounded by the runs one task has (pass@k of a task needs k of its runs).
  const maxN = Math.max(0, ...raw.flatMap((r) => r.outcomes.map((o) => o.length)));
  const ks = defaultKs(Math.max(1, maxN), requestedKs);
  const rows = raw.map(({ metric, treatment, outcomes }) => {
    const n = outcomes.reduce((a, o) => a + o.length, 0);
    const c = outcomes.reduce((a, o) => a + o.filter(Boolean).length, 0);
    const at: Record<string, number | null> = {};
    const strict: Record<string, number | null> = {};
    const unb: Record<string, number | null> = {};
    for (const k of ks) {
      at[k] = n === 0 ? null : macroPassAtK(k)(outcomes);
      strict[k] = n === 0 ? null : macroPassHatK(k, "strict")(outcomes);
      unb[k] = n === 0 ? null : macroPassHatK(k, "unbiased")(outcomes);
    }
    return {
      metric,
      treatment,
      tasks: outcomes.length,
      n,
      c,
      pass_rate: n === 0 ? null : c / n,
      wilson95: wilsonInterval(c, n),
      pass_at_k: at,
      pass_hat_k_strict: strict,
      pass_hat_k_unbiased: unb,
    };
  });
  const warning =
    maxN <= 1
      ? `_Only ${maxN} run per treatment — pass@k/pass^k for k>1 need ≥2 runs to be meaningful. Use \`--count 5\`._`
      : null;
  return { ks, max_n: maxN, rows, warning };
}
