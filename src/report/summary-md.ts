import { summaryArmIntegrity } from "./comparison/arm-integrity.js";
import { skillUseRows, skillUseSection } from "./comparison/skill-use.js";
import { healthVerdictLine, type HealthSummary } from "../core/health.js";
import type { RunDigest } from "../core/digest.js";
import { cell, f2, int, meanOf, orderDimensions, pct, secs, table, Tally, usd } from "./format.js";
import { groupBy, groupCells, treatmentOrder, type Cell } from "../plan/group.js";
import { renderPassKTable } from "./passk-md.js";
import { hasControls, stripControls } from "../util/safe-text.js";
import { isolationOf, localWarningLine, SCRIPTED_MODEL_LABEL } from "./endpoint.js";
import { reusedNote, reusedSources } from "./reuse.js";
import { judgeNoteLines } from "./judge-notes.js";
import { aggregatedByModel, modelsOfRuns, splitCellsByModel } from "./summary-models.js";
import { judgeCostLines } from "./comparison/cost.js";
import { tokenKindRows, tokenKindsSection } from "./token-kinds.js";

/** Sandbox kinds used, and the local warning when any run had none. */
function sandboxLines(reports: RunDigest[]): string[] {
  const iso = isolationOf(reports);
  const local = localWarningLine(iso);
  return [`**Sandbox:** ${iso.kinds.join(", ") || "—"}`, ...(local === null ? [] : ["", local])];
}

export interface SummaryInput {
  experimentId: string;
  startedAt: string | null;
  completedAt: string | null;
  suite: string | null;
  agentVersion: string | null;
  model: string | null;
  treatments: string[];
  /** every run, as digests (a full report is a digest too) */
  reports: RunDigest[];
  ks?: number[] | undefined;
  /** the runs were played by the scripted model server */
  scripted?: boolean;
  /** `--resume` kept stored runs outside what this invocation asked for (see docs/statistics.md §10) */
  resume?: { asked: string; kept: number } | null;
  /** The preflight's task health (metadata.json `health`, docs/health.md); absent: no section. */
  health?: HealthSummary | undefined;
}

function checksOf(runs: RunDigest[]): { passed: number; total: number } {
  let passed = 0;
  let total = 0;
  for (const r of runs) {
    passed += r.checks_passed.length;
    total += r.checks_passed.length + r.checks_failed.length;
  }
  return { passed, total };
}

/** Judge dimensions seen in any run, in first-seen order. */
function judgeDims(reports: RunDigest[]): string[] {
  const out: string[] = [];
  for (const r of reports)
    for (const d of r.judge?.dimensions ?? []) if (!out.includes(d.name)) out.push(d.name);
  return out;
}

function judgeCell(runs: RunDigest[], dim: string): string {
  const scores = runs.map((r) => r.judge?.dimensions.find((d) => d.name === dim)?.score);
  // Fail closed: a run whose judge failed is N/A here, said beside the mean of the others.
  const na = runs.filter((r) => r.judge?.status === "failed").length;
  return `${f2(meanOf(scores))}${na > 0 ? ` (${na} N/A)` : ""}`;
}

/** Agents of the runs (report names), in first-seen order. */
function agentsOf(reports: RunDigest[]): string[] {
  const names = new Set<string>();
  for (const r of reports) names.add(r.agent.name);
  return [...names];
}

/**
 * With several agents, each task × treatment cell is split by agent (docs/agents.md, "Reports by
 * agent"); with one, the cells are as they were.
 */
function splitByAgent(cells: Cell[], multi: boolean): Array<Cell & { agent: string | null }> {
  if (!multi) return cells.map((c) => ({ ...c, agent: null }));
  return cells.flatMap((c) =>
    agentsOf(c.runs).map((agent) => ({
      ...c,
      agent,
      runs: c.runs.filter((r) => r.agent.name === agent),
    })),
  );
}

/** `claude-code 2.1.328, codex 0.171.0`: every agent and version the runs recorded. */
function agentsText(reports: RunDigest[], fallbackVersion: string | null): string {
  if (reports.length === 0) return `claude-code ${fallbackVersion ?? "(unknown version)"}`;
  // One pass: each agent's versions, agents and versions in first-seen order.
  const versionsOf = new Map<string, Set<string | null>>();
  for (const r of reports) {
    const { name, version } = r.agent;
    const versions = versionsOf.get(name);
    if (versions) versions.add(version);
    else versionsOf.set(name, new Set([version]));
  }
  return [...versionsOf]
    .map(([a, versions]) => `${a} ${[...versions].map((v) => v ?? "(unknown version)").join("/")}`)
    .join(", ");
}

