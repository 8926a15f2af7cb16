/**
 * The overview's charts, drawn with Chart.js (its UMD bundle is inlined before this script and
 * defines the global `Chart`). Only the parts of Chart.js's API the charts use are declared here.
 */
import { cssVar, DASH, h, mean, num } from "./dom.js";
import { runs, state, tColor, tShape } from "./state.js";

type Point = { x: number; y: number };
interface Dataset {
  label: string;
  data: Array<number | null | Point>;
  borderColor?: string;
  backgroundColor?: string | string[];
  [option: string]: unknown;
}
interface ChartInstance {
  ctx: CanvasRenderingContext2D;
  scales: Record<string, { getPixelForValue(v: number): number } | undefined>;
  chartArea: { top: number; bottom: number };
  data: { datasets: Dataset[] };
  isDatasetVisible(i: number): boolean;
  getDatasetMeta(i: number): { data: Point[] };
  destroy(): void;
}
interface Plugin {
  id: string;
  afterDatasetsDraw(
    chart: ChartInstance,
    args: unknown,
    opts?: { value?: number; label?: string },
  ): void;
}
interface ChartConfig {
  type: "line" | "bar" | "scatter";
  data: { labels?: string[]; datasets: Dataset[] };
  options: Record<string, unknown>;
  plugins?: Plugin[];
}
interface ChartStatic {
  new (canvas: HTMLCanvasElement, config: ChartConfig): ChartInstance;
  defaults: {
    color: string;
    borderColor: string;
    animation: boolean;
    maintainAspectRatio: boolean;
  };
}
declare global {
  var Chart: ChartStatic | undefined;
}

let charts: ChartInstance[] = [];
/** 95% intervals drawn as error bars, per dataset (by object identity). */
const intervalsOf = new WeakMap<Dataset, { iv: Array<[number, number] | null>; dodge: number }>();

export function destroyCharts(): void {
  for (const c of charts) c.destroy();
  charts = [];
}

function chartLib(): ChartStatic | null {
  const C = globalThis.Chart;
  if (!C) return null;
  C.defaults.color = cssVar("--fg") || "#222";
  C.defaults.borderColor = cssVar("--line") || "#ccc";
  C.defaults.animation = false;
  C.defaults.maintainAspectRatio = false;
  return C;
}

const intervalPlugin: Plugin = {
  id: "sbIntervals",
  afterDatasetsDraw(chart) {
    const ctx = chart.ctx;
    const y = chart.scales.y;
    if (!y) return;
    chart.data.datasets.forEach((ds, i) => {
      const info = intervalsOf.get(ds);
      if (!info || !chart.isDatasetVisible(i)) return;
      ctx.save();
      ctx.strokeStyle = typeof ds.borderColor === "string" ? ds.borderColor : "#000";
      ctx.lineWidth = 1.5;
      chart.getDatasetMeta(i).data.forEach((pt, j) => {
        const iv = info.iv[j];
        if (!iv) return;
        const x = pt.x + info.dodge;
        const y1 = y.getPixelForValue(iv[0]);
        const y2 = y.getPixelForValue(iv[1]);
        ctx.beginPath();
        ctx.moveTo(x, y1);
        ctx.lineTo(x, y2);
        ctx.moveTo(x - 4, y1);
        ctx.lineTo(x + 4, y1);
        ctx.moveTo(x - 4, y2);
        ctx.lineTo(x + 4, y2);
        ctx.stroke();
      });
      ctx.restore();
    });
  },
};

const thresholdPlugin: Plugin = {
  id: "sbThreshold",
  afterDatasetsDraw(chart, _args, opts) {
    const xs = chart.scales.x;
    if (!opts || !num(opts.value) || !xs) return;
    const x = xs.getPixelForValue(opts.value);
    const area = chart.chartArea;
    const ctx = chart.ctx;
    ctx.save();
    ctx.strokeStyle = cssVar("--fail-fg") || "#c00";
    ctx.setLineDash([6, 4]);
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.moveTo(x, area.top);
    ctx.lineTo(x, area.bottom);
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.fillStyle = ctx.strokeStyle;
    ctx.font = "12px sans-serif";
    ctx.fillText(opts.label ?? "", x + 4, area.top + 12);
    ctx.restore();
  },
};

