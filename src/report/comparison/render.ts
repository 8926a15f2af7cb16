import { adherenceRows } from "./adherence.js";
import { renderArmIntegrity } from "./arm-integrity.js";
import { renderJudgeOverlay } from "./judge-overlay.js";
import { reusedNote } from "../reuse.js";
import { renderJudgeNotes, renderPairwise, renderVerbosity } from "./judge-section.js";
import { localWarningLine } from "../endpoint.js";
import { stripControls } from "../../util/safe-text.js";
import { cell, f2, int, secs, table, usd } from "../format.js";
import { passKMarkdown } from "../passk-md.js";
import { interval, percent, pValue, signed } from "./fmt.js";
import { renderByModel } from "./models.js";
import { deltaText, runsNeededValue } from "./band.js";
import { levelText } from "./interval.js";
import type { AttributionTreatment, Comparison, DimensionCell, ListedRun } from "./types.js";
import { renderNoiseFloor } from "../calibration/render.js";
import { costOfAnswerLines } from "./cost.js";
import { withNoteAfterTitle } from "../unreadable.js";
import type { SourceEvidenceSource } from "./source-evidence.js";
import { skillUseSection } from "./skill-use.js";

const code = (s: string | null): string => (s === null ? "—" : `\`${s}\``);

function header(c: Comparison): string[] {
  const out = ["# skillbench Comparison Report", ""];
  if (c.endpoint.scripted)
    out.push(
      `> ⚠️ **${c.endpoint.label ?? "scripted model"}.** Every run was played by skillbench's scripted model server: the verdict describes the script, not a model.`,
      "",
    );
  const local = localWarningLine(c.isolation);
  if (local !== null) out.push(local, "");
  const fb = c.frozen_baseline;
  if (fb) {
    out.push(
      `> 🧊 **Frozen baseline:** the ${fb.runs} \`${fb.treatment}\` run(s) were reused from \`${fb.dir}\` (\`run --baseline-from\`), not run again.${fb.drift.length > 0 ? " They differ from this run (`--allow-drift`):" : " Their fingerprints (agent, model, endpoint, judge, task content, sandbox, profile, interaction) match this run, and their reports agree with their stored evidence."}`,
    );
    for (const d of fb.drift) out.push(`> - ${d}`);
    out.push("");
  }
  out.push(...reusedNote(c.reused ?? []));
  const judgeNotes = renderJudgeNotes(c.judge);
  if (judgeNotes !== null) out.push(judgeNotes, "");
  if (c.warnings.length > 0) {
    out.push("> ⚠️ **The compared runs are not like for like:**");
    for (const w of c.warnings) out.push(`> - ${w.message}`);
    out.push(">", "> Differences below may come from these, not from the treatments.", "");
  }
  out.push(
    `- Experiment: ${code(c.experiment_id)}`,
    `- Candidate: ${code(c.roles.candidate)}`,
    `- Baseline: ${code(c.roles.baseline)}`,
    `- Control: ${code(c.roles.control)}`,
    `- Treatments with data: ${c.treatments.join(", ")}`,
    `- Agents: ${c.agents.map((a) => `${a.agent} ${a.versions.map((v) => v ?? "(unknown version)").join("/")} (${a.runs} run(s))`).join(", ") || "—"}`,
  );
  return out;
}