function resultsTable(
  cells: Array<Cell & { agent: string | null; model: string | null }>,
  dims: string[],
  jdims: string[],
): string {
  const multi = cells.some((c) => c.agent !== null);
  const multiModel = cells.some((c) => c.model !== null);
  const header = [
    "Task",
    "Treatment",
    ...(multi ? ["Agent"] : []),
    ...(multiModel ? ["Model"] : []),
    "Runs",
    "Passed",
    "Checks",
    ...dims,
    "weighted_score",
    "RubricAvg",
    ...jdims.map((d) => `judge:${d}`),
    "Turns",
    "Duration",
    "Tools",
    "Tokens",
    "Cost",
  ];
  const dimAt = new Map(dims.map((d, i) => [d, i]));
  const rows = cells.map((c) => {
    // One pass over the cell's runs for every column (each run's memory is read once).
    let passed = 0;
    let checksPassed = 0;
    let checksTotal = 0;
    const weighted = new Tally();
    const rubricAvg = new Tally();
    const turns = new Tally();
    const duration = new Tally();
    const tools = new Tally();
    const tokens = new Tally();
    const cost = new Tally();
    // Per dimension: does any run have it (dimCell's "/"), and the numeric scores in run order.
    const present = new Array<boolean>(dims.length).fill(false);
    const scores = dims.map((): number[] => []);
    const seen = new Array<boolean>(dims.length);
    for (const r of c.runs) {
      if (r.passed) passed++;
      const ok = r.checks_passed.length;
      checksPassed += ok;
      checksTotal += ok + r.checks_failed.length;
      const rubric = r.rubric;
      weighted.add(rubric?.weighted_score);
      rubricAvg.add(rubric?.rubric_avg);
      const e = r.events_summary;
      turns.add(e?.num_turns);
      duration.add(e?.duration_seconds);
      tools.add(e?.tool_calls);
      tokens.add(e?.total_tokens);
      cost.add(e?.total_cost_usd);
      seen.fill(false);
      // the first dimension of each name counts (as a find by name does)
      for (const d of rubric?.dimensions ?? []) {
        const i = dimAt.get(d.name);
        if (i === undefined || seen[i] === true) continue;
        seen[i] = true;
        present[i] = true;
        if (typeof d.score === "number") (scores[i] as number[]).push(d.score);
      }
    }
    return [
      cell(c.task),
      cell(c.treatment),
      ...(multi ? [cell(c.agent ?? "")] : []),
      ...(multiModel ? [cell(c.model ?? "")] : []),
      String(c.runs.length),
      `${passed}/${c.runs.length}`,
      `${checksPassed}/${checksTotal}`,
      ...dims.map((_, i) =>
        present[i] !== true
          ? "/"
          : (scores[i] as number[]).length === 0
            ? "N/A"
            : f2(meanOf(scores[i] as number[])),
      ),
      f2(weighted.mean()),
      f2(rubricAvg.mean()),
      ...jdims.map((d) => judgeCell(c.runs, d)),
      f2(turns.mean()),
      secs(duration.mean()),
      f2(tools.mean()),
      int(tokens.total()),
      usd(cost.total()),
    ];
  });
  return table(header, rows);
}

