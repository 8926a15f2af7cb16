/**
 * summary.html of the demo's results folder in headless Chromium (from disk, file://), and
 * the `view` server. Builds the results with the BUILT CLI (`npm run build` first).
 */
import { cp, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readReports } from "../../src/store/read.js";
import { chartJsSource } from "../../src/report/html/chart-asset.js";
import { loadInputs } from "../../src/report/html/load.js";
import { renderHtmlPage } from "../../src/report/html/page.js";
import { buildHtmlData } from "../../src/report/html/summary-data.js";
import { writeHtmlReports } from "../../src/report/html/write.js";
import { serveResults, type ServedResults } from "../../src/viewer/server.js";
import { makeSandbox, REPO_ROOT, runCli, type Sandbox } from "../helpers/cli.js";
import { launchChromium } from "./chromium.js";

const SHOTS = path.join(REPO_ROOT, "test-output");
let sb: Sandbox;
let out: string;
let files: string[];
let ctx: BrowserContext;
let page: Page;
const pageErrors: string[] = [];

/** Does the canvas have any non-transparent pixel? */
function canvasPainted(p: Page, id: string): Promise<unknown> {
  // A string expression: the test code is compiled without the DOM library.
  return p.evaluate(`(() => {
    const c = document.getElementById(${JSON.stringify(id)});
    if (!(c instanceof HTMLCanvasElement) || c.width === 0 || c.height === 0) return false;
    const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    for (let i = 3; i < px.length; i += 4) if (px[i] > 0) return true;
    return false;
  })()`);
}

beforeAll(async () => {
  sb = await makeSandbox("html");
  out = sb.dir("results");
  const demo = path.join(REPO_ROOT, "examples", "demo-suite");
  const env = sb.env({
    IS_SANDBOX: "1",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_TELEMETRY: "1",
  });
  const res = await runCli(
    [
      "run",
      demo,
      "--model-script",
      path.join(demo, "model-script.yaml"),
      "--count",
      "2",
      "--out",
      out,
      "--exit-zero",
      "--env",
      "CLAUDE_CODE_MAX_RETRIES=0",
    ],
    { env },
  );
  if (res.code !== 0) throw new Error(`demo run failed (${res.code}): ${res.stderr}`);
  files = await writeHtmlReports(out);
  await mkdir(SHOTS, { recursive: true });
  ctx = await launchChromium();
  page = await ctx.newPage();
  page.on("pageerror", (e) => pageErrors.push(e.message));
}, 600_000);

afterAll(async () => {
  await ctx?.close();
  await sb?.remove();
});

