import type { RunDigest } from "../../core/digest.js";
import { runPaths } from "../../store/layout.js";
import { metricSuccess } from "../outcomes.js";
import type { DataQualityRow, ListedRun, RunCountRow, SensitivityRow } from "./types.js";

const ofTreatment = (reports: RunDigest[], t: string): RunDigest[] =>
  reports.filter((r) => r.treatment === t);
const passedCount = (runs: RunDigest[]): number =>
  runs.filter((r) => metricSuccess(r, "overall") === true).length;
const rate = (c: number, n: number): number | null => (n === 0 ? null : c / n);

export function dataQualityRow(reports: RunDigest[], treatment: string): DataQualityRow {
  const runs = ofTreatment(reports, treatment);
  const count = (s: string): number => runs.filter((r) => r.sample_quality.status === s).length;
  const excluded = runs.filter((r) => !r.sample_quality.include_in_analysis).length;
  return {
    treatment,
    raw: runs.length,
    analysis: runs.length - excluded,
    included: count("included"),
    flagged: count("flagged"),
    excluded,
    excluded_share: rate(excluded, runs.length),
  };
}

export function runCountRow(reports: RunDigest[], treatment: string): RunCountRow {
  const runs = ofTreatment(reports, treatment).filter((r) => r.sample_quality.include_in_analysis);
  const passed = passedCount(runs);
  return {
    treatment,
    runs: runs.length,
    passed,
    failed: runs.length - passed,
    pass_rate: rate(passed, runs.length),
  };
}

export function sensitivityRow(reports: RunDigest[], treatment: string): SensitivityRow {
  const raw = ofTreatment(reports, treatment);
  const analysis = raw.filter((r) => r.sample_quality.include_in_analysis);
  const rc = passedCount(raw);
  const ac = passedCount(analysis);
  const rawRate = rate(rc, raw.length);
  const anRate = rate(ac, analysis.length);
  return {
    treatment,
    raw: { c: rc, n: raw.length, rate: rawRate },
    analysis: { c: ac, n: analysis.length, rate: anRate },
    delta: rawRate === null || anRate === null ? null : anRate - rawRate,
  };
}

/** A run as listed under "Excluded runs" / "Flagged runs"; `report` is relative to the results folder. */
export function listedRun(r: RunDigest): ListedRun {
  return {
    run_id: r.run_id,
    task: r.task,
    treatment: r.treatment,
    rep: r.rep,
    reason_code: r.sample_quality.reason_code,
    reason: r.sample_quality.reason,
    evidence: r.sample_quality.evidence,
    include_in_analysis: r.sample_quality.include_in_analysis,
    report: runPaths("", r.run_id).report,
  };
}
