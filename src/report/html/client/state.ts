/** The page's state: the overview data, the served/static mode, and what the views remember. */
import { decodeRuns } from "../columns.js";
import type { RunPageData, RunRow, WireHtmlData } from "../wire.js";

export interface OverviewState {
  filter: string;
  status: "all" | "passed" | "failed" | "errored";
  x: "tokens" | "cost";
  y: "score" | "pass";
  scrollY: number;
  /** the run table's sort column (an index into its columns), or null for the report's order */
  sort: { column: number; desc: boolean } | null;
}

function readData(): WireHtmlData {
  const el = document.getElementById("skillbench-data");
  if (!el?.textContent) throw new Error("the page has no #skillbench-data element");
  return JSON.parse(el.textContent) as WireHtmlData;
}

export const state: {
  data: WireHtmlData;
  /** the run table, decoded from the data's columns */
  runs: RunRow[];
  served: boolean;
  pageCache: Map<string, RunPageData>;
  overview: OverviewState;
  /** redraw the current view (set by main.ts) */
  route: () => void;
} = {
  data: readData(),
  runs: [],
  served: false,
  pageCache: new Map(),
  overview: { filter: "", status: "all", x: "tokens", y: "score", scrollY: 0, sort: null },
  route: () => undefined,
};
state.served = state.data.mode === "served";
state.runs = decodeRuns(state.data.runs);

/** New overview data (the complete data after a quick first view, or a live refresh). */
export function setData(d: WireHtmlData): void {
  state.data = d;
  state.runs = decodeRuns(d.runs);
  state.pageCache.clear();
}

let embeddedPages: Record<string, RunPageData> | null = null;
/** The run pages embedded in a static file (#skillbench-run-pages), parsed the first time one is opened. */
export function embeddedRunPage(id: string): RunPageData | undefined {
  if (embeddedPages === null) {
    const el = document.getElementById("skillbench-run-pages");
    embeddedPages = el?.textContent
      ? (JSON.parse(el.textContent) as Record<string, RunPageData>)
      : {};
  }
  return state.data.run_pages[id] ?? embeddedPages[id];
}

export function runs(): RunRow[] {
  return state.runs;
}

export function mainEl(): HTMLElement {
  const m = document.getElementById("main");
  if (!m) throw new Error("the page has no #main element");
  return m;
}

const PALETTE = [
  "#0072B2",
  "#E69F00",
  "#009E73",
  "#CC79A7",
  "#56B4E9",
  "#D55E00",
  "#8c6d00",
  "#7f7f7f",
];
const SHAPES = [
  "circle",
  "triangle",
  "rect",
  "rectRot",
  "star",
  "crossRot",
  "rectRounded",
  "cross",
];
function tIndex(t: string): number {
  const i = state.data.treatments.indexOf(t);
  return i < 0 ? 0 : i;
}
export function tColor(t: string): string {
  return PALETTE[tIndex(t) % PALETTE.length] ?? "#000";
}
export function tShape(t: string): string {
  return SHAPES[tIndex(t) % SHAPES.length] ?? "circle";
}
export function runHref(id: string): string {
  return `#run/${encodeURIComponent(id)}`;
}
export function openRun(id: string): void {
  state.overview.scrollY = window.scrollY;
  location.hash = `run/${encodeURIComponent(id)}`;
}
