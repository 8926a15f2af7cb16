/**
 * The browser client of the HTML pages (bundled by scripts/build-client.mjs and inlined into
 * summary.html, comparison_report.html and the viewer's pages). It reads the JSON element
 * `#skillbench-data`, draws the overview and the run pages, and in served mode fetches run
 * pages from /api/runs/<id> and listens to /api/events for live refresh.
 */
import type { WireHtmlData } from "../wire.js";
import { h, readCssVars } from "./dom.js";
import { showOverview } from "./overview.js";
import { fetchJson, showRun } from "./run-page.js";
import { mainEl, runs, setData, state } from "./state.js";

type Theme = "auto" | "dark" | "light";
const root = document.documentElement;

function currentTheme(): Theme {
  const t = root.getAttribute("data-theme");
  return t === "dark" || t === "light" ? t : "auto";
}
function setTheme(t: Theme): void {
  if (t === "auto") root.removeAttribute("data-theme");
  else root.setAttribute("data-theme", t);
  try {
    localStorage.setItem("skillbench-theme", t);
  } catch {
    // file:// pages may refuse storage
  }
  const b = document.getElementById("theme-toggle");
  if (b) b.textContent = `Theme: ${t}`;
  route();
}
try {
  const saved = localStorage.getItem("skillbench-theme");
  if (saved === "dark" || saved === "light") root.setAttribute("data-theme", saved);
} catch {
  // ignore
}

function header(): HTMLElement {
  const d = state.data;
  const e = d.experiment;
  const title = d.view === "comparison" ? "Skillbench comparison report" : "Skillbench summary";
  let other: HTMLElement | null = null;
  if (d.view === "comparison")
    other = h("a", { href: state.served ? "/" : "summary.html", text: "Summary" });
  else if (d.comparison)
    other = h("a", {
      href: state.served ? "/comparison" : "comparison_report.html",
      text: "Comparison report",
    });
  const live = state.served
    ? h("span", {
        id: "live",
        class: "badge st-included",
        text: e.completed_at ? "complete" : "live: run in progress",
      })
    : null;
  const model = e.scripted_label
    ? `${e.model ?? "scripted"} (${e.scripted_label})`
    : (e.model ?? "CLI default");
  const agents = e.agents.length ? e.agents.join(", ") : "agent";
  const toggle = h("button", {
    id: "theme-toggle",
    type: "button",
    "aria-label": "Switch colour theme",
    text: `Theme: ${currentTheme()}`,
  });
  toggle.addEventListener("click", () => {
    const order: Theme[] = ["auto", "dark", "light"];
    setTheme(order[(order.indexOf(currentTheme()) + 1) % 3] ?? "auto");
  });
  return h("header", { class: "top" }, [
    h("div", null, [
      h("h1", { text: title }),
      h("div", {
        class: "meta",
        text: `Experiment ${e.id ?? "\u2014"} \u00b7 ${runs().length} runs \u00b7 ${agents} ${e.agent_version ?? "?"} \u00b7 model ${model}`,
      }),
      e.scripted_label
        ? h("div", {
            class: "note",
            id: "scripted-note",
            text: `\u26A0 ${e.scripted_label}. Every run was played by skillbench\u2019s scripted model server.`,
          })
        : null,
      e.local_warning
        ? h("div", {
            class: "note",
            id: "local-note",
            text: `\u26A0 ${e.local_runs} run(s) without a sandbox: ${e.local_warning}.`,
          })
        : null,
      ...(e.reused ?? []).map((line) =>
        h("div", { class: "note reused-note", text: `\u267B ${line} (not run again).` }),
      ),
      e.budget_note ? h("div", { class: "note", id: "budget-note", text: e.budget_note }) : null,
      ...(e.judge_notes ?? []).map((n) =>
        h("div", { class: "note judge-note", text: `\u26A0 ${n}` }),
      ),
      ...(e.skill_use ?? []).map((n) => h("div", { class: "note skill-use", text: n })),
      ...(e.token_kinds ?? []).map((n) => h("div", { class: "note token-kinds", text: n })),
    ]),
    h("nav", { "aria-label": "Report navigation" }, [
      h("a", { href: "#", text: "Overview" }),
      other,
      e.history_page
        ? h("a", {
            id: "history-link",
            href: e.history_page.href,
            text: `History of ${e.history_page.skill}`,
          })
        : null,
      live,
      toggle,
    ]),
  ]);
}

function route(): void {
  readCssVars();
  const m = /^#run\/(.+)$/.exec(location.hash);
  if (m?.[1]) showRun(decodeURIComponent(m[1]));
  else showOverview();
}
state.route = route;

function renderHeader(): void {
  const old = document.querySelector("header.top");
  const el = header();
  if (old) old.replaceWith(el);
  else document.body.insertBefore(el, mainEl());
}

/** New overview data (the complete data after a quick first view, or a live refresh). */
function applyData(d: WireHtmlData): void {
  setData(d);
  renderHeader();
  readCssVars();
  if (!/^#run\//.test(location.hash)) {
    state.overview.scrollY = window.scrollY;
    showOverview();
  }
  if (!d.pending) root.setAttribute("data-complete", "1");
}

function fetchSummary(): Promise<WireHtmlData> {
  return fetchJson<WireHtmlData>(`/api/summary?view=${state.data.view}`);
}

document.addEventListener("keydown", (e) => {
  if (e.key === "Escape" && /^#run\//.test(location.hash)) location.hash = "";
});
window.addEventListener("hashchange", route);
renderHeader();
route();
root.setAttribute("data-ready", "1");
if (!state.data.pending) root.setAttribute("data-complete", "1");
// The server sent the page before the comparison and bootstrap intervals were computed: fetch them.
else if (state.served)
  fetchSummary().then(applyData, (e: unknown) => {
    const note = document.getElementById("pending-note");
    if (note)
      note.textContent = `Could not load the comparison: ${e instanceof Error ? e.message : String(e)}. Reload the page to try again.`;
  });

if (state.served && typeof EventSource !== "undefined") {
  const es = new EventSource("/api/events");
  es.addEventListener("change", () => {
    void fetchSummary().then((d) => {
      applyData(d);
      root.setAttribute("data-refreshed", String(Date.now()));
    });
  });
}