function aggregatedByTreatment(reports: RunDigest[], treatments: string[]): string {
  const agents = agentsOf(reports);
  const multi = agents.length > 1;
  const arms = treatments.flatMap((t): Array<{ t: string; a: string | null }> =>
    multi
      ? agents
          .filter((a) => reports.some((r) => r.treatment === t && r.agent.name === a))
          .map((a) => ({ t, a }))
      : [{ t, a: null }],
  );
  const byTreatment = groupBy(reports, (r) => r.treatment);
  const rows = arms.map(({ t, a }) => {
    // One pass over the arm's runs for every column.
    let runs = 0;
    let passed = 0;
    let checksPassed = 0;
    let checksTotal = 0;
    const weighted = new Tally();
    const turns = new Tally();
    const duration = new Tally();
    const tokens = new Tally();
    const cost = new Tally();
    const skills = new Set<string>();
    const scripts = new Set<string>();
    const skillLists = new Set<readonly string[]>();
    const scriptLists = new Set<readonly string[]>();
    for (const r of byTreatment.get(t) ?? []) {
      if (a !== null && r.agent.name !== a) continue;
      runs++;
      if (r.passed) passed++;
      checksPassed += r.checks_passed.length;
      checksTotal += r.checks_passed.length + r.checks_failed.length;
      weighted.add(r.rubric?.weighted_score);
      const e = r.events_summary;
      turns.add(e?.num_turns);
      duration.add(e?.duration_seconds);
      tokens.add(e?.total_tokens);
      cost.add(e?.total_cost_usd);
      // Runs share their lists (on packed digests, the very arrays): each distinct one is added once.
      const invoked = e?.skills_invoked ?? [];
      if (!skillLists.has(invoked)) {
        skillLists.add(invoked);
        for (const x of invoked) skills.add(x);
      }
      const used = e?.scripts_used ?? [];
      if (!scriptLists.has(used)) {
        scriptLists.add(used);
        for (const x of used) scripts.add(x);
      }
    }
    return [
      cell(t),
      ...(multi ? [cell(a ?? "")] : []),
      `${passed}/${runs}`,
      `${checksPassed}/${checksTotal} (${pct(checksPassed, checksTotal)})`,
      f2(weighted.mean()),
      f2(turns.mean()),
      secs(duration.mean()),
      int(tokens.total()),
      usd(cost.total()),
      cell([...skills].join(", ") || "—"),
      cell([...scripts].join(", ") || "—"),
    ];
  });
  return table(
    [
      "Treatment",
      ...(multi ? ["Agent"] : []),
      "Reps Passed",
      "Checks",
      "weighted_score",
      "Avg Turns",
      "Avg Duration",
      "Tokens",
      "Cost",
      "Skills",
      "Scripts",
    ],
    rows,
  );
}

/** The dual-agent loop in one line (auto_user runs only). */
function interactionLine(r: RunDigest): string[] {
  const i = r.interaction;
  if (!i || i.mode !== "auto_user") return [];
  const n = (k: string): string => (typeof i[k] === "number" ? String(i[k]) : "—");
  return [
    `- Interaction: turns ${i.actual_turns}/${i.max_turns} · decision points ${n("decision_points")} · simulated replies ${n("simulated_replies")} · deterministic replies ${n("deterministic_replies")} · nudges ${n("nudges")} · ended ${i.end_reason}`,
  ];
}

/**
 * A run's section as one text, its lines joined by newlines: built in one string rather than
 * an array of lines joined (10,000 runs make ~200,000 lines), and each field of the run read
 * once (a packed digest builds some of them, events_summary and run_id, at every read).
 */
function runText(r: RunDigest, multi = false): string {
  const passed = r.checks_passed;
  const failed = r.checks_failed;
  const total = passed.length + failed.length;
  const es = r.events_summary;
  const sq = r.sample_quality;
  let t =
    `**Run ${r.rep} — ${r.task}${multi ? ` on ${r.agent.name}` : ""}:** ${r.status.toUpperCase()} · ${passed.length}/${total} checks (${pct(passed.length, total)}) · outcome ${r.outcome} · sample ${sq.status} (${sq.reason_code}) · run_id \`${r.run_id}\`` +
    `\n- Metrics: turns=${es?.num_turns ?? "—"} tools=${es?.tool_calls ?? "—"} duration=${secs(es?.duration_seconds)} tokens=${int(es?.total_tokens)} cost=${usd(es?.total_cost_usd)} weighted_score=${f2(r.rubric?.weighted_score)}`;
  for (const l of interactionLine(r)) t += `\n${l}`;
  t += `\n- Skills invoked: ${es?.skills_invoked.join(", ") || "none"}\n- Scripts used: ${es?.scripts_used.join(", ") || "none"}\n- Passed checks (${passed.length}):`;
  for (const c of passed) t += `\n  - ${c}`;
  t += `\n- Failed checks (${failed.length}):`;
  for (const c of failed) t += `\n  - ${c}`;
  const rubricLines = r.rubric_lines;
  if (rubricLines.length > 0) {
    t += "\n- Rubric:";
    for (const l of rubricLines) t += `\n  - ${l}`;
  }
  const judge = r.judge;
  if (judge) {
    t += "\n- LLM judge (overlay; rule scores unchanged):";
    for (const l of judge.lines) t += `\n  - ${l}`;
  }
  return t;
}