/** The candidate and baseline on each agent alone (docs/agents.md, "Reports by agent"). */
function byAgent(c: Comparison): string | null {
  if (c.by_agent.length === 0) return null;
  const { candidate, baseline } = c.roles;
  const rows = c.by_agent.map((a) => {
    const s = a.comparison;
    const versions = a.versions.map((v) => v ?? "?").join("/");
    if (s === null)
      return [cell(a.agent), versions, String(a.runs), "—", "—", "—", cell(a.reason ?? "")];
    const rate = (t: string): string => {
      const r = s.run_counts.find((x) => x.treatment === t);
      return r ? `${r.passed}/${r.runs} (${percent(r.pass_rate)})` : "—";
    };
    const v = s.verdict;
    return [
      cell(a.agent),
      versions,
      String(a.runs),
      rate(candidate),
      rate(baseline),
      `${signed(v.delta)} ${v.ci ? `[${signed(v.ci.low)}, ${signed(v.ci.high)}]` : ""}`.trim(),
      `**${v.band.replace("_", "-")}**`,
    ];
  });
  const out = [
    "## By agent",
    "",
    `\`${candidate}\` vs \`${baseline}\` on each agent alone (analysis set; each row is a full comparison in comparison.json \`by_agent\`).`,
    "",
    table(
      [
        "Agent",
        "Version",
        "Runs",
        `\`${candidate}\` passed`,
        `\`${baseline}\` passed`,
        "Δ pass rate",
        "Band",
      ],
      rows,
    ),
  ];
  if (c.mixed_arms.length > 0)
    out.push(
      "",
      `_${c.mixed_arms.map((m) => `\`${m.treatment}\` ran on ${m.agents.map((x) => `${x.agent} (${x.runs})`).join(" and ")}`).join("; ")}: the pooled sections below mix agents; the verdict is per agent._`,
    );
  return out.join("\n");
}

function metricGuide(): string {
  const rows = [
    [
      "pass@k",
      "P(at least 1 of k attempts passes): capability ceiling",
      "analysis set, per task then averaged",
      "pass@k / pass^k",
    ],
    [
      "pass^k strict / unbiased",
      "every observed run passed / P(all k attempts pass): reliability floor",
      "analysis set, per task then averaged",
      "pass@k / pass^k",
    ],
    [
      "pass rate",
      "runs with no failed check / runs",
      "analysis set",
      "Run counts, Paired comparison",
    ],
    [
      "c/n, flip",
      "passed / analysis-set runs of a task; flip = its runs disagree",
      "analysis set",
      "Task outcomes",
    ],
    [
      "Rubric dimension",
      "mean±stdev of 0–1 scores (pass% = share ≥ 0.50)",
      "report.json rubric, analysis set",
      "Rubric dimensions",
    ],
    [
      "Overall",
      "mean weighted_score",
      "report.json rubric, analysis set",
      "Rubric dimensions, Verdict",
    ],
    [
      "Sample quality",
      "included / flagged (kept) / excluded (infrastructure noise)",
      "report.json sample_quality",
      "Data quality, Excluded runs, Flagged runs",
    ],
    [
      "Failure attribution",
      "bucket of each failed check: harness, workflow, task, model",
      "report.json failure_attribution",
      "Failure attribution",
    ],
    [
      "Δ pass rate",
      "candidate − baseline, with the verdict's interval (its method is named in the Verdict)",
      "analysis set, tasks both have",
      "Verdict, Paired comparison",
    ],
  ];
  return [
    "## Metric guide",
    "",
    table(["Metric", "Meaning", "Source", "Report section"], rows),
  ].join("\n");
}

function dataQuality(c: Comparison): string {
  const rows = c.data_quality.map((q) => [
    cell(q.treatment),
    String(q.raw),
    String(q.analysis),
    String(q.flagged),
    String(q.excluded),
  ]);
  return [
    "## Data quality summary",
    "",
    table(["Treatment", "Raw runs", "Analysis set", "Flagged", "Excluded"], rows),
  ].join("\n");
}

function runCounts(c: Comparison): string {
  const rows = c.run_counts.map((r) => [
    cell(r.treatment),
    String(r.runs),
    String(r.passed),
    String(r.failed),
    f2(r.pass_rate),
  ]);
  return [
    "## Run counts",
    "",
    table(["Treatment", "Runs", "Passed", "Failed", "Pass rate"], rows),
    "",
    "_Analysis set only; excluded hard-noise runs are omitted._",
  ].join("\n");
}

function passK(c: Comparison): string {
  const t = c.pass_k;
  const header = [
    "Metric",
    "Treatment",
    ...t.ks.map((k) => `pass@${k} 95% CI`),
    ...t.ks.map((k) => `pass^${k} unbiased 95% CI`),
  ];
  const rows = t.bootstrap.map((b) => [
    b.metric,
    cell(b.treatment),
    ...t.ks.map((k) => interval(b.pass_at_k[k])),
    ...t.ks.map((k) => interval(b.pass_hat_k_unbiased[k])),
  ]);
  return [
    passKMarkdown(t),
    "",
    `Bootstrap 95% intervals (two-stage: tasks resampled, then runs within each task; ${c.settings.replicates} replicates, seed ${c.settings.seed}). "—" = not estimable (no task has k runs).`,
    "",
    table(header, rows),
  ].join("\n");
}

function taskOutcomes(c: Comparison): string {
  const rows = c.task_outcomes.map((r) => [
    cell(r.task),
    ...c.treatments.map((t) => {
      const x = r.cells[t];
      return x ? `${x.c}/${x.n}${x.flip ? " (flip)" : ""}` : "—";
    }),
  ]);
  return [
    "## Task outcomes",
    "",
    '_Passed/total analysis-set runs per task × treatment; "(flip)" = the runs disagree; "—" = no analysis-set run._',
    "",
    table(["Task", ...c.treatments.map(cell)], rows),
  ].join("\n");
}

function spend(c: Comparison): string {
  const rows = c.spend.map((s) => [
    cell(s.treatment),
    String(s.runs),
    int(s.tokens),
    usd(s.cost_usd),
    int(s.avg_tokens),
    usd(s.avg_cost_usd),
  ]);
  return [
    "## Spend summary",
    "",
    table(["Treatment", "Runs", "Tokens", "Cost", "Avg Tokens/Run", "Avg Cost/Run"], rows),
    "",
    "_Analysis set; averages over the runs that reported a value._",
    ...(c.cost_of_answer ? ["", ...costOfAnswerLines(c.cost_of_answer, (x) => usd(x))] : []),
  ].join("\n");
}

function runtime(c: Comparison): string {
  const rows = c.runtime.map((r) => [
    cell(r.treatment),
    String(r.runs),
    int(r.turns),
    secs(r.duration_seconds),
    int(r.tool_calls),
    f2(r.avg_turns),
    secs(r.avg_duration_seconds),
    f2(r.avg_tool_calls),
  ]);
  return [
    "## Runtime summary",
    "",
    table(
      [
        "Treatment",
        "Runs",
        "Turns",
        "Duration",
        "Tool Calls",
        "Avg Turns/Run",
        "Avg Duration/Run",
        "Avg Tool Calls/Run",
      ],
      rows,
    ),
    "",
    "_Analysis set; duration is the agent-reported duration._",
  ].join("\n");
}

const SOURCE_EVIDENCE_HEAD = [
  "## Source evidence",
  "",
  table(["Run", "Quality", "Reason", "Profile", "Skill sources", "Agent version"], []),
].join("\n");

/** One row of the source-evidence table (as `table` writes it). */
function sourceEvidenceLine(s: Comparison["source_evidence"][number]): string {
  return `| ${[
    code(s.run_id),
    s.quality,
    cell(s.reason_code),
    cell(s.profile ?? "—"),
    cell(s.skill_sources.join(", ") || "—"),
    cell(s.agent_version ?? "—"),
  ].join(" | ")} |`;
}

/** The source-evidence table's rows, each preceded by its newline, ROWS_PER_PIECE at a time. */
function* sourceEvidenceRows(rows: SourceEvidenceSource): Generator<string> {
  for (let i = 0; i < rows.length; i += ROWS_PER_PIECE) {
    let text = "";
    for (const row of rows.slice(i, i + ROWS_PER_PIECE)) text += `\n${sourceEvidenceLine(row)}`;
    yield text;
  }
}

/** Rows of the per-run table held in one piece of comparison_report.md. */
const ROWS_PER_PIECE = 250;

function dimCell(
  x: DimensionCell | null | undefined,
  distribution: boolean,
  withPass = true,
): string {
  if (!x) return "—";
  if (x.n === 0 || x.mean === null) return "N/A";
  const spread = distribution && x.stdev !== null ? `${f2(x.mean)}±${f2(x.stdev)}` : f2(x.mean);
  return withPass ? `${spread} (${percent(x.pass_rate)})` : spread;
}

/** A dimension's Δ with its test's interval and mark (⚠️ regression, "(unresolved)"). */
function dimensionDelta(d: {
  delta: number | null;
  test: Comparison["rubric"]["dimensions"][number]["test"];
}): string {
  const t = d.test;
  const iv = t?.ci ? ` [${signed(t.ci.low)}, ${signed(t.ci.high)}]` : "";
  const mark =
    t?.status === "regression" ? " ⚠️" : t?.status === "unresolved" ? " (unresolved)" : "";
  // With a test, its Δ (over the tasks both arms scored) is the centre of the interval shown.
  return `${signed(t ? t.delta : d.delta)}${iv}${mark}`;
}

function rubric(c: Comparison): string {
  const r = c.rubric;
  const { candidate, baseline } = c.roles;
  const title = r.distribution
    ? "## Rubric dimensions (mean±stdev, pass-rate across runs; 0.00–1.00)"
    : "## Rubric dimensions (mean, 0.00–1.00)";
  const out = [title, "", "### Dimension guide", ""];
  out.push(
    `- Each run scores every dimension from 0.00 to 1.00 (profile: ${r.profiles.join(", ") || "—"}). A cell is the mean${r.distribution ? "±stdev" : ""} over the treatment's analysis-set runs, with the share of runs scoring ≥ ${c.settings.dimension_pass_score.toFixed(2)} in parentheses; N/A = every run scored it as not applicable; "—" = no run has it.`,
    `- Δ = \`${candidate}\` − \`${baseline}\` with its interval (task-clustered, at the Holm-corrected level of its rank among the dimensions tested, docs/statistics.md §9); ⚠️ marks a regression: the interval lies below −${c.settings.regression_tolerance.toFixed(2)}; "(unresolved)" marks a mean Δ below −${c.settings.regression_tolerance.toFixed(2)} the interval does not resolve (it does not move the verdict). **Overall** = mean weighted_score.`,
    "",
  );
  if (r.dimensions.length === 0) out.push("_No rubric scores in these runs._");
  else {
    const rows = r.dimensions.map((d) => [
      cell(d.name),
      ...c.treatments.map((t) => dimCell(d.cells[t], r.distribution)),
      dimensionDelta(d),
    ]);
    rows.push([
      "**Overall**",
      ...c.treatments.map((t) => dimCell(r.overall.cells[t], r.distribution, false)),
      signed(r.overall.delta),
    ]);
    out.push(
      table(
        ["Dimension", ...c.treatments.map(cell), `Δ (${cell(candidate)}−${cell(baseline)})`],
        rows,
      ),
    );
  }
  out.push("", "### Dimension weights", "");
  out.push(
    r.weights.length === 0
      ? "_None._"
      : table(
          ["Dimension", "Weight"],
          r.weights.map((w) => [
            cell(w.name),
            w.weights.map((x) => x.toFixed(2)).join(" / ") || "—",
          ]),
        ),
  );
  return out.join("\n");
}

