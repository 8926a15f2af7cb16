/** The overview: verdict, treatment table, charts, outcome matrix and the run table. */
import type { RunRow } from "../wire.js";
import { destroyCharts, frontierChart, passKChart, qualityChart, rubricChart } from "./chart.js";
import { append, DASH, f2, fint, h, mean, num, pct, SYM, tableHead, usd } from "./dom.js";
import { pairwisePairs } from "./pairs.js";
import { runsTable } from "./runs-table.js";
import { mainEl, runHref, runs, state } from "./state.js";

/** Rep links shown per matrix cell; the rest are reached through the run table's filter. */
const MAX_REP_LINKS = 12;

function treatmentTable(): HTMLElement {
  const rows = state.data.pass_k.rows.filter((r) => r.metric === "overall");
  const byT = new Map<string, RunRow[]>();
  for (const r of runs()) {
    const list = byT.get(r.treatment);
    if (list) list.push(r);
    else byT.set(r.treatment, [r]);
  }
  return h("table", { class: "treatments" }, [
    tableHead(
      [
        "Treatment",
        "Runs",
        "Passed c/n",
        "Pass rate [95% Wilson]",
        "Mean weighted score",
        "Mean tokens",
        "Mean cost",
        "Excluded",
      ],
      1,
    ),
    h(
      "tbody",
      null,
      state.data.treatments.map((t) => {
        const mine = byT.get(t) ?? [];
        const row = rows.find((r) => r.treatment === t);
        const q = state.data.data_quality.find((x) => x.treatment === t);
        return h("tr", null, [
          h("td", { text: t }),
          h("td", { class: "num", text: mine.length }),
          h("td", { class: "num", text: row ? `${row.c}/${row.n}` : DASH }),
          h("td", {
            class: "num",
            text: row?.wilson95
              ? `${f2(row.pass_rate)} [${f2(row.wilson95.low)}, ${f2(row.wilson95.high)}]`
              : DASH,
          }),
          h("td", { class: "num", text: f2(mean(mine.map((r) => r.weighted_score))) }),
          h("td", { class: "num", text: fint(mean(mine.map((r) => r.tokens))) }),
          h("td", { class: "num", text: usd(mean(mine.map((r) => r.cost_usd))) }),
          h("td", { class: "num", text: q ? q.excluded : 0 }),
        ]);
      }),
    ),
  ]);
}

function showInRunTable(filter: string): void {
  state.overview.filter = filter;
  state.overview.status = "all";
  const input = document.getElementById("runs-filter");
  if (input instanceof HTMLInputElement) {
    input.value = filter;
    input.dispatchEvent(new Event("input"));
    input.scrollIntoView({ block: "start" });
  }
}

function matrixTable(): HTMLElement {
  const byCell = new Map<string, RunRow[]>();
  for (const r of runs()) {
    const k = `${r.task}\u0000${r.treatment}`;
    const list = byCell.get(k);
    if (list) list.push(r);
    else byCell.set(k, [r]);
  }
  const treatments = state.data.treatments;
  return h(
    "div",
    { class: "scroll" },
    h("table", { class: "matrix", id: "outcome-matrix" }, [
      h("caption", {
        class: "sr-only",
        text: "Task by treatment outcomes: passed runs over analysis-set runs",
      }),
      tableHead(["Task", ...treatments]),
      h(
        "tbody",
        null,
        state.data.task_outcomes.map((row) =>
          h("tr", null, [
            h("th", { scope: "row", text: row.task }),
            ...treatments.map((t) => {
              const c = row.cells[t];
              const cellRuns = byCell.get(`${row.task}\u0000${t}`) ?? [];
              if (!c)
                return h("td", {
                  class: "cell",
                  "data-task": row.task,
                  "data-treatment": t,
                  text: "no data",
                });
              const cls = c.c === c.n ? "ok" : c.c === 0 ? "bad" : "mixed";
              const sym = c.c === c.n ? "\u2713" : c.c === 0 ? "\u2717" : "\u25D0";
              const shown = cellRuns.slice(0, MAX_REP_LINKS);
              const more = cellRuns.length - shown.length;
              const moreBtn =
                more > 0
                  ? h("button", { type: "button", class: "more", text: `+${more} more` })
                  : null;
              moreBtn?.addEventListener("click", () => showInRunTable(`${row.task} ${t}`));
              return h(
                "td",
                {
                  class: `cell ${cls}`,
                  "data-task": row.task,
                  "data-treatment": t,
                  "data-cn": `${c.c}/${c.n}`,
                },
                [
                  h("span", { class: "cn", text: `${sym} ${c.c}/${c.n}` }),
                  c.flip
                    ? h("span", {
                        class: "flip",
                        title: "runs disagree: some passed, some failed",
                        text: "flip",
                      })
                    : null,
                  h("div", { class: "reps" }, [
                    ...shown.map((r) =>
                      h("a", {
                        href: runHref(r.id),
                        title: `${r.id}: ${r.status}`,
                        text: `r${r.rep} ${SYM[r.status] ?? ""}`,
                      }),
                    ),
                    moreBtn,
                  ]),
                ],
              );
            }),
          ]),
        ),
      ),
    ]),
  );
}

