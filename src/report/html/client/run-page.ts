/** A run's page: facts, checks, rubric with the judge's scores, sample quality, transcript and files. */
import type { JudgeScore, RunPageData, Timeline, TimelineTool, WorkspaceFile } from "../wire.js";
import { destroyCharts } from "./chart.js";
import { append, DASH, f2, fint, h, num, secs, statusBadge, tableHead, usd } from "./dom.js";
import { embeddedRunPage, mainEl, runs, state } from "./state.js";

function fetchJson<T>(url: string): Promise<T> {
  return fetch(url).then((r) => {
    if (!r.ok) throw new Error(`HTTP ${r.status}`);
    return r.json() as Promise<T>;
  });
}

function loadRun(id: string): Promise<RunPageData | null> {
  const page = embeddedRunPage(id) ?? state.pageCache.get(id);
  if (page) return Promise.resolve(page);
  if (!state.served) return Promise.resolve(null);
  return fetchJson<RunPageData>(`/api/runs/${encodeURIComponent(id)}`).then((p) => {
    state.pageCache.set(id, p);
    return p;
  });
}

export function showRun(id: string): void {
  destroyCharts();
  const main = mainEl();
  main.textContent = "";
  document.title = `${id} \u2014 skillbench`;
  const back = h("a", { href: "#", id: "back", text: "\u2190 Overview" });
  main.appendChild(h("p", null, back));
  const holder = h("div", { id: "run-page", "data-run": id, text: "Loading\u2026" });
  main.appendChild(holder);
  back.focus();
  loadRun(id)
    .then((p) => {
      holder.textContent = "";
      if (p) {
        renderRun(holder, p);
        return;
      }
      const row = runs().find((r) => r.id === id);
      append(holder, [
        h("h2", { text: id }),
        row
          ? h("p", null, [
              statusBadge(row.status),
              ` first failed check: ${row.first_failure ?? "none"}`,
            ])
          : null,
        h("div", {
          class: "note",
          text: "This run\u2019s page is not embedded in this file (size budget). Run \u201cskillbench view DIR\u201d on the results folder to see it.",
        }),
      ]);
    })
    .catch((e: unknown) => {
      holder.textContent = `Could not load run ${id}: ${e instanceof Error ? e.message : String(e)}`;
    });
}

function checkList(items: string[], ok: boolean): HTMLUListElement {
  return h(
    "ul",
    { class: "checks" },
    items.map((c) =>
      h("li", { class: ok ? "pass" : "fail", text: `${ok ? "\u2713 " : "\u2717 "}${c}` }),
    ),
  );
}

function judgeCell(s: JudgeScore | undefined): HTMLTableCellElement {
  return h("td", {
    class: "num",
    title: s?.reason ?? null,
    text: s
      ? (s.score === null ? "N/A" : f2(s.score)) +
        (s.name !== s.rule_dimension ? ` (${s.name})` : "")
      : DASH,
  });
}

