// Benchmark (not a test): the first view of summary.html (a static file, file://) in headless
// Chromium at 1,000 and 10,000 runs. Each run is a synthetic report.json (with a small
// stdout.jsonl so run pages embed up to the usual budget); `writeHtmlReports` (dist/, so
// `npm run build` first) writes the pages. "First view" is the time from navigation start to the
// first frame after the page has drawn its overview (header, charts, outcome matrix, run table)
// and marked itself ready; median of 3 cold loads (a new page each time).
//
//   node bench/html/first-view.mjs [--runs 1000,10000] [--loads 3]
//
// Targets (issue: readable at any size): under 1 s at 1,000 runs, under 2 s at 10,000.
// Writes bench/results/html-first-view.md.
import { mkdir, mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { writeHtmlReports } from "../../dist/report/html/write.js";
import { syntheticReport } from "./synthetic.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : dflt;
};
const SIZES = arg("--runs", "1000,10000").split(",").map(Number);
const LOADS = Number(arg("--loads", "3"));
const TARGET_MS = { 1000: 1000, 10000: 2000 };
const TREATMENTS = ["CONTROL", "WITH_SKILL"];
const TASKS = 100;

async function generate(n) {
  const dir = await mkdtemp(path.join(tmpdir(), `skillbench-first-view-${n}-`));
  const reps = Math.max(1, Math.round(n / TASKS / TREATMENTS.length));
  let i = 0;
  for (let t = 0; t < TASKS && i < n; t++)
    for (const tr of TREATMENTS)
      for (let r = 1; r <= reps && i < n; r++) {
        const passed = (i * 7919) % 10 < (tr === "CONTROL" ? 5 : 8);
        const rep = syntheticReport(i, `task-${String(t).padStart(3, "0")}`, tr, r, passed);
        const rd = path.join(dir, "runs", rep.run_id);
        await mkdir(rd, { recursive: true });
        await writeFile(path.join(rd, "report.json"), JSON.stringify(rep));
        i++;
      }
  await writeFile(
    path.join(dir, "metadata.json"),
    JSON.stringify({
      schema: "skillbench.experiment.v1",
      experiment_id: "bench",
      started_at: null,
      completed_at: "2026-01-01T00:00:00Z",
      suite: { path: "bench", hash: "h" },
      treatments: TREATMENTS,
      model: null,
      versions: { skillbench: "0", claude: null },
    }),
  );
  return { dir, runs: i };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const ctx = await chromium.launchPersistentContext(
  await mkdtemp(path.join(tmpdir(), "skillbench-chromium-")),
  {
    executablePath: "/usr/bin/chromium",
    headless: true,
    viewport: { width: 1280, height: 900 },
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync"],
  },
);
// The moment the page marks itself drawn, and the first frame after it.
await ctx.addInitScript(`new MutationObserver(() => {
  const el = document.documentElement;
  if (el.hasAttribute('data-ready') && !window.__readyAt) {
    window.__readyAt = performance.now();
    requestAnimationFrame(() => setTimeout(() => { window.__frameAt = performance.now(); }, 0));
  }
}).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-ready'] })`);

const rows = [];
for (const n of SIZES) {
  const { dir, runs } = await generate(n);
  const t0 = performance.now();
  await writeHtmlReports(dir);
  const writeMs = performance.now() - t0;
  const size = (await stat(path.join(dir, "summary.html"))).size;
  const ready = [];
  const frame = [];
  const domRows = [];
  for (let k = 0; k < LOADS; k++) {
    const page = await ctx.newPage();
    await page.goto(`file://${path.join(dir, "summary.html")}`);
    await page.waitForFunction("window.__frameAt !== undefined", null, { timeout: 60_000 });
    const t = await page.evaluate(
      "({ ready: window.__readyAt, frame: window.__frameAt, rows: document.querySelectorAll('#runs-table tr.run').length })",
    );
    ready.push(t.ready);
    frame.push(t.frame);
    domRows.push(t.rows);
    await page.close();
  }
  const target = TARGET_MS[n];
  const first = median(frame);
  rows.push([
    runs.toLocaleString("en-US"),
    `${(size / 1e6).toFixed(1)} MB`,
    `${Math.round(median(ready))} ms`,
    `${Math.round(first)} ms`,
    target ? `${target} ms: ${first <= target ? "met" : "**not met**"}` : "—",
    String(median(domRows)),
    `${(writeMs / 1000).toFixed(1)} s`,
    loadavg()[0].toFixed(1),
  ]);
  console.log(rows.at(-1).join(" | "));
  await rm(dir, { recursive: true, force: true });
}
await ctx.close();

const md = [
  "# HTML first view (static summary.html)",
  "",
  `Headless Chromium at 1280×900 on this 2-core machine, file:// pages written by writeHtmlReports; median of ${LOADS} cold loads. "Drawn" is when the page marked itself ready (overview built, charts drawn, run table's first window in the document); "first view" is the first frame after that, from navigation start. Table rows in the DOM: the run table is virtualised.`,
  "",
  "| Runs | summary.html | Drawn | First view | Target | Table rows in the DOM | Writing both pages | Load |",
  "|---|---|---|---|---|---|---|---|",
  ...rows.map((r) => `| ${r.join(" | ")} |`),
  "",
  `Measured ${new Date().toISOString().slice(0, 16)}Z. Load: the 1-minute load average on the 2 cores when the loads of that size ended (other work shares the machine; the times stretch with it). "Writing both pages" includes reading the folder (and building its run index: a fresh folder has none) and the comparison.`,
  "",
  "Before: one object per run and every run row in the DOM (issue #19): 1.3–1.5 s at 1,000 runs. Then (virtualised table, the run table in columns), under heavy load: 880 ms at 1,000 runs, 1,827 ms at 10,000.",
  "",
].join("\n");
console.log(md);
await mkdir(path.join(ROOT, "bench", "results"), { recursive: true });
await writeFile(path.join(ROOT, "bench", "results", "html-first-view.md"), md);