function runList(title: string, runs: ListedRun[], withIncluded: boolean, none: string): string {
  const header = [
    "Run",
    "Task",
    "Treatment",
    "Reason",
    "Evidence",
    "Report",
    ...(withIncluded ? ["Included?"] : []),
  ];
  const rows = runs.map((r) => [
    code(r.run_id),
    cell(r.task),
    cell(r.treatment),
    cell(`${r.reason_code}: ${r.reason}`),
    cell(r.evidence.join("; ") || "—"),
    r.report,
    ...(withIncluded ? [r.include_in_analysis ? "yes" : "no"] : []),
  ]);
  return [title, "", runs.length === 0 ? none : table(header, rows)].join("\n");
}

function sensitivity(c: Comparison): string {
  const rows = c.sensitivity.map((s) => [
    `pass rate — ${cell(s.treatment)}`,
    `${f2(s.raw.rate)} (${s.raw.c}/${s.raw.n})`,
    `${f2(s.analysis.rate)} (${s.analysis.c}/${s.analysis.n})`,
    signed(s.delta),
  ]);
  return [
    "## Raw vs analysis sensitivity",
    "",
    table(["Metric", "Raw", "Analysis", "Delta"], rows),
    "",
    "_Delta = analysis − raw: how much dropping excluded runs moves the pass rate._",
  ].join("\n");
}

