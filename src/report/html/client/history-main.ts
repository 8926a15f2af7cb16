/**
 * The browser client of a Skill's history page (history/<skill>.html, docs/history.md; bundled
 * by scripts/build-client.mjs into its own script, beside the experiment pages' client). It reads
 * `#skillbench-history` and draws, with Chart.js (inlined before it, the global `Chart`): the
 * candidate's pass rate with its 95% interval per version, the change against the previous
 * version with its interval (the band), the cost per verdict per version, and the trigger
 * precision and recall per description; then the same figures as tables and the flaky-case
 * ledger.
 */
import type { HistoryPageData } from "../../../history/html-wire.js";
import { append, DASH, h, num, tableHead, usd } from "./dom.js";

interface Dataset {
  label: string;
  data: Array<number | [number, number] | null>;
  [option: string]: unknown;
}
interface ChartConfig {
  type: "bar" | "line";
  data: { labels: string[]; datasets: Dataset[] };
  options: Record<string, unknown>;
}
interface ChartStatic {
  new (canvas: HTMLCanvasElement, config: ChartConfig): unknown;
  defaults: {
    color: string;
    borderColor: string;
    animation: boolean;
    maintainAspectRatio: boolean;
  };
}
/** Chart.js's global (its UMD bundle is inlined before this script); only what is used is typed. */
function chartLib(): ChartStatic | null {
  const C: unknown = Reflect.get(globalThis, "Chart");
  // The experiment pages' client declares the same global with the types of its own charts.
  return typeof C === "function" ? (C as ChartStatic) : null;
}

function readData(): HistoryPageData {
  const el = document.getElementById("skillbench-history");
  if (!el?.textContent) throw new Error("the page has no #skillbench-history element");
  return JSON.parse(el.textContent) as HistoryPageData;
}

const data = readData();
const css = getComputedStyle(document.documentElement);
const colour = (v: string, fallback: string): string => css.getPropertyValue(v).trim() || fallback;
const ACCENT = colour("--accent", "#0969da");
const GOOD = colour("--pass-fg", "#116329");
const BAD = colour("--fail-fg", "#a40e26");
const MUTED = colour("--muted", "#57606a");

const pct = (x: number | null | undefined): string => (num(x) ? `${(100 * x).toFixed(0)}%` : DASH);
const signed = (x: number): string => `${x >= 0 ? "+" : "\u2212"}${Math.abs(x).toFixed(2)}`;

/** A chart in a figure with its caption and a sentence saying what it shows. */
function figure(id: string, caption: string, desc: string, config: ChartConfig): HTMLElement {
  const canvas = h("canvas", { id, role: "img", "aria-label": desc });
  const el = h("figure", null, [
    h("figcaption", { text: caption }),
    h("div", { class: "chart" }, canvas),
    h("div", { class: "meta", text: desc }),
  ]);
  draws.push(() => {
    const C = chartLib();
    if (!C) return;
    C.defaults.color = colour("--fg", "#222");
    C.defaults.borderColor = colour("--line", "#ccc");
    C.defaults.animation = false;
    C.defaults.maintainAspectRatio = false;
    new C(canvas, config);
  });
  return el;
}
const draws: Array<() => void> = [];

const labels = data.versions.map((v) => v.label);

/** Pass rate per version: the interval as a floating bar, the rate as a line over it. */
function passChart(): HTMLElement {
  return figure(
    "chart-pass",
    "Candidate pass rate per version",
    "The Skill's versions in the order first recorded; the line is the candidate arm's pass rate pooled over the version's experiments, the bar its Wilson 95% interval.",
    {
      type: "bar",
      data: {
        labels,
        datasets: [
          {
            type: "line",
            label: "pass rate",
            data: data.versions.map((v) => v.pass_rate),
            borderColor: ACCENT,
            backgroundColor: ACCENT,
            pointRadius: 5,
          },
          {
            label: "95% interval",
            data: data.versions.map((v): [number, number] | null =>
              v.interval ? [v.interval.low, v.interval.high] : null,
            ),
            backgroundColor: `${ACCENT}33`,
            borderColor: ACCENT,
            borderWidth: 1,
            barPercentage: 0.3,
          },
        ],
      },
      options: { scales: { y: { min: 0, max: 1, title: { display: true, text: "pass rate" } } } },
    },
  );
}

