/**
 * One GitHub pull-request comment from one or more experiments (`skillbench comment`). Pure: the
 * reader (read.ts) turns results folders into `CommentSkill`s; this module only formats them.
 *
 * GitHub refuses a comment body over 65,536 characters, so the comment is rendered at the most
 * detailed level that fits: per-task details first, then every Skill's section but one line each,
 * then as many one-line Skills as fit. Whole blocks are dropped, never cut, so no table is ever
 * truncated half-way; what was left out is said.
 */
import { dollars, f2, signed } from "../../util/format.js";

/** GitHub's limit on an issue comment's body (characters). */
export const GITHUB_COMMENT_LIMIT = 65_536;

/** The hidden line that lets the next push find and update the same comment. */
const COMMENT_MARKER = "<!-- skillbench-comment -->";

export interface Interval {
  low: number;
  high: number;
}

export interface CommentRate {
  value: number | null;
  count: number;
  of: number;
  ci: Interval | null;
}

export interface CommentGate {
  metric: string;
  treatment: string;
  value: number | null;
  min: number | null;
  ok: boolean;
  detail: string;
}

export interface CommentTask {
  task: string;
  /** per treatment: passes of its analysis-set runs */
  cells: { treatment: string; c: number; n: number }[];
}

/** One experiment, as the comment shows it. */
export interface CommentSkill {
  /** the Skill's name (or the folder's when no Skill is named) */
  skill: string;
  kind: "run" | "eval" | "triggers";
  /** where the results folder was, as given */
  dir: string;
  agent: string | null;
  model: string | null;
  /** the model was skillbench's scripted one: the figures are not a real model's */
  scripted: boolean;
  candidate: string | null;
  baseline: string | null;
  band: "improved" | "non_inferior" | "regressed" | "inconclusive" | null;
  reason: string | null;
  delta: (Interval & { estimate: number }) | null;
  /** lift when the Skill fired (per protocol) and how often it fired */
  lift: (Interval & { estimate: number; invocation_rate: number | null }) | null;
  triggers: { precision: CommentRate; recall: CommentRate } | null;
  /** health problems, when the experiment was checked (null: not checked) */
  health: string[] | null;
  gates: { ok: boolean; rows: CommentGate[] } | null;
  cost_usd: number | null;
  tasks: CommentTask[];
}

export interface CommentInput {
  skills: CommentSkill[];
  /** an extra key so that several comments (one per workflow) can live on one pull request */
  marker?: string;
  /** the largest body allowed; GitHub's limit unless a test says otherwise */
  limit?: number;
}

const BAND: Record<NonNullable<CommentSkill["band"]>, string> = {
  improved: "✅ Improved",
  non_inferior: "☑️ Non-inferior",
  regressed: "❌ Regressed",
  inconclusive: "❔ Inconclusive",
};

const iv = (i: Interval): string => `[${signed(i.low)}, ${signed(i.high)}]`;
/** Table cells hold no pipe or newline (either would break the row). */
const cell = (s: string): string => s.replace(/\|/g, "\\|").replace(/\s*\n\s*/g, " ");

function markerLine(key?: string): string {
  return key ? `<!-- skillbench-comment: ${key.replace(/--+/g, "-")} -->` : COMMENT_MARKER;
}

function bandLabel(s: CommentSkill): string {
  if (s.kind === "triggers") return "🎯 Triggers";
  return s.band ? BAND[s.band] : "— no comparison";
}

function costText(s: CommentSkill): string {
  const cost = s.cost_usd === null ? "cost n/a" : dollars(s.cost_usd);
  return s.scripted ? `${cost} (scripted model: not a real model's figures)` : cost;
}

function rateText(r: CommentRate): string {
  const ci = r.ci ? ` [${f2(r.ci.low)}, ${f2(r.ci.high)}]` : "";
  return `${f2(r.value)}${ci} (${r.count}/${r.of})`;
}

/** The one-line form of a Skill (the most summarised level). */
function oneLine(s: CommentSkill): string {
  const parts = [`**${s.skill}**`, bandLabel(s)];
  if (s.delta) parts.push(`Δ ${signed(s.delta.estimate)} ${iv(s.delta)}`);
  if (s.triggers)
    parts.push(
      `precision ${f2(s.triggers.precision.value)}, recall ${f2(s.triggers.recall.value)}`,
    );
  if (s.gates) parts.push(s.gates.ok ? "gates pass" : "gates fail");
  if (s.health && s.health.length > 0) parts.push(`${s.health.length} health problem(s)`);
  parts.push(costText(s));
  return `- ${parts.join(" · ")}`;
}

