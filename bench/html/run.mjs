// Benchmark (not a test): 1,000 synthetic runs with ~50 MB of transcripts, served by the viewer
// (dist/, so `npm run build` first), opened in headless Chromium. Measures time to first view
// (navigation start -> overview drawn), a run page's lazy load, and frames during a scripted
// scroll of the runs table. Prints a table and writes bench/results/html.md.
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { serveResults } from "../../dist/viewer/server.js";
import { syntheticReport } from "./synthetic.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const RUNS = 1000,
  TASKS = 50,
  TREATMENTS = ["CONTROL", "WITH_SKILL"],
  BYTES_PER_RUN = 50_000;
const BUDGET_FIRST_VIEW_MS = 3000;
// Figures of the viewer before the summary was built at start-up and staged (same machine, same measure: performance.now() once the page is loaded and marked drawn).
const BEFORE = [
  '"First view" is performance.now() once the page has loaded and marked itself drawn (data-ready), the same measure as before; "drawn at" and "complete" are when the page set data-ready and data-complete.',
  "",
  "Before (server read the 1,000 reports one by one and computed the comparison on the first request; charts drawn after the 1,000-row tables): first view cold 3576 ms, warm 1805 ms, run page 216 ms, scroll 58.9 fps (worst frame 66.6 ms).",
];

function transcript(i) {
  const lines = [
    JSON.stringify({ type: "system", subtype: "init", session_id: `s${i}`, model: "claude-test" }),
  ];
  let n = 0,
    size = 0;
  while (size < BYTES_PER_RUN) {
    const a = JSON.stringify({
      type: "assistant",
      message: {
        id: `m${i}-${n}`,
        usage: { input_tokens: 100, output_tokens: 20 },
        content: [
          { type: "text", text: `step ${n}` },
          { type: "tool_use", id: `t${i}-${n}`, name: "Bash", input: { command: `echo ${n}` } },
        ],
      },
    });
    const u = JSON.stringify({
      type: "user",
      message: {
        role: "user",
        content: [
          {
            type: "tool_result",
            tool_use_id: `t${i}-${n}`,
            content: "x".repeat(1500),
            is_error: n % 7 === 3,
          },
        ],
      },
    });
    lines.push(a, u);
    size += a.length + u.length;
    n += 1;
  }
  lines.push(
    JSON.stringify({
      type: "result",
      subtype: "success",
      is_error: false,
      result: "done",
      num_turns: n,
      total_cost_usd: 0.01,
      usage: { input_tokens: 100 * n, output_tokens: 20 * n },
    }),
  );
  return lines.join("\n") + "\n";
}

const dir = await mkdtemp(path.join(tmpdir(), "skillbench-bench-html-"));
let bytes = 0;
const reps = RUNS / TASKS / TREATMENTS.length;
let i = 0;
for (let t = 0; t < TASKS; t++)
  for (const tr of TREATMENTS)
    for (let r = 1; r <= reps; r++) {
      const rep = syntheticReport(
        i,
        `task-${String(t).padStart(2, "0")}`,
        tr,
        r,
        (i * 7919) % 10 < (tr === "CONTROL" ? 5 : 8),
      );
      const rd = path.join(dir, "runs", rep.run_id);
      await mkdir(path.join(rd, "workspace"), { recursive: true });
      const tx = transcript(i);
      bytes += tx.length;
      await writeFile(path.join(rd, "stdout.jsonl"), tx);
      await writeFile(path.join(rd, "report.json"), JSON.stringify(rep));
      await writeFile(path.join(rd, "workspace", "out.txt"), `run ${i}\n`);
      i++;
    }
await writeFile(
  path.join(dir, "metadata.json"),
  JSON.stringify({
    schema: "x",
    experiment_id: "bench",
    started_at: null,
    completed_at: "2026-01-01T00:00:00Z",
    suite: { path: "bench", hash: "h" },
    treatments: TREATMENTS,
    model: null,
    versions: { skillbench: "0", claude: null },
  }),
);