/** The change against the previous version: Δ with its interval, coloured by its reading. */
function changeChart(): HTMLElement | null {
  const rows = data.versions.filter((v) => v.change);
  if (rows.length === 0) return null;
  const tone = (r: string): string => (r === "better" ? GOOD : r === "worse" ? BAD : MUTED);
  return figure(
    "chart-change",
    "Change against the previous version",
    "Pass rate minus the previous version's with Newcombe's 95% interval: better when the interval lies above 0, worse below, else no clear change.",
    {
      type: "bar",
      data: {
        labels: rows.map((v) => v.label),
        datasets: [
          {
            type: "line",
            label: "\u0394 pass rate",
            data: rows.map((v) => v.change?.delta ?? null),
            borderColor: ACCENT,
            backgroundColor: ACCENT,
            showLine: false,
            pointRadius: 5,
          },
          {
            label: "95% interval",
            data: rows.map((v): [number, number] | null =>
              v.change ? [v.change.interval.low, v.change.interval.high] : null,
            ),
            backgroundColor: rows.map((v) => `${tone(v.change?.reading ?? "")}55`),
            borderColor: rows.map((v) => tone(v.change?.reading ?? "")),
            borderWidth: 1,
            barPercentage: 0.3,
          },
        ],
      },
      options: { scales: { y: { min: -1, max: 1, title: { display: true, text: "\u0394" } } } },
    },
  );
}

function costChart(): HTMLElement | null {
  if (!data.versions.some((v) => num(v.cost_per_verdict_usd))) return null;
  return figure(
    "chart-cost",
    "Cost per verdict per version",
    `The mean cost of an experiment of each version (as the agents reported it, in USD)${data.versions.some((v) => v.scripted) ? "; versions marked (scripted) ran against the scripted model, whose costs are not a real model's" : ""}.`,
    {
      type: "bar",
      data: {
        labels: data.versions.map((v) => (v.scripted ? `${v.label} (scripted)` : v.label)),
        datasets: [
          {
            label: "USD per verdict",
            data: data.versions.map((v) => v.cost_per_verdict_usd),
            backgroundColor: ACCENT,
          },
        ],
      },
      options: { scales: { y: { beginAtZero: true } }, plugins: { legend: { display: false } } },
    },
  );
}

function triggersChart(): HTMLElement | null {
  if (data.triggers.length === 0) return null;
  const short = (s: string): string => (s.length > 40 ? `${s.slice(0, 39)}\u2026` : s);
  return figure(
    "chart-triggers",
    "Trigger precision and recall per description",
    "Each recorded trigger evaluation's descriptions, in the order recorded.",
    {
      type: "bar",
      data: {
        labels: data.triggers.map((t) => short(t.description)),
        datasets: [
          {
            label: "precision",
            data: data.triggers.map((t) => t.precision),
            backgroundColor: ACCENT,
          },
          { label: "recall", data: data.triggers.map((t) => t.recall), backgroundColor: GOOD },
        ],
      },
      options: { scales: { y: { min: 0, max: 1 } } },
    },
  );
}

