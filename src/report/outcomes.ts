import type { RunDigest } from "../core/digest.js";
import type { PerTaskOutcomes } from "../stats/index.js";
import { taskOrder } from "./group.js";

export type Metric = "overall" | "business" | "workflow";

/** Did a run succeed on a metric? null = the metric does not apply to this run. */
export function metricSuccess(r: RunDigest, metric: Metric): boolean | null {
  if (metric === "overall") return r.checks_failed.length === 0;
  const dim = metric === "business" ? "business_completion" : "workflow_completion";
  const d = r.rubric?.dimensions.find((x) => x.name === dim);
  if (!d || d.score === null) return null;
  return d.score >= 1.0;
}

/** The analysis set: runs whose sample quality keeps them in (included or flagged). */
export function analysisSet(reports: RunDigest[]): RunDigest[] {
  return reports.filter((r) => r.sample_quality.include_in_analysis);
}

/** perTask[i][r]: outcome of run r of task i, for one treatment and metric (analysis set only). */
export function perTaskOutcomes(
  reports: RunDigest[],
  treatment: string,
  metric: Metric,
): { tasks: string[]; outcomes: PerTaskOutcomes } {
  const rs = analysisSet(reports).filter((r) => r.treatment === treatment);
  const tasks: string[] = [];
  const outcomes: PerTaskOutcomes = [];
  for (const task of taskOrder(rs)) {
    const runs = rs
      .filter((r) => r.task === task)
      .sort((a, b) => a.rep - b.rep)
      .map((r) => metricSuccess(r, metric))
      .filter((v): v is boolean => v !== null);
    if (runs.length === 0) continue;
    tasks.push(task);
    outcomes.push(runs);
  }
  return { tasks, outcomes };
}

export function metricsPresent(reports: RunDigest[]): Metric[] {
  const out: Metric[] = ["overall"];
  if (reports.some((r) => metricSuccess(r, "business") !== null)) out.push("business");
  if (reports.some((r) => metricSuccess(r, "workflow") !== null)) out.push("workflow");
  return out;
}