function rubricSection(p: RunPageData): HTMLElement[] {
  const r = p.report;
  const judge = p.judge;
  const out: HTMLElement[] = [];
  const byRule = new Map<string, JudgeScore>();
  for (const s of judge?.scores ?? []) byRule.set(s.rule_dimension, s);
  if (r.rubric) {
    const withJudge = judge !== null && judge.scores.length > 0;
    out.push(
      h("h3", {
        text: `Rubric (${r.rubric.profile}): weighted score ${f2(r.rubric.weighted_score)}`,
      }),
    );
    out.push(
      h("table", { id: "rubric" }, [
        tableHead([
          "Dimension",
          "Weight",
          "Rule score",
          ...(withJudge ? ["Judge score"] : []),
          "Checks behind the score",
          "Reason",
        ]),
        h(
          "tbody",
          null,
          r.rubric.dimensions.map((d) =>
            h("tr", { "data-dimension": d.name }, [
              h("td", { text: d.name }),
              h("td", { class: "num", text: f2(d.weight) }),
              h("td", { class: "num", text: d.score === null ? "N/A" : f2(d.score) }),
              withJudge ? judgeCell(byRule.get(d.name)) : null,
              h(
                "td",
                null,
                d.checks.length
                  ? [
                      checkList(
                        d.checks.filter((c) => c.passed).map((c) => c.name),
                        true,
                      ),
                      checkList(
                        d.checks.filter((c) => !c.passed).map((c) => c.name),
                        false,
                      ),
                    ]
                  : h("span", { class: "meta", text: DASH }),
              ),
              h("td", { text: d.reason }),
            ]),
          ),
        ),
      ]),
    );
  }
  if (judge) {
    const ruleNames = new Set(r.rubric?.dimensions.map((d) => d.name) ?? []);
    // Every judge score is listed here too (with the rule dimension it is set beside), so a
    // score is never only in a tooltip or lost when no rule dimension matches.
    out.push(
      h("h3", {
        id: "judge-heading",
        text: `LLM judge${judge.model ? ` (${judge.model})` : ""}: overlay, rule scores unchanged${judge.status && judge.status !== "enabled_and_successful" ? ` \u2014 ${judge.status}` : ""}`,
      }),
    );
    if (judge.reason) out.push(h("p", { class: "meta", text: judge.reason }));
    if (judge.scores.length)
      out.push(
        h("table", { id: "judge-scores" }, [
          tableHead(["Judge dimension", "Set beside rule dimension", "Score", "Reason"]),
          h(
            "tbody",
            null,
            judge.scores.map((s) =>
              h("tr", null, [
                h("td", { text: s.name }),
                h("td", { text: ruleNames.has(s.rule_dimension) ? s.rule_dimension : DASH }),
                h("td", { class: "num", text: s.score === null ? "N/A" : f2(s.score) }),
                h("td", { text: s.reason ?? "" }),
              ]),
            ),
          ),
        ]),
      );
  }
  return out;
}