/**
 * Above this many runs, summary.md keeps its tables and a per-treatment line, and the
 * per-run sections ("Treatment Details") go to their own file, RUN_DETAILS_FILE, in
 * the results folder (README "The results folder"). At or below it, summary.md holds
 * them as the original harness's summary does.
 */
export const RUN_DETAILS_LIMIT = 200;
/** The per-run details file written beside summary.md above RUN_DETAILS_LIMIT runs. */
export const RUN_DETAILS_FILE = "runs.md";

/** summary.md, and runs.md when the experiment has more than RUN_DETAILS_LIMIT runs. Pure. */
export interface SummaryFiles {
  summary: string;
  /** null at or below RUN_DETAILS_LIMIT runs: the details are in summary.md */
  runs: string | null;
}

/** The heading of one treatment's runs in "Treatment Details". */
function treatmentHeading(runs: RunDigest[], t: string): string[] {
  const c = checksOf(runs);
  return [`### ${t} (${c.passed}/${c.total} checks, ${pct(c.passed, c.total)})`, ""];
}

/** The "Treatment Details" section: every run of every treatment. */
function treatmentDetails(reports: RunDigest[], treatments: string[]): string[] {
  const lines: string[] = ["## Treatment Details", ""];
  const multi = agentsOf(reports).length > 1;
  const byTreatment = groupBy(reports, (r) => r.treatment);
  for (const t of treatments) {
    const runs = byTreatment.get(t) ?? [];
    lines.push(...treatmentHeading(runs, t));
    for (const r of runs) lines.push(runText(r, multi), "");
  }
  return lines;
}

/** summary.md (layout in docs/reports.md; the Checks column counts real checks only). Pure. */
export function renderSummaryMarkdown(s: SummaryInput): string {
  return renderSummaryFiles(s).summary;
}

/** Agents and validators write check messages: no terminal escapes or control characters pass. */
const text = (ls: string[]): string => `${stripControls(ls.join("\n")).trimEnd()}\n`;

/**
 * summary.md and, above RUN_DETAILS_LIMIT runs, runs.md (the per-run sections, which
 * would otherwise make summary.md megabytes long), each as one string. Pure. (The report
 * commands write runs.md a piece at a time instead: RunDetailsText.)
 */
export function renderSummaryFiles(s: SummaryInput): SummaryFiles {
  const o = summaryOverview(s);
  if (o.details === "inline") {
    const lines = [...o.lines, ...treatmentDetails(s.reports, o.treatments)];
    return { summary: text(lines), runs: null };
  }
  const details = new RunDetailsText(s, o.treatments);
  let runs = "";
  const out = (t: string): void => void (runs += t);
  details.start(out);
  for (const t of o.treatments) {
    details.treatment(t, out);
    for (const r of s.reports) if (r.treatment === t) details.run(r, out);
  }
  details.end(out);
  return { summary: text(o.lines), runs };
}

/**
 * summary.md's text when its per-run sections go to runs.md (more than RUN_DETAILS_LIMIT
 * runs), or null when they stay in summary.md (renderSummaryFiles). Pure.
 */
export function renderSummaryOverview(s: SummaryInput): string | null {
  const o = summaryOverview(s);
  return o.details === "inline" ? null : text(o.lines);
}

/**
 * runs.md, a piece at a time, in the order start, then for each treatment of `treatments` its
 * heading and its runs (task, then rep), then end: the same text as renderSummaryFiles'
 * `runs`, never held whole. Pure: `out` gets the text.
 */
export class RunDetailsText {
  private readonly multi: boolean;
  private readonly digests: RunDigest[];
  private readonly total: number;
  /** trailing whitespace held back (the file ends trimmed, with one newline) */
  private held = "";
  private first = true;

  constructor(
    private readonly s: SummaryInput,
    readonly treatments: string[] = treatmentOrder(s.reports, s.treatments),
  ) {
    this.digests = s.reports;
    this.multi = agentsOf(s.reports).length > 1;
    this.total = s.reports.length;
  }