export interface Figure {
  el: HTMLElement;
  draw: () => void;
}

function figure(
  id: string,
  caption: string,
  desc: string,
  controls?: HTMLElement,
  config?: () => ChartConfig,
): Figure {
  const canvas = h("canvas", { id, role: "img", "aria-label": desc });
  const el = h("figure", null, [
    h("figcaption", null, [h("span", { text: caption }), controls ?? null]),
    h("div", { class: "chart" }, canvas),
    h("div", { class: "meta", text: desc }),
  ]);
  return {
    el,
    draw: () => {
      const C = chartLib();
      if (C && config) charts.push(new C(canvas, config()));
    },
  };
}

export function passKChart(): Figure {
  const pk = state.data.pass_k;
  const labels = pk.ks.map((k) => `k=${k}`);
  const ds: Dataset[] = [];
  const rows = pk.rows.filter((r) => r.metric === "overall");
  rows.forEach((row, ri) => {
    const boot = pk.bootstrap.find((b) => b.metric === row.metric && b.treatment === row.treatment);
    const iv = (key: "pass_at_k" | "pass_hat_k_unbiased") =>
      pk.ks.map((k): [number, number] | null => {
        const v = boot?.[key][k];
        return v ? [v.low, v.high] : null;
      });
    const c = tColor(row.treatment);
    const dodge = (ri - (rows.length - 1) / 2) * 6;
    const common = {
      borderColor: c,
      backgroundColor: c,
      pointStyle: tShape(row.treatment),
      pointRadius: 5,
    };
    const at: Dataset = {
      label: `${row.treatment} pass@k`,
      data: pk.ks.map((k) => row.pass_at_k[k] ?? null),
      ...common,
    };
    const hat: Dataset = {
      label: `${row.treatment} pass^k`,
      data: pk.ks.map((k) => row.pass_hat_k_unbiased[k] ?? null),
      borderDash: [6, 4],
      ...common,
    };
    intervalsOf.set(at, { iv: iv("pass_at_k"), dodge: 0 });
    intervalsOf.set(hat, { iv: iv("pass_hat_k_unbiased"), dodge });
    ds.push(at, hat);
  });
  return figure(
    "chart-passk",
    "pass@k and pass^k by k",
    `Solid lines: pass@k (at least one of k attempts passes). Dashed: pass^k (all k pass, unbiased). Bars: 95% bootstrap intervals over tasks and runs${state.data.pending ? " (still being computed)." : "."}`,
    undefined,
    () => ({
      type: "line",
      data: { labels, datasets: ds },
      options: {
        scales: {
          x: { offset: true },
          y: { min: 0, max: 1, title: { display: true, text: "probability" } },
        },
        plugins: { legend: { labels: { usePointStyle: true } } },
      },
      plugins: [intervalPlugin],
    }),
  );
}

export function rubricChart(): Figure | null {
  const cmp = state.data.comparison;
  if (!cmp) return null;
  const dims = cmp.rubric.dimensions.filter((d) => num(d.delta));
  if (dims.length === 0) return null;
  const tol = cmp.settings.regression_tolerance;
  const labels = dims.map((d) => (d.regression ? `\u25BC ${d.name} (regression)` : d.name));
  const bad = cssVar("--fail-fg") || "#c00";
  const good = tColor(cmp.roles.candidate);
  return figure(
    "chart-rubric",
    `Rubric dimension deltas: ${cmp.roles.candidate} \u2212 ${cmp.roles.baseline}`,
    `Candidate mean minus baseline mean per dimension; the dashed line is \u2212${tol} (below it is a regression, also marked \u25BC in the label).`,
    undefined,
    () => ({
      type: "bar",
      data: {
        labels,
        datasets: [
          {
            label: "delta",
            data: dims.map((d) => d.delta),
            backgroundColor: dims.map((d) => (d.regression ? bad : good)),
          },
        ],
      },
      options: {
        indexAxis: "y",
        scales: { x: { suggestedMin: -0.2, suggestedMax: 0.2 } },
        plugins: {
          legend: { display: false },
          sbThreshold: { value: -tol, label: `\u2212${tol}` },
        },
      },
      plugins: [thresholdPlugin],
    }),
  );
}