function tasksDetails(s: CommentSkill): string {
  if (s.tasks.length === 0) return "";
  const arms = [...new Set(s.tasks.flatMap((t) => t.cells.map((c) => c.treatment)))];
  const rows = s.tasks.map((t) => {
    const by = new Map(t.cells.map((c) => [c.treatment, c]));
    const cells = arms.map((a) => {
      const c = by.get(a);
      return c ? `${c.c}/${c.n}` : "—";
    });
    return `| ${cell(t.task)} | ${cells.join(" | ")} |`;
  });
  return [
    "<details><summary>Per task (passes of runs)</summary>",
    "",
    `| task | ${arms.map(cell).join(" | ")} |`,
    `| --- | ${arms.map(() => "---").join(" | ")} |`,
    ...rows,
    "",
    "</details>",
  ].join("\n");
}

/** A Skill's full section; with `details` false, without its per-task block. */
function section(s: CommentSkill, details: boolean): string {
  const out: string[] = [`### ${s.skill}: ${bandLabel(s)}`, ""];
  if (s.reason) out.push(s.reason, "");
  const facts: string[] = [];
  if (s.candidate && s.baseline) facts.push(`\`${s.candidate}\` against \`${s.baseline}\``);
  if (s.delta) facts.push(`Δ pass rate **${signed(s.delta.estimate)}** ${iv(s.delta)}`);
  if (s.lift) {
    const fired =
      s.lift.invocation_rate === null
        ? ""
        : ` (the Skill fired in ${(s.lift.invocation_rate * 100).toFixed(0)}% of runs)`;
    facts.push(`lift when the Skill fired ${signed(s.lift.estimate)} ${iv(s.lift)}${fired}`);
  }
  if (s.triggers)
    facts.push(
      `trigger precision ${rateText(s.triggers.precision)}, recall ${rateText(s.triggers.recall)}`,
    );
  facts.push(
    `${[s.agent, s.model ?? (s.scripted ? null : "default model")].filter(Boolean).join(", ") || "agent n/a"}; ${costText(s)}`,
  );
  out.push(...facts.map((f) => `- ${f}`), "");
  if (s.health !== null) {
    if (s.health.length === 0) out.push("Health: no problems found.", "");
    else out.push("**Health problems:**", "", ...s.health.map((h) => `- ${cell(h)}`), "");
  }
  if (s.gates) {
    out.push(
      `**Quality gates: ${s.gates.ok ? "pass" : "fail"}**`,
      "",
      "| gate | treatment | value | min | |",
      "| --- | --- | --- | --- | --- |",
      ...s.gates.rows.map(
        (g) =>
          `| ${cell(g.metric)} | ${cell(g.treatment)} | ${f2(g.value)} | ${f2(g.min)} | ${g.ok ? "✅" : "❌"} |`,
      ),
      "",
    );
  }
  if (details) {
    const d = tasksDetails(s);
    if (d) out.push(d, "");
  }
  out.push(`<sub>results: \`${cell(s.dir)}\`</sub>`);
  return out.join("\n");
}

function headline(skills: readonly CommentSkill[]): string {
  const counts = new Map<string, number>();
  for (const s of skills) {
    const k = bandLabel(s);
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  const tally = [...counts].map(([k, n]) => `${n} ${k}`).join(", ");
  return `## skillbench: ${skills.length} experiment(s)${tally ? ` — ${tally}` : ""}`;
}

/**
 * The comment's body, at the most detailed level that fits in the limit: (1) full sections with
 * per-task details, (2) full sections without them, (3) one line per Skill, (4) as many one-line
 * Skills as fit. Each summarised level says what it left out.
 */
export function renderComment(input: CommentInput): string {
  const limit = input.limit ?? GITHUB_COMMENT_LIMIT;
  const head = [markerLine(input.marker), headline(input.skills), ""].join("\n");
  const scripted = input.skills.some((s) => s.scripted)
    ? "\n\n> Some figures come from skillbench's scripted model: they test the harness, not a real model."
    : "";
  const fits = (body: string): boolean => body.length <= limit;
  const join = (parts: string[], note: string): string =>
    `${head}\n${parts.join("\n\n")}${note ? `\n\n${note}` : ""}${scripted}\n`;

  const full = join(
    input.skills.map((s) => section(s, true)),
    "",
  );
  if (fits(full)) return full;
  const noDetails = join(
    input.skills.map((s) => section(s, false)),
    "_Per-task details left out: the full comment is over GitHub's size limit; see each results folder._",
  );
  if (fits(noDetails)) return noDetails;
  const lines = input.skills.map(oneLine);
  const short = join(
    [lines.join("\n")],
    "_Summarised to one line per Skill (reasons, gates, health and per-task details left out): the full comment is over GitHub's size limit; see each results folder._",
  );
  if (fits(short)) return short;
  // Still too long: as many one-line Skills as fit, and how many were left out.
  let kept = lines.length;
  for (;;) {
    kept = Math.max(0, Math.floor(kept * 0.9) - 1);
    const body = join(
      [lines.slice(0, kept).join("\n")],
      `_${lines.length - kept} more experiment(s) left out (the comment is over GitHub's size limit); see each results folder._`,
    );
    if (fits(body) || kept === 0) return body;
  }
}