function reasonTable(): HTMLElement[] {
  const flagged = state.data.reason_counts.filter((r) => r.status !== "included");
  if (flagged.length === 0) return [];
  return [
    h("h3", { text: "Flagged and excluded runs by reason" }),
    h("table", null, [
      tableHead(["Treatment", "Status", "Reason", "Runs"]),
      h(
        "tbody",
        null,
        flagged.map((r) =>
          h("tr", null, [
            h("td", { text: r.treatment }),
            h("td", null, h("span", { class: `badge st-${r.status}`, text: r.status })),
            h("td", { text: r.reason_code }),
            h("td", { class: "num", text: r.count }),
          ]),
        ),
      ),
    ]),
  ];
}

/** +0.20 / −0.05 style, as the markdown's `signed` writes the decision's numbers. */
function signedText(x: number): string {
  const t = x.toFixed(2);
  return t === "-0.00" || !t.startsWith("-") ? `+${t.replace(/^-/, "")}` : t;
}

function plain(markdown: string): string {
  return markdown.replace(/\*\*|`/g, "");
}

/** What the answer cost (docs/cost.md): absent in comparisons written before it. */
function costFacts(
  c: NonNullable<typeof state.data.comparison>["cost_of_answer"],
): Array<[string, string, Record<string, string | null>?]> {
  if (!c) return [];
  const signedUsd = (x: number): string => (x < 0 ? `\u2212${usd(-x)}` : `+${usd(x)}`);
  return [
    [
      "Extra cost per extra passed run",
      c.per_extra_pass_usd === null
        ? `n/a: ${c.na ?? "not known"}`
        : `${signedUsd(c.per_extra_pass_usd)} (${c.candidate} over ${c.baseline})`,
      { id: "cost-per-pass" },
    ],
    [
      "Cost of this experiment",
      c.experiment_usd === null
        ? "no run reported a cost"
        : `${usd(c.experiment_usd)} over all ${c.runs} runs${c.experiment_tokens === null ? "" : `, ${fint(c.experiment_tokens)} tokens`}${c.unpriced_runs > 0 ? ` (${c.unpriced_runs} reported no cost)` : ""}`,
      { id: "experiment-cost" },
    ],
    ...(c.judge
      ? [
          [
            "Cost of the LLM judge",
            `${c.judge.calls} call(s) on ${c.judge.runs} run(s)${c.judge.tokens === null ? "" : `, ${fint(c.judge.tokens)} tokens`}, ${c.judge.usd === null ? "no dollars reported (an HTTP judge reports tokens only)" : usd(c.judge.usd)}; not in the runs' figures`,
            { id: "judge-cost" },
          ] as [string, string, Record<string, string | null>],
        ]
      : []),
  ];
}