  /** `text` (its lines joined), after a newline unless it is the first, its controls stripped. */
  private emit(text: string, out: (t: string) => void): void {
    const piece = stripControls(this.first ? text : `\n${text}`);
    this.first = false;
    this.pass(piece, out);
  }

  /**
   * Out with `piece`, but for its trailing whitespace, which waits for the next text that is not
   * all whitespace (the file ends trimmed).
   */
  private pass(piece: string, out: (t: string) => void): void {
    const kept = piece.trimEnd();
    if (kept.length === 0) {
      this.held += piece;
      return;
    }
    out(this.held + kept);
    this.held = piece.slice(kept.length);
  }

  start(out: (t: string) => void): void {
    this.emit(
      [
        "# Experiment Run Details",
        "",
        `**Experiment ID:** ${this.s.experimentId} · ${this.total} runs · the summary is in [summary.md](summary.md)`,
        "",
        "## Treatment Details",
        "",
      ].join("\n"),
      out,
    );
  }

  treatment(t: string, out: (t: string) => void): void {
    this.emit(
      treatmentHeading(
        this.digests.filter((r) => r.treatment === t),
        t,
      ).join("\n"),
      out,
    );
  }

  run(r: RunDigest, out: (t: string) => void): void {
    this.emit(`${runText(r, this.multi)}\n`, out);
  }

  /**
   * Several runs in a row: the text of `run` for each. Their texts are made into one string and
   * searched for control characters once: without any, as nearly always, stripping each would
   * change nothing, and the string goes out whole (the whitespace held back is the same for a
   * text as for its parts). One search of one string instead of a search, and a flattening, of
   * each run's string of some thirty parts. With a control character, each run is stripped on
   * its own, as `run` does (an escape sequence left open would otherwise run on into the next).
   */
  runs(rs: readonly RunDigest[], out: (t: string) => void): void {
    if (rs.length === 0) return;
    // What `run` emits for each, one after the other: "\n", its text and "\n".
    let text = this.first ? "" : "\n";
    let between = "";
    for (const r of rs) {
      text += between + runText(r, this.multi);
      between = "\n\n";
    }
    text += "\n";
    if (hasControls(text)) {
      for (const r of rs) this.run(r, out);
      return;
    }
    this.first = false;
    this.pass(text, out);
  }

  end(out: (t: string) => void): void {
    out("\n");
  }
}