function attribution(list: AttributionTreatment[]): string {
  const out = [
    "## Failure attribution",
    "",
    '_Failed checks of analysis-set runs (excluded runs are listed above), by bucket; identical items are collapsed as "x<count> <item>"._',
    "",
  ];
  if (list.every((a) => a.failures === 0)) {
    out.push("_No check failures across treatments._");
    return out.join("\n");
  }
  for (const a of list) {
    out.push(`### ${a.treatment} (${a.failures} failure(s))`, "");
    if (a.failures === 0) out.push("_None._");
    for (const b of a.buckets) {
      out.push(`- **${b.bucket}** (${b.count}):`);
      for (const i of b.items)
        out.push(`  - ${i.count > 1 ? `x${i.count} ` : ""}${i.text.replace(/\r?\n/g, " ")}`);
    }
    out.push("");
  }
  return out.join("\n").trimEnd();
}

const SEQ_STATUS = {
  running: "a round is still under way",
  decided: "it stopped because the band was decided",
  max_count: "it stopped at --max-count without a decision",
  stopped: "it was interrupted",
} as const;

function verdict(c: Comparison): string {
  const v = c.verdict;
  const { candidate, baseline } = c.roles;
  const foot = (q: typeof v.candidate_quality): string =>
    `\`${q.treatment}\` included ${q.analysis}/${q.raw} raw run(s), flagged ${q.flagged}, excluded ${q.excluded}`;
  const ci = (x: { low: number; high: number } | null): string =>
    x ? `[${signed(x.low)}, ${signed(x.high)}]` : "—";
  const e = v.exclusion;
  const noneExcluded = e.candidate.excluded === 0 && e.baseline.excluded === 0;
  const rn = v.runs_needed;
  const l = c.lift;
  const rows: string[][] = [
    [
      "Δ pass rate, analysis set",
      deltaText(v.delta, v.ci),
      `${v.method}${c.sequential ? ` (α spent by ${c.sequential.spending.replace("_", "–")})` : ""}; margin −${v.margin.toFixed(2)}`,
    ],
    [
      "Δ pass rate, worst case",
      deltaText(v.worst_case.delta, v.worst_case.ci),
      noneExcluded
        ? "no run was excluded, so the worst case is the analysis set"
        : `every excluded run counted as a failure (\`${candidate}\` ${f2(v.worst_case.candidate_rate)} vs \`${baseline}\` ${f2(v.worst_case.baseline_rate)}), same method`,
    ],
    [
      "Excluded runs",
      `\`${candidate}\` ${e.candidate.excluded}/${e.candidate.raw}, \`${baseline}\` ${e.baseline.excluded}/${e.baseline.raw}`,
      `Fisher exact p = ${pValue(e.fisher_p)}, gap ${e.gap === null ? "—" : percent(e.gap)}${e.imbalanced ? " — **imbalanced** (p < 0.1 or gap ≥ 10 points)" : ""}`,
    ],
    [
      "Lift, intent to treat",
      `${signed(l.itt.delta)} ${ci(l.itt.ci)}`,
      "all analysis-set runs (the Δ above)",
    ],
    [
      "Lift, per protocol",
      `${signed(l.per_protocol.delta)} ${ci(l.per_protocol.ci)}`,
      `only the ${l.per_protocol.runs} \`${candidate}\` run(s) that invoked its Skill, vs every \`${baseline}\` run`,
    ],
    [
      "Skill invocation rate",
      `\`${candidate}\` ${l.invocation_rate.candidate === null ? "— (installs no Skill)" : percent(l.invocation_rate.candidate)}, \`${baseline}\` ${l.invocation_rate.baseline === null ? "— (installs no Skill)" : percent(l.invocation_rate.baseline)}`,
      l.silent_bypass
        ? `⚠️ **silent bypass**: \`${candidate}\` invoked its Skill in fewer than half its runs, so the intent-to-treat Δ mostly measures runs without it`
        : "share of analysis-set runs that invoked one of the arm's own Skills",
    ],
    ...keyFileRows(l, candidate, baseline),
    ...adherenceRows(c),
    ["More runs needed", runsNeededValue(rn), rn.text],
  ];
  const out = [
    "## Verdict",
    "",
    v.headline,
    "",
    ...(c.health ? [c.health.line, ""] : []),
    v.noise,
    "",
    table(["", "Value", "Notes"], rows),
    "",
  ];
  if (c.noise_floor) out.push(renderNoiseFloor(c.noise_floor, v.delta), "");
  const sq = c.sequential;
  if (sq)
    out.push(
      `⏱️ **Sequential** (\`run --until-decided\`): ${sq.look} look(s), ${sq.count} of at most ${sq.max_count} repetitions per task and treatment; ${SEQ_STATUS[sq.status]}. Each look may spend only its share of α = ${sq.alpha} (${sq.spending.replace("_", "–")} spending), so this look's interval is at level ${levelText(1 - sq.alpha_look)}: looking after every round does not inflate false claims (docs/statistics.md §12).${sq.plan ? ` ${sq.plan}` : ""}`,
      "",
    );
  if (v.regressions.length > 0)
    out.push(
      `Rubric regressions (interval below −${c.settings.regression_tolerance.toFixed(2)}, Holm-corrected over the dimensions tested): ${v.regressions.map((r) => `**${r.dimension}** ${f2(r.candidate)} < ${f2(r.baseline)} (Δ ${signed(r.delta)})`).join("; ")}.`,
      "",
    );
  if (v.unresolved.length > 0)
    out.push(
      `Unresolved rubric dimensions (mean Δ below −${c.settings.regression_tolerance.toFixed(2)}, but the interval does not lie below it: not counted): ${v.unresolved.map((r) => `**${r.dimension}** Δ ${signed(r.delta)}${r.ci ? ` [${signed(r.ci.low)}, ${signed(r.ci.high)}]` : " (no spread to estimate)"}`).join("; ")}.`,
      "",
    );
  out.push(
    "_Bands: **improved** = the interval lies above 0; **regressed** = below 0, or a rubric dimension regresses (its own interval below −tolerance, Holm-corrected) while the pass rate shows no improvement; **non-inferior** = its lower end stays above −margin; otherwise **inconclusive** (also when the arms lose different shares of runs to exclusion, or more than half of an arm is excluded). docs/statistics.md §9._",
    "",
    `_Verdict uses analysis set: ${foot(v.candidate_quality)}; ${foot(v.baseline_quality)}._`,
  );
  if (v.distribution) out.push("", "_Distribution stats computed from ≥2 runs per treatment._");
  return out.join("\n");
}