function comparisonBlock(): HTMLElement[] {
  const cmp = state.data.comparison;
  if (!cmp) return [];
  const out: HTMLElement[] = [
    h("h2", { text: `Verdict: ${cmp.roles.candidate} vs ${cmp.roles.baseline}` }),
    h("div", { class: "verdict", id: "verdict", text: plain(cmp.verdict.headline) }),
  ];
  // The preflight's task health: what was left out, how many tasks a reference solution verified.
  if (cmp.health) out.push(h("div", { class: "note", id: "health", text: cmp.health.line }));
  if (cmp.warnings.length)
    out.push(
      h(
        "div",
        { class: "note" },
        cmp.warnings.map((w) => h("div", { text: `\u26A0 ${w.message}` })),
      ),
    );
  if (state.data.view !== "comparison") return out;
  const p = cmp.paired;
  const v = cmp.verdict;
  const [cand, base] = [cmp.roles.candidate, cmp.roles.baseline];
  const facts: Array<[string, string, Record<string, string | null>?]> = [
    ["Pass rate", `${cand} ${pct(p.candidate_pass_rate)} vs ${base} ${pct(p.baseline_pass_rate)}`],
    [
      "\u0394 pass rate",
      v.delta !== null && v.ci
        ? `${signedText(v.delta)} [${signedText(v.ci.low)}, ${signedText(v.ci.high)}] (${v.method})`
        : DASH,
      { id: "delta" },
    ],
    [
      "Sign test",
      p.sign_test
        ? `+${p.sign_test.pos} \u2212${p.sign_test.neg} =${p.sign_test.ties}, p=${p.sign_test.p.toFixed(3)}`
        : DASH,
    ],
    [
      "McNemar",
      p.mcnemar
        ? `${p.mcnemar.candidate_only} candidate-only, ${p.mcnemar.baseline_only} baseline-only, p=${p.mcnemar.p.toFixed(3)}`
        : DASH,
    ],
    [
      "Worst case \u0394 (excluded = failed)",
      v.worst_case.delta !== null
        ? signedText(v.worst_case.delta) +
          (v.worst_case.ci
            ? ` [${signedText(v.worst_case.ci.low)}, ${signedText(v.worst_case.ci.high)}]`
            : "")
        : DASH,
      { id: "worst-case" },
    ],
    [
      "Excluded runs",
      `${cand} ${v.exclusion.candidate.excluded}/${v.exclusion.candidate.raw}, ${base} ${v.exclusion.baseline.excluded}/${v.exclusion.baseline.raw} (Fisher p=${v.exclusion.fisher_p.toFixed(3)}${v.exclusion.imbalanced ? ", imbalanced" : ""})`,
    ],
    [
      "Lift per protocol (Skill fired)",
      cmp.lift.per_protocol.delta !== null
        ? `${f2(cmp.lift.per_protocol.delta)} over ${cmp.lift.per_protocol.runs} run(s)`
        : DASH,
    ],
    ...(cmp.lift.key_file
      ? (
          [
            ["Lift when key file read", cmp.lift.key_file.read],
            ["Lift when key file not read", cmp.lift.key_file.not_read],
          ] as const
        ).map(([label, d]): [string, string] => [
          label,
          d.delta !== null ? `${f2(d.delta)} over ${d.runs} run(s)` : DASH,
        ])
      : []),
    [
      "Skill invocation rate",
      `${cand} ${pct(cmp.lift.invocation_rate.candidate)}, ${base} ${pct(cmp.lift.invocation_rate.baseline)}${cmp.lift.silent_bypass ? " \u2014 silent bypass: the Skill fired in fewer than half the runs" : ""}`,
      { class: cmp.lift.silent_bypass ? "bad" : null },
    ],
    ["More runs needed", plain(v.runs_needed.text), { id: "runs-needed" }],
    ...costFacts(cmp.cost_of_answer),
  ];
  out.push(h("p", { id: "conclusion", text: plain(p.conclusion) }));
  out.push(
    h(
      "dl",
      { class: "facts" },
      facts.flatMap(([dt, dd, attrs]) => [h("dt", { text: dt }), h("dd", { ...attrs, text: dd })]),
    ),
  );
  const tr = cmp.treatments;
  out.push(
    h("h3", { text: `Rubric dimensions (mean${cmp.rubric.distribution ? " \u00b1 sd" : ""})` }),
  );
  const dimRows = [
    ...cmp.rubric.dimensions,
    {
      name: "weighted_score",
      cells: cmp.rubric.overall.cells,
      delta: cmp.rubric.overall.delta,
      regression: false,
    },
  ];
  out.push(
    h(
      "div",
      { class: "scroll" },
      h("table", { id: "rubric-table" }, [
        h(
          "thead",
          null,
          h("tr", null, [
            h("th", { text: "Dimension" }),
            ...tr.map((t) => h("th", { class: "num", text: t })),
            h("th", { class: "num", text: "\u0394" }),
            h("th", { text: "Regression" }),
          ]),
        ),
        h(
          "tbody",
          null,
          dimRows.map((d) =>
            h("tr", null, [
              h("td", { text: d.name }),
              ...tr.map((t) => {
                const c = d.cells[t];
                return h("td", {
                  class: "num",
                  text: c ? f2(c.mean) + (num(c.stdev) ? ` \u00b1 ${f2(c.stdev)}` : "") : "/",
                });
              }),
              h("td", { class: "num", text: f2(d.delta) }),
              h("td", {
                class: d.regression ? "bad" : null,
                text: d.regression ? "\u25BC yes" : "no",
              }),
            ]),
          ),
        ),
      ]),
    ),
  );
  const jo = cmp.judge_overlay;
  if (jo.length) {
    out.push(
      h("h3", { text: "LLM-judge overlay (rule vs judge)" }),
      h("p", {
        class: "meta",
        text: "The judge never changes rule scores; gap = judge \u2212 rule.",
      }),
      h(
        "div",
        { class: "scroll" },
        h("table", { id: "judge-overlay" }, [
          tableHead(["Dimension", "Treatment", "Rule", "Judge", "Gap", "Runs judged"]),
          h(
            "tbody",
            null,
            jo.map((row) =>
              h("tr", null, [
                h("td", {
                  text:
                    row.dimension +
                    (row.rule_dimension && row.rule_dimension !== row.dimension
                      ? ` (rule: ${row.rule_dimension})`
                      : ""),
                }),
                h("td", { text: row.treatment }),
                h("td", { class: "num", text: f2(row.rule) }),
                h("td", { class: "num", text: f2(row.judge) }),
                h("td", { class: "num", text: f2(row.gap) }),
                h("td", { class: "num", text: String(row.runs_judged) }),
              ]),
            ),
          ),
        ]),
      ),
    );
  }
  const pw = cmp.judge?.pairwise;
  if (pw) {
    const st = pw.sign_test;
    const ci = pw.win_rate_ci ? ` [${f2(pw.win_rate_ci.low)}, ${f2(pw.win_rate_ci.high)}]` : "";
    out.push(
      h("h3", { text: "Pairwise judge (positions swapped)" }),
      h("p", {
        class: "meta",
        text: `${pw.candidate} against ${pw.baseline}, judged by ${pw.model} twice per pair with positions swapped; a preference counts only when both orders agree.`,
      }),
      h("table", { id: "pairwise" }, [
        tableHead(["Pairs", "Wins", "Losses", "Ties", "Position bias", "Win rate", "Sign test"]),
        h("tbody", null, [
          h("tr", null, [
            h("td", { class: "num", text: String(pw.pairs) }),
            h("td", { class: "num", text: String(pw.wins) }),
            h("td", { class: "num", text: String(pw.losses) }),
            h("td", { class: "num", text: String(pw.ties) }),
            h("td", { class: "num", text: f2(pw.position_bias) }),
            h("td", { class: "num", text: `${f2(pw.win_rate)}${ci}` }),
            h("td", {
              text: `${st.tasks_better} better, ${st.tasks_worse} worse; p = ${st.p === null ? "\u2014" : st.p.toFixed(3)}`,
            }),
          ]),
        ]),
      ]),
    );
  }
  // The viewer: the pairwise judge's pairs, fetched from the folder's pairwise.json.
  const pairs = pairwisePairs();
  if (pairs) out.push(pairs);
  return out;
}