/** summary.md above the per-run sections, and where those go. Pure. */
function summaryOverview(s: SummaryInput): {
  lines: string[];
  treatments: string[];
  details: "inline" | "runs.md";
} {
  const treatments = treatmentOrder(s.reports, s.treatments);
  const multiAgent = agentsOf(s.reports).length > 1;
  const models = modelsOfRuns(s.reports);
  // The task × treatment cells once: the results table splits them, the tokens by kind sum them.
  const grouped = groupCells(s.reports, treatments);
  const cells = splitCellsByModel(splitByAgent(grouped, multiAgent), models.length > 1);
  // One pass for the header's counts, each treatment's (its line under "Treatment Details") and
  // the rubric dimensions' names.
  const dimNames = new Set<string>();
  let passedRuns = 0;
  const ch = { passed: 0, total: 0 };
  let excluded = 0;
  const ofTreatment = new Map<string, { runs: number; passed: number; checks: typeof ch }>();
  for (const r of s.reports) {
    const ok = r.checks_passed.length;
    const all = ok + r.checks_failed.length;
    const passed = r.passed;
    if (passed) passedRuns++;
    ch.passed += ok;
    ch.total += all;
    if (!r.sample_quality.include_in_analysis) excluded++;
    for (const d of r.rubric?.dimensions ?? []) dimNames.add(d.name);
    const treatment = r.treatment;
    let t = ofTreatment.get(treatment);
    if (!t)
      ofTreatment.set(treatment, (t = { runs: 0, passed: 0, checks: { passed: 0, total: 0 } }));
    t.runs++;
    if (passed) t.passed++;
    t.checks.passed += ok;
    t.checks.total += all;
  }
  const dims = orderDimensions(dimNames);
  const withReps = cells.some((c) => c.runs.length > 1);
  const total = s.reports.length;
  const lines: string[] = [
    "# Experiment Results Summary",
    "",
    ...(s.scripted
      ? [
          `> ⚠️ **${SCRIPTED_MODEL_LABEL}.** Every run was played by skillbench's scripted model server: pass rates, tokens and costs describe the script, not a model.`,
          "",
        ]
      : []),
    ...(s.resume && s.resume.kept > 0
      ? [
          `> Resumed: this invocation asked for ${s.resume.asked}; the reports keep all ${total} complete stored run(s) of the experiment, ${s.resume.kept} of them outside that request.`,
          "",
        ]
      : []),
    ...reusedNote(reusedSources(s.reports)),
    `**Experiment ID:** ${s.experimentId}  `,
    `**Started:** ${s.startedAt ?? "—"}  `,
    `**Completed:** ${s.completedAt ?? "incomplete"}  `,
    `**Suite:** ${s.suite ?? "—"}  `,
    `**Agent${multiAgent ? "s" : ""}:** ${agentsText(s.reports, s.agentVersion)} · **Model${models.length > 1 ? "s" : ""}:** ${models.length > 1 ? `${models.join(", ")}${s.scripted ? ` (${SCRIPTED_MODEL_LABEL})` : ""}` : s.scripted ? `${s.model ?? "scripted"} (${SCRIPTED_MODEL_LABEL})` : (s.model ?? "CLI default")}  `,
    ...sandboxLines(s.reports),
    ...judgeNoteLines(s.reports),
    "",
    ...(s.health ? healthSection(s.health) : []),
    withReps ? "## Results (with Repetitions)" : "## Results",
    "",
    "_Checks count validator checks and hard failures only; `[RUBRIC]` lines are scores, not checks. With repetitions, rubric columns, turns, duration and tools are means; tokens and cost are sums._",
    "",
    resultsTable(cells, dims, judgeDims(s.reports)),
    "",
    "## Summary",
    "",
    `- Total Runs: ${total}`,
    `- Runs Passed: ${passedRuns}/${total} (${pct(passedRuns, total)})`,
    `- Checks Passed: ${ch.passed}/${ch.total} (${pct(ch.passed, ch.total)})`,
    `- Excluded from analysis (infrastructure noise or harness errors): ${excluded}`,
    ...judgeCostLines(s.reports, usd),
    "",
    renderPassKTable(s.reports, treatments, s.ks),
    "",
  ];
  if (withReps || multiAgent)
    lines.push(
      multiAgent ? "## Aggregated by Treatment and Agent" : "## Aggregated by Treatment",
      "",
      aggregatedByTreatment(s.reports, treatments),
      "",
    );
  if (models.length > 1) lines.push(...aggregatedByModel(s.reports, treatments));
  const kinds = tokenKindsSection(tokenKindRows(s.reports, treatments, grouped));
  if (kinds !== null) lines.push(kinds, "");
  const arms = summaryArmIntegrity(s.reports, treatments);
  if (arms !== null) lines.push(arms, "");
  const use = skillUseSection(skillUseRows(s.reports));
  if (use !== null) lines.push(use, "");
  if (total <= RUN_DETAILS_LIMIT) return { lines, treatments, details: "inline" };
  lines.push(
    "## Treatment Details",
    "",
    `_${total} runs: more than ${RUN_DETAILS_LIMIT}, so each run's section is in [${RUN_DETAILS_FILE}](${RUN_DETAILS_FILE}) beside this file (and in the HTML report)._`,
    "",
  );
  for (const t of treatments) {
    const {
      runs,
      passed,
      checks: c,
    } = ofTreatment.get(t) ?? {
      runs: 0,
      passed: 0,
      checks: { passed: 0, total: 0 },
    };
    lines.push(
      `- **${t}**: ${passed}/${runs} runs passed, ${c.passed}/${c.total} checks (${pct(c.passed, c.total)})`,
    );
  }
  return { lines, treatments, details: "runs.md" };
}

/** `## Task health`: the preflight's line, and the tasks it left out of the comparison. */
function healthSection(h: HealthSummary): string[] {
  return [
    "## Task health",
    "",
    `${healthVerdictLine(h)} Details: health.json (docs/health.md).`,
    "",
    ...h.left_out.map((l) => `- \`${l.task}\` left out of the comparison: ${l.reasons.join(", ")}`),
    ...(h.left_out.length > 0 ? [""] : []),
  ];
}
