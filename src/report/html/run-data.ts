import { isRecord } from "../../core/json.js";
/**
 * Everything a run page shows, as plain JSON data (the `/api/runs/<id>` body and the
 * per-run entries embedded in summary.html). Pure.
 */
import type { Evidence } from "../../core/evidence.js";
import type { RunReport } from "../../core/report.js";
import { numOf, recOf, strOf } from "../../evidence/narrow.js";
import { ruleDimensionOf } from "../comparison/judge-overlay.js";
import { buildTimeline, timelineFromEvidence } from "./timeline.js";
import {
  RUN_PAGE_SCHEMA,
  type EvidenceDigest,
  type JudgeScore,
  type RunPageData,
  type Timeline,
  type WorkspaceFile,
} from "./wire.js";

export interface RunPageInput {
  report: RunReport;
  /** report.json as parsed JSON (for fields the schema does not know, e.g. judge) */
  rawReport: unknown;
  evidence: Evidence | null;
  stdout: string | null;
  stderr: string | null;
  files: WorkspaceFile[];
  filesTruncated: boolean;
  maxText?: number;
}

function judgeScore(name: string, v: unknown): JudgeScore | null {
  const rule_dimension = ruleDimensionOf(name);
  if (typeof v === "number") return { name, rule_dimension, score: v, reason: null };
  const r = recOf(v);
  if (!r) return null;
  const score = numOf(r.score) ?? numOf(r.value);
  return { name, rule_dimension, score, reason: strOf(r.reason) ?? strOf(r.rationale) };
}

/**
 * The judge section of a report, whatever of these shapes it has: `{dimensions: [{name, score, reason}]}`,
 * `{scores: {dim: number | {score, reason}}}` or `{dim: number | {score, reason}}`. Null when absent or unusable.
 */
export function parseJudge(rawReport: unknown): RunPageData["judge"] {
  const root = recOf(rawReport);
  const j = root ? recOf(root.judge) : null;
  if (!j) return null;
  const model = strOf(j.model);
  const scores: JudgeScore[] = [];
  if (Array.isArray(j.dimensions)) {
    for (const d of j.dimensions) {
      const r = recOf(d);
      const name = r ? (strOf(r.name) ?? strOf(r.dimension)) : null;
      const s = r && name ? judgeScore(name, r) : null;
      if (s) scores.push(s);
    }
  } else {
    const map = recOf(j.scores) ?? recOf(j.dimensions) ?? j;
    for (const [name, v] of Object.entries(map)) {
      if (name === "model" || (map === j && !(typeof v === "number" || isRecord(v)))) continue;
      const s = judgeScore(name, v);
      if (s && (s.score !== null || s.reason !== null)) scores.push(s);
    }
  }
  if (scores.length === 0 && model === null) return null;
  const status = strOf(j.status);
  const reason = strOf(j.reason);
  return { model, status, reason: reason === "" ? null : reason, scores };
}

function interactionTurns(r: RunReport): Array<Record<string, unknown>> {
  return r.interaction?.turns ?? [];
}

/**
 * Assemble a run page. The timeline of a Claude Code run comes from its stream-json
 * (stdout.jsonl: every step, text and usage), else from events.json; every other agent's from
 * events.json, the common evidence its decoder (src/agents/<name>/) wrote: turns, tool calls
 * with their output, results and the final text.
 */
export function buildRunPage(input: RunPageInput): RunPageData {
  const opts = {
    maxText: input.maxText ?? 20_000,
    interactionTurns: interactionTurns(input.report),
  };
  let timeline: Timeline;
  const claudeStream = input.report.agent.name === "claude-code";
  if (claudeStream && input.stdout !== null && input.stdout.length > 0)
    timeline = buildTimeline(input.stdout, opts);
  else if (input.evidence) timeline = timelineFromEvidence(input.evidence, opts);
  else timeline = buildTimeline("", opts);
  let evidence: EvidenceDigest | null = null;
  if (input.evidence) {
    const { tool_calls: _drop, ...rest } = input.evidence;
    evidence = rest;
  }
  const tail =
    input.stderr === null || input.stderr.trim() === "" ? null : input.stderr.slice(-4000);
  return {
    schema: RUN_PAGE_SCHEMA,
    run_id: input.report.run_id,
    report: input.report,
    judge: parseJudge(input.rawReport),
    evidence,
    timeline,
    files: input.files,
    files_truncated: input.filesTruncated,
    stderr_tail: tail,
  };
}
