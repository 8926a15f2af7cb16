/**
 * The HTML pages at 1,000 runs in headless Chromium: the run table is virtualised (only the rows
 * in view are in the document) and scrolling, filtering, sorting and the keyboard still reach
 * every run. Also: judge scores under the generic profile on a run page and in
 * comparison_report.html, and the scripted-model and no-sandbox warnings on every page.
 * Behaviour only; the first-view timing is a benchmark (bench/html/first-view.mjs).
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCAL_WARNING } from "../../src/core/sandbox.js";
import type { RunReport } from "../../src/core/report.js";
import { writeHtmlReports } from "../../src/report/html/write.js";
import { makeSandbox, type Sandbox } from "../helpers/cli.js";
import { makeJudgeBlock, makeMetadata, makeReport } from "../unit/report/helpers.js";
import { launchChromium } from "./chromium.js";

const TASKS = 50;
const REPS = 10;
const TREATMENTS = ["CONTROL", "WITH_SKILL"];
const RUNS = TASKS * TREATMENTS.length * REPS;

let sb: Sandbox;
let out: string;
let ctx: BrowserContext;
let page: Page;
const pageErrors: string[] = [];

const LOCAL_SANDBOX: NonNullable<RunReport["sandbox"]> = {
  kind: "local",
  why: "requested",
  image_id: null,
  image_tag: null,
  agent_version_inside: null,
  limits: null,
  network_policy: "host",
  protects: [],
  does_not_protect: ["files", "environment"],
  oom_kills: null,
};

function task(t: number): string {
  return `task-${String(t).padStart(2, "0")}`;
}

beforeAll(async () => {
  sb = await makeSandbox("html-scale");
  out = sb.dir("results");
  let i = 0;
  for (let t = 0; t < TASKS; t++)
    for (const treatment of TREATMENTS)
      for (let rep = 1; rep <= REPS; rep++) {
        const passed = (i * 7919) % 10 < (treatment === "CONTROL" ? 5 : 8);
        const r = makeReport({
          task: task(t),
          treatment,
          rep,
          passed,
          tokens: 1000 + ((i * 37) % 500),
          weighted: passed ? 0.9 : 0.3 + (i % 7) / 100,
          failed: passed ? [] : [`check_${t}: wrong output`],
        });
        r.sandbox = LOCAL_SANDBOX;
        // Every run is judged with the generic profile's judge dimensions.
        r.judge = makeJudgeBlock({
          task_completion: passed ? 0.85 : 0.25,
          output_quality: 0.7,
          instruction_adherence: 0.6,
        });
        const dir = path.join(out, "runs", r.run_id);
        await mkdir(dir, { recursive: true });
        await writeFile(path.join(dir, "report.json"), JSON.stringify(r));
        i += 1;
      }
  await writeFile(
    path.join(out, "metadata.json"),
    JSON.stringify({ ...makeMetadata(TREATMENTS), model_script: "model-script.yaml" }),
  );
  await writeHtmlReports(out);
  ctx = await launchChromium();
  page = await ctx.newPage();
  page.on("pageerror", (e) => pageErrors.push(e.message));
  await page.goto(`file://${path.join(out, "summary.html")}`);
  await page.waitForSelector("html[data-ready]");
}, 300_000);

afterAll(async () => {
  await ctx?.close();
  await sb?.remove();
});

const rowCount = () => page.locator("#runs-table tr.run").count();
const firstRunId = () => page.locator("#runs-table tr.run").first().getAttribute("data-run");
/** Scroll the run table's box (the page scrolls with it) and wait until `id`'s row is drawn. */
async function scrollBoxTo(top: string): Promise<void> {
  await page.evaluate(
    `(() => { const b = document.querySelector('.runs-scroll'); b.scrollTop = ${top}; })()`,
  );
}