function paired(c: Comparison): string {
  const p = c.paired;
  const v = c.verdict;
  const out = ["## Paired comparison (candidate vs baseline)", ""];
  out.push(
    `\`${p.candidate}\` vs \`${p.baseline}\` on the ${p.tasks.length} task(s) both have analysis-set runs for (overall metric).`,
    "",
  );
  if (p.tasks.length > 0) {
    const rows = [
      [
        `Pass rate — ${cell(p.candidate)} (candidate)`,
        f2(p.candidate_pass_rate),
        `${p.candidate_runs} run(s)`,
      ],
      [
        `Pass rate — ${cell(p.baseline)} (baseline)`,
        f2(p.baseline_pass_rate),
        `${p.baseline_runs} run(s)`,
      ],
      [
        "Δ pass rate (candidate − baseline)",
        deltaText(v.delta, v.ci),
        "the verdict's interval (see Verdict)",
      ],
      [
        "Sign test (per task)",
        p.sign_test ? `p = ${pValue(p.sign_test.p)}` : "—",
        p.sign_test
          ? `${p.sign_test.pos} better, ${p.sign_test.neg} worse, ${p.sign_test.ties} tied`
          : "—",
      ],
      [
        "McNemar exact (runs paired by rep)",
        p.mcnemar ? `p = ${pValue(p.mcnemar.p)}` : "—",
        p.mcnemar
          ? `${p.mcnemar.pairs} pairs: ${p.mcnemar.candidate_only} candidate-only, ${p.mcnemar.baseline_only} baseline-only passes. Caveat: reps of one task are not truly paired nor independent; prefer the sign test and the bootstrap`
          : "—",
      ],
      ...c.treatments.map((t) => [
        `Flip rate — ${cell(t)}`,
        f2(p.flip_rate[t]),
        "share of tasks (with ≥ 2 runs) whose runs disagree",
      ]),
      ["More runs needed", runsNeededValue(v.runs_needed), "as in the Verdict"],
    ];
    out.push(table(["Statistic", "Value", "Notes"], rows), "");
  }
  out.push(p.conclusion);
  return out.join("\n");
}