export function showOverview(): void {
  const data = state.data;
  const main = mainEl();
  destroyCharts();
  main.textContent = "";
  document.title = `${data.view === "comparison" ? "Comparison" : "Summary"} \u2014 ${data.experiment.id ?? "skillbench"}`;
  const parts: Array<HTMLElement | HTMLElement[]> = [];
  const problem = data.problems[0];
  if (problem)
    parts.push(
      h("div", {
        class: "note",
        text: `${data.problems.length} report(s) could not be read, e.g. ${problem.file}: ${problem.message}`,
      }),
    );
  if (!state.served && data.run_pages_omitted > 0)
    parts.push(
      h("div", {
        class: "note",
        id: "omitted-note",
        text: `${data.run_pages_omitted} run page(s) are not embedded in this file to keep it small; open the folder with \u201cskillbench view DIR\u201d to see every run.`,
      }),
    );
  if (data.pending)
    parts.push(
      h("div", {
        class: "note",
        id: "pending-note",
        role: "status",
        text: "Computing the comparison and the bootstrap intervals\u2026 they appear here when ready.",
      }),
    );
  if (data.view === "comparison") parts.push(comparisonBlock());
  parts.push(h("h2", { text: "Treatments" }), treatmentTable());
  if (data.view !== "comparison" && data.comparison) parts.push(comparisonBlock());
  if (data.pass_k.warning)
    parts.push(h("div", { class: "note", text: data.pass_k.warning.replace(/[_`]/g, "") }));
  const figs = [passKChart(), rubricChart(), frontierChart(), qualityChart()].filter(
    (f) => f !== null,
  );
  parts.push(
    h("h2", { text: "Charts" }),
    h(
      "div",
      { class: "grid" },
      figs.map((f) => f.el),
    ),
  );
  // Draw the charts before the large tables are in the document: Chart.js reads computed
  // styles, and each read would otherwise recalculate the styles of every table row.
  append(main, parts);
  for (const f of figs) f.draw();
  append(main, [
    h("h2", { text: "Task \u00d7 treatment outcomes" }),
    h("p", {
      class: "meta",
      text: "\u2713 all passed, \u2717 none passed, \u25D0 mixed (with a flip flag); c/n counts analysis-set runs. Links open each run.",
    }),
    matrixTable(),
    ...reasonTable(),
    h("h2", { text: "Runs" }),
    runsTable(),
  ]);
  window.scrollTo(0, state.overview.scrollY);
}