describe(`summary.html with ${RUNS} runs`, () => {
  it("lists every run but draws only the rows in view", async () => {
    expect(await page.locator("#runs-count").textContent()).toBe(`${RUNS} of ${RUNS} runs`);
    const drawn = await rowCount();
    expect(drawn).toBeGreaterThan(10);
    expect(drawn).toBeLessThan(100);
    expect(await firstRunId()).toBe("task-00-CONTROL-r1");
  });

  it("draws the last runs when the table is scrolled to the end", async () => {
    await scrollBoxTo("b.scrollHeight");
    const last = `${task(TASKS - 1)}-WITH_SKILL-r${REPS}`;
    await page.waitForSelector(`tr.run[data-run="${last}"]`);
    expect(await rowCount()).toBeLessThan(100);
    expect(await page.locator('tr.run[data-run="task-00-CONTROL-r1"]').count()).toBe(0);
    // the spacer above stands for the rows not drawn: the scroll height covers every run
    const covers = await page.evaluate(
      `(() => { const b = document.querySelector('.runs-scroll'); const r = b.querySelector('tr.run'); return b.scrollHeight >= ${RUNS} * r.getBoundingClientRect().height; })()`,
    );
    expect(covers).toBe(true);
    await scrollBoxTo("0");
    await page.waitForSelector('tr.run[data-run="task-00-CONTROL-r1"]');
  });

  it("filters by every term and by status", async () => {
    await page.fill("#runs-filter", "task-07 with_skill");
    expect(await page.locator("#runs-count").textContent()).toBe(`${REPS} of ${RUNS} runs`);
    const ids: Array<string | null> = await page.evaluate(
      `[...document.querySelectorAll('#runs-table tr.run')].map((e) => e.getAttribute('data-run'))`,
    );
    expect(ids).toHaveLength(REPS);
    expect(ids.every((id) => id?.startsWith("task-07-WITH_SKILL-"))).toBe(true);
    await page.fill("#runs-filter", "");
    await page.selectOption("#runs-status", "failed");
    const failed = Number((await page.locator("#runs-count").textContent())?.split(" ")[0]);
    expect(failed).toBeGreaterThan(0);
    expect(failed).toBeLessThan(RUNS);
    const statuses: string[] = await page
      .locator("#runs-table tr.run td:nth-child(5)")
      .allTextContents();
    expect(statuses.every((s) => s.includes("failed"))).toBe(true);
    await page.selectOption("#runs-status", "all");
  });

  it("sorts by a column, both ways, over all runs", async () => {
    const score = page.locator('#runs-table th button.sort[data-column="7"]');
    await score.click();
    expect(await page.locator("#runs-table th[aria-sort]").getAttribute("aria-sort")).toBe(
      "ascending",
    );
    const low = await page.locator("#runs-table tr.run td:nth-child(8)").first().textContent();
    expect(low).toBe("0.30");
    await score.click();
    const high = await page.locator("#runs-table tr.run td:nth-child(8)").first().textContent();
    expect(high).toBe("0.90");
    await page.locator('#runs-table th button.sort[data-column="0"]').click();
    expect(await firstRunId()).toBe("task-00-CONTROL-r1");
  });

  it("moves through rows beyond the drawn window with the keyboard", async () => {
    await page.locator('tr.run[data-run="task-00-CONTROL-r1"]').focus();
    for (let k = 0; k < 60; k++) await page.keyboard.press("ArrowDown");
    const focused = await page.evaluate(
      "document.activeElement && document.activeElement.getAttribute('data-run')",
    );
    // row 61 in id order (20 runs per task, beyond the first drawn window): task-03, CONTROL, rep 1
    expect(focused).toBe("task-03-CONTROL-r1");
    await page.keyboard.press("Enter");
    await page.waitForSelector('#run-page[data-run="task-03-CONTROL-r1"] h2');
    await page.keyboard.press("Escape");
    await page.waitForSelector("#runs-table");
  });

  it("shows the generic profile's judge scores beside their rule dimensions on a run page", async () => {
    await page.goto(`file://${path.join(out, "summary.html")}#run/task-00-CONTROL-r1`);
    await page.waitForSelector("#run-page h2");
    const judgeCell = (dim: string) =>
      page.locator(`#rubric tr[data-dimension="${dim}"] td:nth-child(4)`).textContent();
    expect(await page.locator("#rubric th").allTextContents()).toContain("Judge score");
    expect(await judgeCell("completion")).toMatch(/^0\.(85|25) \(task_completion\)$/);
    const scores = await page.locator("#judge-scores tbody tr").allTextContents();
    expect(scores).toHaveLength(3);
    expect(scores.join("|")).toContain("output_quality");
  });

  it("says on every page that the model was scripted and the runs had no sandbox", async () => {
    for (const where of [
      "summary.html",
      "summary.html#run/task-01-WITH_SKILL-r2",
      "comparison_report.html",
    ]) {
      await page.goto(`file://${path.join(out, where)}`);
      await page.waitForSelector("html[data-ready]");
      if (where.includes("#run/")) {
        await page.waitForSelector("#run-page h2");
        expect(await page.locator("#run-page .local-note").textContent()).toContain(LOCAL_WARNING);
        expect(await page.locator("#run-page .scripted-note").count()).toBe(1);
      }
      expect(await page.locator("#scripted-note").textContent(), where).toMatch(/scripted model/);
      expect(await page.locator("#local-note").textContent(), where).toContain(LOCAL_WARNING);
    }
  });

  it("comparison_report.html has the judge overlay section", async () => {
    await page.goto(`file://${path.join(out, "comparison_report.html")}`);
    await page.waitForSelector("#verdict");
    const rows = await page.locator("#judge-overlay tbody tr").allTextContents();
    expect(rows.length).toBe(3 * TREATMENTS.length);
    expect(rows.join("|")).toContain("task_completion (rule: completion)");
  });

  it("had no script errors", () => expect(pageErrors).toEqual([]));
});