function versionsTable(): HTMLElement {
  return h("div", { class: "scroll" }, [
    h("table", { id: "versions" }, [
      tableHead(
        [
          "Version",
          "First recorded",
          "Experiments",
          "Candidate pass rate [95% CI]",
          "Band (against its baseline)",
          "Change vs previous version",
          "Cost per verdict",
        ],
        6,
      ),
      h(
        "tbody",
        null,
        data.versions.map((v) =>
          h("tr", null, [
            h("td", null, h("code", { text: v.label })),
            h("td", { text: v.first_recorded.slice(0, 19).replace("T", " ") }),
            h("td", { text: v.experiments }),
            h("td", {
              text:
                v.pass_rate === null
                  ? DASH
                  : `${v.passed}/${v.runs} = ${pct(v.pass_rate)}${v.interval ? ` [${pct(v.interval.low)}, ${pct(v.interval.high)}]` : ""}`,
            }),
            h("td", { text: v.band ?? DASH }),
            h("td", {
              text: v.change
                ? `${signed(v.change.delta)} [${signed(v.change.interval.low)}, ${signed(v.change.interval.high)}]: ${v.change.reading}`
                : DASH,
            }),
            h("td", {
              class: "num",
              text: `${usd(v.cost_per_verdict_usd)}${v.scripted ? " (scripted)" : ""}`,
            }),
          ]),
        ),
      ),
    ]),
  ]);
}

function flakyTable(): HTMLElement {
  if (data.flaky.length === 0)
    return h("p", {
      class: "meta",
      text: "No task flipped between experiments with the same task, Skill, agent and model.",
    });
  return h("div", { class: "scroll" }, [
    h("p", {
      class: "meta",
      text: "Tasks whose outcome flips between experiments in which the task, the Skill, the agent and the model are unchanged: they measure noise, not the Skill.",
    }),
    h("table", { id: "flaky" }, [
      tableHead(["Task", "Arm", "Agent", "Model", "Passed runs per experiment"]),
      h(
        "tbody",
        null,
        data.flaky.map((f) =>
          h("tr", null, [
            h("td", { text: f.task }),
            h("td", { text: f.treatment }),
            h("td", { text: f.agent ?? DASH }),
            h("td", { text: f.model ?? "(agent's default)" }),
            h("td", {
              title: f.outcomes.map((o) => o.experiment_id).join(", "),
              text: f.outcomes.map((o) => `${o.c}/${o.n}`).join(", "),
            }),
          ]),
        ),
      ),
    ]),
  ]);
}

function triggersTable(): HTMLElement {
  return h("table", { id: "triggers" }, [
    tableHead(["Experiment", "Description", "Precision", "Recall"], 2),
    h(
      "tbody",
      null,
      data.triggers.map((t) =>
        h("tr", null, [
          h("td", { text: t.experiment_id }),
          h("td", { text: t.description }),
          h("td", { class: "num", text: pct(t.precision) }),
          h("td", { class: "num", text: pct(t.recall) }),
        ]),
      ),
    ),
  ]);
}

function show(): void {
  const main = document.getElementById("main");
  if (!main) return;
  main.replaceChildren();
  document.body.insertBefore(
    h("header", { class: "top" }, [
      h("div", null, [
        h("h1", { text: `History of ${data.skill}` }),
        h("div", {
          class: "meta",
          text: `${data.versions.length} version(s) \u00b7 ${data.versions.reduce((a, v) => a + v.experiments, 0)} experiment(s) \u00b7 store ${data.store}`,
        }),
        data.versions.some((v) => v.scripted)
          ? h("div", {
              class: "note",
              id: "scripted-note",
              text: "\u26A0 Versions marked (scripted) were measured against skillbench\u2019s scripted model: their pass rates and costs are not a real model\u2019s.",
            })
          : null,
      ]),
    ]),
    main,
  );
  append(main, [
    h("h2", { text: "Trend" }),
    data.versions.length === 0
      ? h("p", {
          class: "meta",
          text: "No run, eval or calibrate experiment of this Skill is recorded.",
        })
      : [h("div", { class: "grid" }, [passChart(), changeChart(), costChart()]), versionsTable()],
    h("h2", { text: `Flaky cases (${data.flaky.length})` }),
    flakyTable(),
    data.triggers.length > 0
      ? [
          h("h2", { text: "Triggers" }),
          h("div", { class: "grid" }, triggersChart()),
          triggersTable(),
        ]
      : null,
  ]);
  for (const d of draws) d();
}

show();
document.documentElement.setAttribute("data-ready", "1");
