/**
 * What the experiment's reports and gates say of the LLM judge's health. Pure.
 *
 * Fail closed (docs/judge.md, "Fail closed"): a judge that erred, timed out or never gave a
 * parseable verdict leaves its dimensions N/A (score null) on that run, with the cause. A value
 * of a judge dimension over a treatment is therefore only computable when every run of it was
 * scored on that dimension: a mean over the remaining runs would let a failing judge pass a gate.
 */
import type { RunDigest } from "../core/digest.js";
import { analysisSet } from "./outcomes.js";

/** One run whose judge did not score (status `failed`), with the cause. */
export interface JudgeFailure {
  run_id: string;
  treatment: string;
  reason: string;
}

/** The judge's status over the runs: how many were judged, which failed and why. */
export interface JudgeStatusSummary {
  /** runs with a judge block that was not skipped */
  runs_judged: number;
  failed: JudgeFailure[];
}

/** Null when no run has a judge block (the judge was off). */
export function judgeStatusOf(reports: readonly RunDigest[]): JudgeStatusSummary | null {
  const judged = reports.filter((r) => r.judge !== null && r.judge.status !== "skipped");
  if (judged.length === 0) return null;
  return {
    runs_judged: judged.length,
    failed: judged
      .filter((r) => r.judge?.status === "failed")
      .map((r) => ({ run_id: r.run_id, treatment: r.treatment, reason: r.judge?.reason ?? "" })),
  };
}

const MAX_LISTED = 3;

/** One sentence for a report; null when no judged run failed. */
export function judgeStatusSentence(s: JudgeStatusSummary | null): string | null {
  if (s === null || s.failed.length === 0) return null;
  const listed = s.failed
    .slice(0, MAX_LISTED)
    .map((f) => `${f.run_id}: ${f.reason}`)
    .join("; ");
  const more = s.failed.length > MAX_LISTED ? `; and ${s.failed.length - MAX_LISTED} more` : "";
  return `LLM judge failed on ${s.failed.length} of ${s.runs_judged} judged run(s); their judge dimensions are N/A, not scores (${listed}${more}).`;
}

/**
 * The mean of a judge dimension over a treatment's analysis-set runs, or null with why: no such
 * runs, or a run where the dimension is N/A (judge off, skipped, failed, or the dimension not
 * scored), named with its cause.
 */
export function judgeDimensionValue(
  reports: RunDigest[],
  treatment: string,
  dimension: string,
): { value: number | null; why: string } {
  const runs = analysisSet(reports).filter((r) => r.treatment === treatment);
  if (runs.length === 0) return { value: null, why: `no analysis-set runs of ${treatment}` };
  const scores: number[] = [];
  const na: string[] = [];
  for (const r of runs) {
    const j = r.judge;
    const d = j?.dimensions.find((x) => x.name === dimension);
    if (d && d.score !== null) scores.push(d.score);
    else {
      const cause =
        j === null
          ? "not judged (the judge was off)"
          : j.status !== "enabled_and_successful"
            ? `judge ${j.status}: ${j.reason || "no reason given"}`
            : d
              ? d.reason
              : `no judge dimension ${dimension} (judged: ${j.dimensions.map((x) => x.name).join(", ") || "none"})`;
      na.push(`${r.run_id}: ${cause}`);
    }
  }
  if (na.length > 0)
    return {
      value: null,
      why: `judge.${dimension} is N/A on ${na.length} of ${runs.length} run(s) of ${treatment} (${na.slice(0, MAX_LISTED).join("; ")}${na.length > MAX_LISTED ? `; and ${na.length - MAX_LISTED} more` : ""})`,
    };
  return { value: scores.reduce((a, b) => a + b, 0) / scores.length, why: "" };
}
