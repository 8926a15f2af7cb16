import type { RunDigest } from "../core/digest.js";
import { f2, table } from "./format.js";
import { computePassK, type PassKTable } from "./passk.js";

export function passKMarkdown(t: PassKTable): string {
  const header = [
    "Metric",
    "Treatment",
    ...t.ks.map((k) => `pass@${k}`),
    ...t.ks.map((k) => `pass^${k} strict`),
    ...t.ks.map((k) => `pass^${k} unbiased`),
    "pass rate [95% Wilson]",
    "c/n",
  ];
  const rows = t.rows.map((r) =>
    r.n === 0
      ? [r.metric, r.treatment, ...header.slice(2).map(() => "/")]
      : [
          r.metric,
          r.treatment,
          ...t.ks.map((k) => f2(r.pass_at_k[k])),
          ...t.ks.map((k) => f2(r.pass_hat_k_strict[k])),
          ...t.ks.map((k) => f2(r.pass_hat_k_unbiased[k])),
          `${f2(r.pass_rate)} [${f2(r.wilson95?.low)}, ${f2(r.wilson95?.high)}]`,
          `${r.c}/${r.n}`,
        ],
  );
  const out = [
    "## pass@k / pass^k — capability vs reliability",
    "",
    "- **pass@k**: probability that at least 1 of k attempts succeeds (capability ceiling); unbiased estimator 1 − C(n−c,k)/C(n,k).",
    "- **pass^k strict**: per task, 1 only when every observed run of the task passed, then averaged over tasks (the original harness scored this over a whole cell, not per task).",
    "- **pass^k unbiased**: probability that all k attempts succeed, C(c,k)/C(n,k) (τ-bench, Inspect).",
    "- The gap between pass@k and pass^k measures instability. Estimators are computed per task and averaged over tasks (a task with fewer than k runs is left out for that k); c/n pools all analysis-set runs. Excluded runs are not counted.",
    "",
  ];
  if (t.warning) out.push(t.warning, "");
  out.push(table(header, rows));
  return out.join("\n");
}

export function renderPassKTable(
  reports: RunDigest[],
  treatments: string[],
  ks?: number[],
): string {
  return passKMarkdown(computePassK(reports, treatments, ks));
}
