import { z } from "zod";

/**
 * Parses a judge answer: a JSON block `{"scores": {"<dim>": {"score", "reason"}}}`
 * first, else `[RUBRIC-JUDGE] <dim>: <score> - <reason>` lines. Only known
 * dimensions count; scores are clamped to 0..1. Pure.
 */

const JUDGE_LINE_RE = /\[RUBRIC-JUDGE\]\s+(\S+):\s*([0-9.]+)\s*-\s*(.+)/g;

export interface ParsedScore {
  name: string;
  score: number;
  reason: string;
}

export type ParsedVerdict =
  | { ok: true; via: "json" | "lines"; scores: ParsedScore[]; missing: string[] }
  | { ok: false; reason: string };

const ScoreEntrySchema = z.union([
  z.object({ score: z.union([z.number(), z.string()]), reason: z.string().optional() }),
  z.number(),
]);
const VerdictSchema = z.object({ scores: z.record(z.string(), z.unknown()) });

function clampScore(n: number): number {
  return Math.min(1, Math.max(0, n));
}

function oneLine(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}

function toScore(v: number | string): number | null {
  const n =
    typeof v === "number" ? v : /^-?(\d+\.?\d*|\.\d+)$/.test(v.trim()) ? Number(v.trim()) : NaN;
  return Number.isFinite(n) ? clampScore(n) : null;
}

/** Candidate JSON texts: fenced blocks (```json first), then the outermost braces. */
export function jsonCandidates(text: string): string[] {
  const out: string[] = [];
  const fence = /```([a-zA-Z]*)[ \t]*\r?\n([\s\S]*?)```/g;
  const fenced: Array<{ lang: string; body: string }> = [];
  for (const m of text.matchAll(fence))
    fenced.push({ lang: (m[1] ?? "").toLowerCase(), body: m[2] ?? "" });
  out.push(...fenced.filter((f) => f.lang === "json").map((f) => f.body));
  out.push(...fenced.filter((f) => f.lang !== "json").map((f) => f.body));
  const first = text.indexOf("{");
  const last = text.lastIndexOf("}");
  if (first !== -1 && last > first) out.push(text.slice(first, last + 1));
  return out;
}

function fromJson(text: string, dims: readonly string[]): ParsedScore[] {
  for (const cand of jsonCandidates(text)) {
    let raw: unknown;
    try {
      raw = JSON.parse(cand);
    } catch {
      continue;
    }
    const v = VerdictSchema.safeParse(raw);
    if (!v.success) continue;
    const scores: ParsedScore[] = [];
    for (const name of dims) {
      if (!Object.hasOwn(v.data.scores, name)) continue;
      const e = ScoreEntrySchema.safeParse(v.data.scores[name]);
      if (!e.success) continue;
      const score = toScore(typeof e.data === "number" ? e.data : e.data.score);
      if (score === null) continue;
      const reason = typeof e.data === "number" ? "" : oneLine(e.data.reason ?? "");
      scores.push({ name, score, reason });
    }
    if (scores.length > 0) return scores;
  }
  return [];
}

function fromLines(text: string, dims: readonly string[]): ParsedScore[] {
  const found = new Map<string, ParsedScore>();
  for (const line of text.split(/\r?\n/)) {
    for (const m of line.matchAll(JUDGE_LINE_RE)) {
      const [, name = "", scoreText = "", reason = ""] = m;
      if (!dims.includes(name) || found.has(name)) continue;
      const score = toScore(scoreText);
      if (score === null) continue;
      found.set(name, { name, score, reason: oneLine(reason) });
    }
  }
  return dims.flatMap((d) => {
    const s = found.get(d);
    return s ? [s] : [];
  });
}

export function parseJudgeAnswer(text: string, dims: readonly string[]): ParsedVerdict {
  let via: "json" | "lines" = "json";
  let scores = fromJson(text, dims);
  if (scores.length === 0) {
    via = "lines";
    scores = fromLines(text, dims);
  }
  if (scores.length === 0) {
    const head = oneLine(text).slice(0, 120);
    return {
      ok: false,
      reason: `no parseable verdict for ${dims.join(", ")} (expected a JSON scores block or [RUBRIC-JUDGE] lines)${
        head ? `; answer began: ${JSON.stringify(head)}` : "; the answer was empty"
      }`,
    };
  }
  const got = new Set(scores.map((s) => s.name));
  return { ok: true, via, scores, missing: dims.filter((d) => !got.has(d)) };
}

/** `[RUBRIC-JUDGE] <dim>: <0.00> - <reason>` */
export function judgeLine(name: string, score: number, reason: string): string {
  return `[RUBRIC-JUDGE] ${name}: ${score.toFixed(2)} - ${oneLine(reason) || "no reason given"}`;
}

export function judgeStatusLine(
  status: "enabled_and_successful" | "failed" | "skipped",
  reason = "",
): string {
  const r = oneLine(reason);
  return status === "enabled_and_successful" || r === ""
    ? `[RUBRIC-JUDGE] status: ${status}`
    : `[RUBRIC-JUDGE] status: ${status} - ${r}`;
}

/** The lines of one verdict, in dimension order, then the success status line. */
export function verdictLines(scores: readonly ParsedScore[]): string[] {
  return [
    ...scores.map((s) => judgeLine(s.name, s.score, s.reason)),
    judgeStatusLine("enabled_and_successful"),
  ];
}