/** The verdict table's lift split by the key files' reading (none without declared key files). */
function keyFileRows(l: Comparison["lift"], candidate: string, baseline: string): string[][] {
  const k = l.key_file;
  if (k === undefined) return [];
  const ci = (x: { low: number; high: number } | null): string =>
    x ? `[${signed(x.low)}, ${signed(x.high)}]` : "—";
  const files = k.key_files.map((f) => `\`${f}\``).join(", ");
  return [
    [
      "Lift when key file read",
      `${signed(k.read.delta)} ${ci(k.read.ci)} (${k.read.runs} runs)`,
      `the \`${candidate}\` runs that read ${files}, vs every \`${baseline}\` run`,
    ],
    [
      "Lift when key file not read",
      `${signed(k.not_read.delta)} ${ci(k.not_read.ci)} (${k.not_read.runs} runs)`,
      `the \`${candidate}\` runs that did not, vs every \`${baseline}\` run`,
    ],
  ];
}

/** comparison_report.md from a Comparison (section order in docs/reports.md). Pure. */
export function renderComparisonMarkdown(c: Comparison): string {
  return [...comparisonMarkdownPieces(c, null)].join("");
}

/** An escape sequence's first character (util/safe-text.ts): what can run past a piece. */
// eslint-disable-next-line no-control-regex
const ESCAPE_START = /[\x1b\x9b]/;