const srv = await serveResults(dir);
const udd = await mkdtemp(path.join(tmpdir(), "skillbench-chromium-"));
const ctx = await chromium.launchPersistentContext(udd, {
  executablePath: "/usr/bin/chromium",
  headless: true,
  viewport: { width: 1280, height: 900 },
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
});
// When the page marks itself drawn (data-ready: first view) and complete (data-complete: comparison and bootstrap intervals filled in).
await ctx.addInitScript(`new MutationObserver(() => {
  const el = document.documentElement;
  if (el.hasAttribute('data-ready') && !window.__readyAt) window.__readyAt = performance.now();
  if (el.hasAttribute('data-complete') && !window.__completeAt) window.__completeAt = performance.now();
}).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-ready', 'data-complete'] })`);
const page = await ctx.newPage();
const rows = [];
async function firstView(url, label) {
  await page.goto(url);
  await page.waitForSelector("html[data-ready]");
  const seen = await page.evaluate("performance.now()"); // as measured before the staged view existed
  await page.waitForSelector("html[data-complete]", { timeout: 60_000 });
  const t = await page.evaluate("({ ready: window.__readyAt, complete: window.__completeAt })");
  rows.push([
    `first view, ${label}`,
    `${Math.round(seen)} ms (drawn at ${Math.round(t.ready)} ms; complete with comparison and intervals at ${Math.round(t.complete)} ms)`,
  ]);
}
// cold: the server was started just before the browser launched (as skillbench view does)
await firstView(srv.url, "cold (server started as the browser launched)");
await firstView(srv.url, "warm (cached summary)");
const t0 = Date.now();
await page.goto(srv.url + "#run/task-00-CONTROL-r1");
await page.waitForSelector("#timeline");
rows.push(["run page (lazy /api/runs/<id>, ~50 KB transcript)", `${Date.now() - t0} ms`]);
await page.goto(srv.url);
await page.waitForSelector("html[data-ready]");
const frames = await page.evaluate(`new Promise((resolve) => {
  const box = document.querySelector('#runs-table').parentElement; let frames = 0, worst = 0, last = performance.now(); const start = last;
  function step(now) { frames++; worst = Math.max(worst, now - last); last = now; box.scrollTop += 120; if (now - start < 2000) requestAnimationFrame(step); else resolve({ frames, worst, secs: (now - start) / 1000 }); }
  requestAnimationFrame(step);
})`);
rows.push([
  "scroll of the 1,000-row runs table (2 s)",
  `${(frames.frames / frames.secs).toFixed(1)} fps, worst frame ${frames.worst.toFixed(1)} ms`,
]);
// worst case: a second server on the same folder, opened the moment it listens (its summary is not built yet)
const srv2 = await serveResults(dir);
await firstView(srv2.url, "cold (page requested the moment the server listens)");
await srv2.close();
const summaryBytes = (await (await fetch(srv.url + "api/summary")).text()).length;
rows.push(["/api/summary size", `${(summaryBytes / 1024).toFixed(0)} KB`]);
await ctx.close();
await srv.close();
await rm(udd, { recursive: true, force: true });
await rm(dir, { recursive: true, force: true });

const md = [
  `# HTML viewer benchmark`,
  "",
  `${RUNS} runs, ${(bytes / 1e6).toFixed(1)} MB of transcripts, Chromium headless at 1280×900, 2-core machine. Budget for the first view: ${BUDGET_FIRST_VIEW_MS} ms.`,
  "",
  "| Measure | Value |",
  "|---|---|",
  ...rows.map(([a, b]) => `| ${a} | ${b} |`),
  "",
  ...BEFORE,
  "",
].join("\n");
console.log(md);
await mkdir(path.join(ROOT, "bench", "results"), { recursive: true });
// Keep the section bench/html/write-scale.mjs writes into the same file.
const resultsFile = path.join(ROOT, "bench", "results", "html.md");
const previous = await readFile(resultsFile, "utf8").catch(() => "");
const kept = previous.indexOf("<!-- write-scale: begin");
await writeFile(resultsFile, kept >= 0 ? `${md}\n${previous.slice(kept)}` : md);