function renderRun(holder: HTMLElement, p: RunPageData): void {
  const r = p.report;
  const es = r.events_summary;
  const scripted = state.data.experiment.scripted_label;
  const model =
    r.model_api || scripted
      ? `${r.model ?? "scripted"} (${scripted ?? "scripted model (offline): not a measurement of a real model"})`
      : (r.model ?? "CLI default");
  const sandbox = r.sandbox
    ? r.sandbox.kind === "local"
      ? (state.data.experiment.local_warning ?? r.sandbox.kind)
      : `${r.sandbox.kind} (${r.sandbox.why})`
    : "not recorded";
  const parts: Array<HTMLElement | HTMLElement[] | null> = [
    h("h2", null, [`${r.run_id} `, statusBadge(r.status)]),
    scripted ? h("div", { class: "note scripted-note", text: `\u26A0 ${scripted}` }) : null,
    r.sandbox?.kind === "local"
      ? h("div", {
          class: "note local-note",
          text: `\u26A0 No sandbox: ${state.data.experiment.local_warning ?? r.sandbox.why}`,
        })
      : null,
    h(
      "dl",
      { class: "facts" },
      (
        [
          ["Task / treatment / rep", `${r.task} / ${r.treatment} / ${r.rep}`],
          [
            "Outcome",
            `${r.outcome} (agent: ${r.agent_outcome})${r.outcome_detail ? ` \u2014 ${r.outcome_detail}` : ""}`,
          ],
          ["Exit code", r.exit_code === null ? DASH : String(r.exit_code)],
          [
            "Turns / tools / duration",
            es ? `${fint(es.num_turns)} / ${es.tool_calls} / ${secs(es.duration_seconds)}` : DASH,
          ],
          ["Tokens / cost", es ? `${fint(es.total_tokens)} / ${usd(es.total_cost_usd)}` : DASH],
          ["Skills invoked", es?.skills_invoked.length ? es.skills_invoked.join(", ") : "none"],
          ["Model / agent", `${model} / ${r.agent.name} ${r.agent.version ?? "?"}`],
          ["Sandbox", sandbox],
        ] as const
      ).flatMap(([dt, dd]) => [h("dt", { text: dt }), h("dd", { text: dd })]),
    ),
    h("h3", { text: `Failed checks (${r.checks_failed.length})` }),
    r.checks_failed.length
      ? checkList(r.checks_failed, false)
      : h("p", { class: "meta", text: "none" }),
    h("h3", { text: `Passed checks (${r.checks_passed.length})` }),
    r.checks_passed.length
      ? checkList(r.checks_passed, true)
      : h("p", { class: "meta", text: "none" }),
    rubricSection(p),
  ];
  const sq = r.sample_quality;
  parts.push(
    h("h3", { text: "Sample quality" }),
    h("p", null, [
      h("span", { class: `badge st-${sq.status}`, text: sq.status }),
      ` ${sq.reason_code} (confidence ${sq.confidence}): ${sq.reason}`,
    ]),
  );
  if (sq.evidence.length)
    parts.push(
      h(
        "ul",
        null,
        sq.evidence.map((e) => h("li", { text: e })),
      ),
    );
  if (r.failure_attribution.length)
    parts.push(
      h("h3", { text: "Failure attribution" }),
      h(
        "ul",
        null,
        r.failure_attribution.map((a) =>
          h("li", { text: `[${a.bucket}] ${a.check}: ${a.reason}` }),
        ),
      ),
    );
  parts.push(h("h2", { text: "Transcript" }), timeline(p.timeline));
  if (p.stderr_tail)
    parts.push(
      h("details", null, [
        h("summary", { text: "stderr (tail)" }),
        h("pre", { text: p.stderr_tail }),
      ]),
    );
  parts.push(
    h("h2", { text: `Files the agent left (${p.files.length}${p.files_truncated ? "+" : ""})` }),
    filesView(p),
  );
  append(holder, parts);
}

function toolView(t: TimelineTool): HTMLDetailsElement {
  const d = h(
    "details",
    { class: `tool${t.is_error ? " error" : ""}${t.skill ? " skill" : ""}` },
    h("summary", null, [
      t.is_error ? h("span", { class: "badge tag-error", text: "\u2717 error" }) : null,
      t.skill ? h("span", { class: "badge tag-skill", text: `\u2605 skill ${t.skill}` }) : null,
      ` ${t.name}${t.label ? ` \u2014 ${t.label}` : ""}`,
    ]),
  );
  let filled = false;
  d.addEventListener("toggle", () => {
    if (!d.open || filled) return;
    filled = true;
    append(d, [
      h("div", { class: "meta", style: "margin-left:8px", text: "Input" }),
      h("pre", { class: "tool-input", text: t.input }),
      h("div", {
        class: "meta",
        style: "margin-left:8px",
        text: t.is_error ? "Output (error)" : "Output",
      }),
      h("pre", { class: "tool-output", text: t.output ?? "(no result recorded)" }),
    ]);
  });
  return d;
}