/**
 * comparison_report.md a piece at a time, `note` (e.g. the unreadable runs) after its title:
 * the per-run source-evidence table, the one section that grows with the runs, comes
 * ROWS_PER_PIECE rows a piece (`rows` for `c.source_evidence`, when given). Pure; the pieces
 * joined are the text of renderComparisonMarkdown with the note put in by withNoteAfterTitle.
 */
export function* comparisonMarkdownPieces(
  c: Comparison,
  note: string | null,
  rows: SourceEvidenceSource = c.source_evidence,
): Generator<string> {
  const before = [
    header(c).join("\n"),
    byAgent(c),
    renderByModel(c),
    metricGuide(),
    dataQuality(c),
    runCounts(c),
    passK(c),
    taskOutcomes(c),
    spend(c),
    runtime(c),
    SOURCE_EVIDENCE_HEAD,
  ].filter((x): x is string => x !== null);
  const after = [
    rubric(c),
    runList("## Excluded runs", c.excluded_runs, false, "_No run was excluded._"),
    runList("## Flagged runs", c.flagged_runs, true, "_No run was flagged._"),
    sensitivity(c),
    attribution(c.attribution),
    renderArmIntegrity(c.arm_integrity),
    c.skill_use ? skillUseSection(c.skill_use) : null,
    verdict(c),
    paired(c),
    renderJudgeOverlay(c.judge_overlay, c.rubric.judge),
    renderVerbosity(c.judge),
    renderPairwise(c.judge),
  ].filter((x): x is string => x !== null);
  const head = before.join("\n\n");
  const tail = `\n\n${after.join("\n\n")}`;
  // Check names, messages and reasons come from validators and agents: no terminal escapes.
  // Stripped a piece at a time, unless an escape sequence starts somewhere: one of those may
  // run on past the end of its piece, so then the whole text is stripped at once.
  const escapes =
    ESCAPE_START.test(head) ||
    ESCAPE_START.test(tail) ||
    rows.some(
      (s) =>
        ESCAPE_START.test(s.run_id) ||
        ESCAPE_START.test(s.reason_code) ||
        ESCAPE_START.test(s.profile ?? "") ||
        s.skill_sources.some((x) => ESCAPE_START.test(x)) ||
        ESCAPE_START.test(s.agent_version ?? ""),
    );
  if (escapes) {
    const text = [head, ...sourceEvidenceRows(rows), tail].join("");
    yield withNoteAfterTitle(`${stripControls(text).trimEnd()}\n`, note);
    return;
  }
  yield withNoteAfterTitle(stripControls(head), note);
  for (const piece of sourceEvidenceRows(rows)) yield stripControls(piece);
  // The tail always holds the verdict section, so trimming it trims the whole text's end.
  yield `${stripControls(tail).trimEnd()}\n`;
}