describe("summary.html from disk", () => {
  it("writes summary.html and comparison_report.html", () => {
    expect(files.map((f) => path.basename(f))).toEqual(["summary.html", "comparison_report.html"]);
  });

  it("is self-contained: no external scripts, styles or fetches", async () => {
    const html = await readFile(path.join(out, "summary.html"), "utf8");
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=|https?:\/\/[^"'\s]*\.(js|css)\b/);
  });

  it("renders the charts and the outcome matrix", async () => {
    await page.goto(`file://${path.join(out, "summary.html")}`);
    await page.waitForSelector("html[data-ready]");
    for (const id of ["chart-passk", "chart-frontier", "chart-quality"])
      expect(await canvasPainted(page, id), id).toBe(true);
    // The rubric delta chart exists exactly when some dimension has a candidate − baseline delta.
    const hasDeltas = await page.evaluate(
      `JSON.parse(document.getElementById('skillbench-data').textContent).comparison.rubric.dimensions.some((d) => typeof d.delta === 'number')`,
    );
    expect(await canvasPainted(page, "chart-rubric")).toBe(hasDeltas);
    // Every task × treatment cell shows c/n over the analysis-set runs of the stored reports.
    const { reports } = await readReports(out);
    const cells = new Map<string, { c: number; n: number }>();
    for (const r of reports) {
      const k = `${r.task}|${r.treatment}`;
      const cur = cells.get(k) ?? { c: 0, n: 0 };
      if (r.sample_quality.include_in_analysis)
        cells.set(k, { c: cur.c + (r.checks_failed.length === 0 ? 1 : 0), n: cur.n + 1 });
      else cells.set(k, cur);
    }
    expect(cells.size).toBe(6); // 3 tasks × 2 treatments
    for (const [k, v] of cells) {
      const [task, t] = k.split("|");
      const shown = await page
        .locator(`#outcome-matrix td[data-task="${task}"][data-treatment="${t}"]`)
        .getAttribute("data-cn");
      expect(shown, k).toBe(v.n === 0 ? null : `${v.c}/${v.n}`);
    }
    expect(await page.locator("#outcome-matrix td.cell").count()).toBe(6);
    // colour is never the only carrier: the symbol is in the text
    if ((await page.locator("#outcome-matrix td.cell[data-cn]").count()) > 0)
      expect(
        await page.locator("#outcome-matrix td.cell[data-cn] .cn").first().textContent(),
      ).toMatch(/^[\u2713\u2717\u25D0] \d+\/\d+$/);
    await page.screenshot({ path: path.join(SHOTS, "html-summary.png"), fullPage: true });
  });

  it("opens a failed run from the keyboard and shows its failed check and a tool call output", async () => {
    const row = page.locator('tr.run[data-run="hello-file-CONTROL-r1"]');
    await row.focus();
    await page.keyboard.press("Enter");
    await page.waitForSelector("#run-page h2");
    const failed = await page.locator("#run-page ul.checks li.fail").first().textContent();
    expect(failed).toContain("hello_exact");
    const tool = page.locator("#timeline details.tool").first();
    await tool.locator("summary").click();
    expect(await tool.locator("pre.tool-output").textContent()).toMatch(
      /File created successfully|hello/,
    );
    await page.screenshot({ path: path.join(SHOTS, "html-run.png"), fullPage: true });
    await page.keyboard.press("Escape");
    await page.waitForSelector("#runs-table");
  });

  it("switches to the dark theme and works at 1280px without horizontal scrolling", async () => {
    await page.click("#theme-toggle"); // auto -> dark
    expect(await page.getAttribute("html", "data-theme")).toBe("dark");
    const bg = await page.evaluate("getComputedStyle(document.body).backgroundColor");
    expect(bg).toBe("rgb(13, 17, 23)");
    expect(await canvasPainted(page, "chart-passk")).toBe(true);
    expect(await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")).toBe(
      true,
    );
    await page.screenshot({ path: path.join(SHOTS, "html-summary-dark.png"), fullPage: false });
  });

  it("comparison_report.html shows the verdict", async () => {
    await page.goto(`file://${path.join(out, "comparison_report.html")}`);
    await page.waitForSelector("#verdict");
    expect(await page.locator("#verdict").textContent()).toMatch(/WITH_SKILL/);
    expect(await canvasPainted(page, "chart-passk")).toBe(true);
  });

  it("had no script errors", () => expect(pageErrors).toEqual([]));
});

describe("skillbench view server", () => {
  let srv: ServedResults;
  beforeAll(async () => {
    srv = await serveResults(out, { pollMs: 200 });
  });
  afterAll(async () => {
    await srv?.close();
  });

  it("serves the summary and loads a run page lazily from /api/runs/<id>", async () => {
    const p = await ctx.newPage();
    const apiCalls: string[] = [];
    p.on("request", (r) => {
      if (r.url().includes("/api/runs/")) apiCalls.push(r.url());
    });
    await p.goto(srv.url);
    await p.waitForSelector("html[data-ready]");
    expect(await canvasPainted(p, "chart-passk")).toBe(true);
    await p.locator('tr.run[data-run="changelog-entry-CONTROL-r1"] a').click();
    await p.waitForSelector("#timeline");
    expect(await p.locator("#run-page ul.checks li.fail").first().textContent()).toContain(
      "entry_present",
    );
    expect(apiCalls.some((u) => u.endsWith("/api/runs/changelog-entry-CONTROL-r1"))).toBe(true);
    // The workspace is kept only in some configurations: when a file is listed, it loads from /api/runs/<id>/files/<path>.
    const btn = p.locator("#run-page .files button").first();
    if ((await p.locator("#run-page .files button").count()) > 0) {
      await btn.click();
      await p.waitForSelector("#file-view pre");
      expect(await p.locator("#file-view pre").textContent()).not.toMatch(/could not load/);
    }
    await p.close();
  });

  it("draws a quick first view, then fills in the comparison and intervals from /api/summary", async () => {
    // The page as the server sends it while the bootstrap is still running (served deterministically here).
    const inputs = await loadInputs(out);
    const quick = buildHtmlData({
      view: "summary",
      mode: "served",
      reports: inputs.reports,
      metadata: inputs.metadata,
      comparison: null,
      problems: inputs.problems,
      pending: true,
    });
    const p = await ctx.newPage();
    await p.route(srv.url, (route) =>
      route.fulfill({
        status: 200,
        contentType: "text/html; charset=utf-8",
        body: renderHtmlPage(quick, { chartJs: chartJsSource() }),
      }),
    );
    const summaryCalls: string[] = [];
    p.on("request", (r) => {
      if (r.url().includes("/api/summary")) summaryCalls.push(r.url());
    });
    await p.goto(srv.url);
    await p.waitForSelector("html[data-ready]");
    await p.waitForSelector("html[data-complete]", { timeout: 30_000 });
    expect(summaryCalls).toHaveLength(1);
    expect(await p.locator("#pending-note").count()).toBe(0);
    expect(await canvasPainted(p, "chart-passk")).toBe(true);
    expect(await p.locator("#verdict").count()).toBe(1);
    expect(await p.locator("header.top").count()).toBe(1);
    expect(await p.locator('header.top a[href="/comparison"]').count()).toBe(1);
    const intervals = await p.evaluate(
      `fetch('/api/summary').then((r) => r.json()).then((d) => d.pending === false && d.pass_k.bootstrap.length > 0)`,
    );
    expect(intervals).toBe(true);
    await p.close();
  });

  it("refuses path escapes and unknown runs", async () => {
    const get = (u: string) => fetch(new URL(u, srv.url)).then((r) => r.status);
    expect(await get("/api/runs/hello-file-CONTROL-r1/files/..%2F..%2F..%2Fmetadata.json")).toBe(
      400,
    );
    expect(await get("/api/runs/..%2Fx")).toBe(400);
    expect(await get("/api/runs/no-such-run")).toBe(404);
    expect(await get("/api/summary")).toBe(200);
  });

  it("tells a watching page when the folder changes (live refresh)", async () => {
    const p = await ctx.newPage();
    await p.goto(srv.url);
    await p.waitForSelector("html[data-ready]");
    const refreshed = p.waitForSelector("html[data-refreshed]", { timeout: 30_000 });
    const meta = path.join(out, "metadata.json");
    await writeFile(meta, `${(await readFile(meta, "utf8")).trimEnd()}\n\n`);
    await refreshed;
    await p.close();
  });
});

describe("skillbench view shows the pairwise judge's pairs", () => {
  let srv: ServedResults;
  let dir: string;
  const order = (preferred: "A" | "B" | "tie") => ({
    preferred,
    reason: "r",
    calls: 1,
    repairs: 0,
  });
  beforeAll(async () => {
    // The demo's folder with the pairs a pairwise judge wrote (no other run): rep 1 agreed on the
    // candidate, rep 2 preferred the first position both times (a tie, the orders disagree).
    dir = sb.dir("pairwise");
    await cp(out, dir, { recursive: true });
    const pair = (
      rep: number,
      first: "A" | "B",
      second: "A" | "B",
      outcome: string,
      disagree: boolean,
    ) => ({
      task: "hello-file",
      rep,
      candidate_run: `hello-file-WITH_SKILL-r${rep}`,
      baseline_run: `hello-file-CONTROL-r${rep}`,
      first: order(first),
      second: order(second),
      outcome,
      disagree,
    });
    await writeFile(
      path.join(dir, "pairwise.json"),
      JSON.stringify({
        schema: "skillbench.pairwise.v1",
        model: "judge-x",
        candidate: "WITH_SKILL",
        baseline: "CONTROL",
        pairs: [pair(1, "A", "B", "candidate", false), pair(2, "A", "A", "tie", true)],
        tokens: null,
        cost_usd: null,
      }),
    );
    srv = await serveResults(dir, { pollMs: 200 });
  });
  afterAll(async () => {
    await srv?.close();
  });

  it("per task and repetition: each order's preference, the outcome, the position bias", async () => {
    const p = await ctx.newPage();
    await p.goto(new URL("/comparison", srv.url).href);
    await p.waitForSelector("#pairwise-pair-rows");
    expect(await p.locator("#pairwise-pair-rows tbody tr").allTextContents()).toEqual([
      "hello-file1candidatecandidatecandidateno",
      "hello-file2candidatebaselinetieyes",
    ]);
    expect(await p.locator("#pairwise-tasks tbody tr").allTextContents()).toEqual([
      "hello-file211",
    ]);
    expect(await p.locator("#pairwise-pairs-summary").textContent()).toContain(
      "1 tie(s); the orders disagreed in 1 (position bias 0.50)",
    );
    await p.close();
  });
});