export function frontierChart(): Figure {
  const ov = state.overview;
  const xSel = h("select", { "aria-label": "x axis" }, [
    h("option", { value: "tokens", text: "tokens per run", selected: ov.x === "tokens" }),
    h("option", { value: "cost", text: "cost per run", selected: ov.x === "cost" }),
  ]);
  xSel.addEventListener("change", () => {
    ov.x = xSel.value === "cost" ? "cost" : "tokens";
    state.route();
  });
  const ySel = h("select", { "aria-label": "y axis" }, [
    h("option", { value: "score", text: "weighted score", selected: ov.y === "score" }),
    h("option", { value: "pass", text: "pass rate", selected: ov.y === "pass" }),
  ]);
  ySel.addEventListener("change", () => {
    ov.y = ySel.value === "pass" ? "pass" : "score";
    state.route();
  });
  const ds: Dataset[] = [];
  for (const t of state.data.treatments) {
    const mine = runs().filter((r) => r.treatment === t && r.quality !== "excluded");
    const c = tColor(t);
    const xOf = (r: (typeof mine)[number]) => (ov.x === "cost" ? r.cost_usd : r.tokens);
    const yOf = (r: (typeof mine)[number]) =>
      ov.y === "pass" ? (r.status === "passed" ? 1 : 0) : r.weighted_score;
    const pts: Point[] = [];
    for (const r of mine) {
      const x = xOf(r);
      const y = yOf(r);
      if (num(x) && num(y)) pts.push({ x, y });
    }
    if (ov.y === "score")
      ds.push({
        label: `${t} runs`,
        data: pts,
        borderColor: c,
        backgroundColor: `${c}55`,
        pointStyle: tShape(t),
        pointRadius: 3,
        // The points are already {x, y} numbers: Chart.js need not parse (copy) 10,000 of them.
        parsing: false,
      });
    const mx = mean(mine.map(xOf));
    const my = mean(mine.map(yOf));
    if (num(mx) && num(my))
      ds.push({
        label: `${t} mean`,
        data: [{ x: mx, y: my }],
        borderColor: c,
        backgroundColor: c,
        pointStyle: tShape(t),
        pointRadius: 9,
        borderWidth: 2,
      });
  }
  const optionText = (s: HTMLSelectElement) => s.options[s.selectedIndex]?.text ?? DASH;
  return figure(
    "chart-frontier",
    "Quality vs cost per run",
    "Each treatment: its runs (small) and their mean (large); up and to the left is better. Excluded runs are left out.",
    h("span", { class: "toolbar" }, [xSel, ySel]),
    () => ({
      type: "scatter",
      data: { datasets: ds },
      options: {
        scales: {
          x: { title: { display: true, text: optionText(xSel) } },
          y: { min: 0, max: 1.05, title: { display: true, text: optionText(ySel) } },
        },
        plugins: { legend: { labels: { usePointStyle: true } } },
      },
    }),
  );
}

export function qualityChart(): Figure {
  const dq = state.data.data_quality;
  const kinds = [
    ["included", "#009E73"],
    ["flagged", "#E69F00"],
    ["excluded", "#7f7f7f"],
  ] as const;
  const ds: Dataset[] = kinds.map(([k, colour]) => ({
    label: k,
    data: dq.map((q) => q[k]),
    backgroundColor: colour,
  }));
  return figure(
    "chart-quality",
    "Sample quality by treatment",
    "Runs per treatment by sample quality; excluded runs are infrastructure noise or harness errors and are left out of the statistics.",
    undefined,
    () => ({
      type: "bar",
      data: { labels: dq.map((q) => q.treatment), datasets: ds },
      options: {
        scales: {
          x: { stacked: true },
          y: { stacked: true, beginAtZero: true, ticks: { precision: 0 } },
        },
      },
    }),
  );
}
