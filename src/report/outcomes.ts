import type { RunDigest } from "../core/digest.js";
import type { PerTaskOutcomes } from "../stats/index.js";
import { groupBy, sortByRep } from "../plan/group.js";

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
  // One pass: the treatment's analysis-set runs by task, tasks in first-seen order.
  const byTask = groupBy(
    reports.filter((r) => r.treatment === treatment && r.sample_quality.include_in_analysis),
    (r) => r.task,
  );
  const tasks: string[] = [];
  const outcomes: PerTaskOutcomes = [];
  for (const [task, rs] of byTask) {
    const runs: boolean[] = [];
    for (const r of sortByRep(rs)) {
      const v = metricSuccess(r, metric);
      if (v !== null) runs.push(v);
    }
    if (runs.length === 0) continue;
    tasks.push(task);
    outcomes.push(runs);
  }
  return { tasks, outcomes };
}

export function metricsPresent(reports: RunDigest[]): Metric[] {
  // One pass over the runs' dimensions for both metrics (each run's memory is touched once),
  // stopping as soon as both are known to apply; a metric applies to a run when the first
  // dimension of its name has a score (as metricSuccess reads it).
  let business = false;
  let workflow = false;
  for (const r of reports) {
    const dims = r.rubric?.dimensions;
    if (!dims) continue;
    let seenB = business;
    let seenW = workflow;
    for (const d of dims) {
      if (!seenB && d.name === "business_completion") {
        seenB = true;
        if (d.score !== null) business = true;
      } else if (!seenW && d.name === "workflow_completion") {
        seenW = true;
        if (d.score !== null) workflow = true;
      }
      if (seenB && seenW) break;
    }
    if (business && workflow) break;
  }
  const out: Metric[] = ["overall"];
  if (business) out.push("business");
  if (workflow) out.push("workflow");
  return out;
}