function timeline(tl: Timeline): HTMLElement {
  if (!tl.turns.length) return h("p", { class: "meta", text: "No transcript recorded." });
  const box = h(
    "div",
    { id: "timeline", "data-source": tl.source },
    h("p", {
      class: "meta",
      text: `${tl.turns.length} turn(s), ${tl.tool_calls} tool call(s), ${tl.errors} error(s); from ${tl.source}${tl.malformed_lines ? `; ${tl.malformed_lines} malformed line(s)` : ""}`,
    }),
  );
  for (const turn of tl.turns) {
    const res = turn.result;
    const usage = res
      ? `tokens ${res.tokens ? `${fint(res.tokens.total)} (in ${fint(res.tokens.input)}, out ${fint(res.tokens.output)}, cache ${fint(res.tokens.cache_read + res.tokens.cache_creation)})` : DASH} \u00b7 cost ${usd(res.cost_usd)} \u00b7 ${num(res.duration_ms) ? `${(res.duration_ms / 1000).toFixed(1)}s` : DASH}`
      : null;
    const sec = h(
      "section",
      { class: "turn", "aria-label": `Turn ${turn.index}` },
      h("h3", null, [
        `Turn ${turn.index}`,
        res
          ? h("span", {
              class: `badge ${res.is_error ? "bad" : "ok"}`,
              text: `${res.is_error ? "\u2717 " : "\u2713 "}${res.subtype ?? "result"}`,
            })
          : h("span", { class: "badge mixed", text: "no result" }),
        usage ? h("span", { class: "usage", text: usage }) : null,
      ]),
    );
    if (turn.prompt)
      sec.appendChild(
        h("div", { class: "prompt" }, [
          h("strong", {
            text: `${turn.index === 1 ? "Prompt" : "Simulated reply"}${turn.prompt_source ? ` (${turn.prompt_source})` : ""}: `,
          }),
          turn.prompt,
        ]),
      );
    for (const s of turn.steps) {
      if (s.kind === "assistant") {
        for (const t of s.text)
          sec.appendChild(
            h("div", { class: "assistant-text" }, [h("strong", { text: "Assistant: " }), t]),
          );
        for (const t of s.tools) sec.appendChild(toolView(t));
        if (s.usage)
          sec.appendChild(
            h("div", {
              class: "usage",
              text: `step tokens: in ${fint(s.usage.input)}, out ${fint(s.usage.output)}${s.usage.cache_read ? `, cache read ${fint(s.usage.cache_read)}` : ""}`,
            }),
          );
      } else if (s.kind === "user") {
        const label = s.synthetic ? "Injected" : "User";
        sec.appendChild(
          s.text.length > 400
            ? h("details", { class: "user-text" }, [
                h("summary", { text: `${label} text (${s.text.length} chars)` }),
                s.text,
              ])
            : h("div", { class: "user-text", text: `${label}: ${s.text}` }),
        );
      } else {
        sec.appendChild(
          h("div", {
            class: `notice${s.error ? " error" : ""}`,
            role: s.error ? "note" : null,
            text: (s.error ? "\u26A0 " : "") + s.text,
          }),
        );
      }
    }
    if (res?.text)
      sec.appendChild(
        h("div", { class: "assistant-text" }, [h("strong", { text: "Result: " }), res.text]),
      );
    box.appendChild(sec);
  }
  return box;
}

function fileUrl(runId: string, f: WorkspaceFile): string {
  return `/api/runs/${encodeURIComponent(runId)}/files/${f.path.split("/").map(encodeURIComponent).join("/")}`;
}

function filesView(p: RunPageData): HTMLElement {
  if (!p.files.length)
    return h("p", { class: "meta", text: "No files (or the workspace was not kept)." });
  const viewer = h("div", { id: "file-view" });
  const show = (f: WorkspaceFile, text: string) => {
    viewer.textContent = "";
    append(viewer, [h("h3", { text: f.path }), h("pre", { text })]);
  };
  const list = h(
    "ul",
    { class: "files" },
    p.files.map((f) => {
      const b = h("button", {
        type: "button",
        "data-path": f.path,
        text: `${f.path} (${fint(f.size)} B)`,
      });
      b.addEventListener("click", () => {
        if (typeof f.content === "string") show(f, f.content);
        else if (state.served)
          fetch(fileUrl(p.run_id, f))
            .then((r) => r.text())
            .then(
              (t) => show(f, t),
              (e: unknown) =>
                show(f, `could not load: ${e instanceof Error ? e.message : String(e)}`),
            );
        else
          show(f, "(not embedded: binary or larger than the embedding limit; use skillbench view)");
      });
      return h("li", null, b);
    }),
  );
  return h("div", null, [list, viewer]);
}

export { fetchJson };
