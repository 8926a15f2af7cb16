/**
 * A Skill's history page (history/<skill>.html, issue 36 item 4) in headless Chromium, from
 * disk: the page rendered in-process from a history of three versions (one flaky task, two
 * trigger descriptions), no CLI run; the e2e history test checks that the CLI writes it.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { historyClientJsSource } from "../../src/history/html-asset.js";
import { historyPageData, renderHistoryHtml } from "../../src/history/render-html.js";
import type { SkillHistory } from "../../src/history/trend.js";
import { chartJsSource } from "../../src/report/html/chart-asset.js";
import { makeSandbox, REPO_ROOT, type Sandbox } from "../helpers/cli.js";
import { launchChromium } from "./chromium.js";

const version = (
  label: string,
  passed: number,
  runs: number,
  cost: number,
  change: SkillHistory["versions"][number]["change"],
): SkillHistory["versions"][number] => ({
  skill_hash: `sha256:${label}`,
  label,
  git_ref: null,
  first_recorded: "2026-12-01T10:00:00.000Z",
  experiments: 1,
  runs,
  passed,
  pass_rate: passed / runs,
  interval: { low: Math.max(0, passed / runs - 0.2), high: Math.min(1, passed / runs + 0.2) },
  band: "inconclusive",
  change,
  cost_per_verdict_usd: cost,
  scripted: true,
});

const HISTORY: SkillHistory = {
  skill: "house-style</script><b>x</b>",
  versions: [
    version("aaaaaaaaaaaa", 3, 10, 0.5, null),
    version("bbbbbbbbbbbb", 6, 10, 0.7, {
      delta: 0.3,
      interval: { low: -0.1, high: 0.6 },
      reading: "no clear change",
    }),
    version("cccccccccccc", 10, 10, 0.4, {
      delta: 0.4,
      interval: { low: 0.1, high: 0.7 },
      reading: "better",
    }),
  ],
  flaky: [
    {
      task: "hello-file",
      treatment: "WITH_SKILL",
      agent: "claude-code",
      model: null,
      outcomes: [
        { experiment_id: "e1", c: 1, n: 1 },
        { experiment_id: "e2", c: 0, n: 1 },
      ],
    },
  ],
  triggers: [
    { experiment_id: "t1", description: "Use for house style.", precision: 0.8, recall: 0.5 },
    { experiment_id: "t2", description: "Use for any prose.", precision: 0.4, recall: 0.9 },
  ],
};

const SHOTS = path.join(REPO_ROOT, "test-output");
let sb: Sandbox;
let file: string;
let ctx: BrowserContext;
let page: Page;
const pageErrors: string[] = [];
const requests: string[] = [];

function canvasPainted(p: Page, id: string): Promise<unknown> {
  return p.evaluate(`(() => {
    const c = document.getElementById(${JSON.stringify(id)});
    if (!(c instanceof HTMLCanvasElement) || c.width === 0 || c.height === 0) return false;
    const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    for (let i = 3; i < px.length; i += 4) if (px[i] > 0) return true;
    return false;
  })()`);
}

beforeAll(async () => {
  sb = await makeSandbox("history-page");
  file = sb.dir("house-style.html");
  const html = renderHistoryHtml(historyPageData(HISTORY, "/tmp/history.db"), {
    chartJs: chartJsSource(),
    clientJs: historyClientJsSource(),
  });
  await writeFile(file, html);
  ctx = await launchChromium();
  page = await ctx.newPage();
  page.on("pageerror", (e) => pageErrors.push(e.message));
  page.on("request", (r) => {
    if (!r.url().startsWith("file://")) requests.push(r.url());
  });
  await page.goto(`file://${file}`);
  await page.waitForSelector("html[data-ready]");
}, 120_000);

afterAll(async () => {
  await ctx?.close();
  await sb?.remove();
});

describe("the history page", () => {
  it("draws the pass-rate, change, cost and trigger charts, with no network and no error", async () => {
    for (const id of ["chart-pass", "chart-change", "chart-cost", "chart-triggers"])
      expect(await canvasPainted(page, id), id).toBe(true);
    expect(pageErrors).toEqual([]);
    expect(requests).toEqual([]);
    // The Skill's name is text, never markup (its </script> did not end the data element).
    expect(await page.locator("h1").textContent()).toBe("History of house-style</script><b>x</b>");
    await mkdir(SHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SHOTS, "html-history.png"), fullPage: true });
  });

  it("lists the versions with their band, the flaky case and the trigger figures", async () => {
    const rows = await page.locator("#versions tbody tr").allTextContents();
    expect(rows).toHaveLength(3);
    expect(rows[0]).toContain("3/10 = 30% [10%, 50%]");
    expect(rows[2]).toContain("+0.40 [+0.10, +0.70]: better");
    expect(rows[2]).toContain("$0.4000 (scripted)");
    expect(await page.locator("#scripted-note").count()).toBe(1);
    expect(await page.locator("h2", { hasText: "Flaky cases (1)" }).count()).toBe(1);
    expect(await page.locator("#flaky tbody tr").allTextContents()).toEqual([
      "hello-fileWITH_SKILLclaude-code(agent's default)1/1, 0/1",
    ]);
    expect(await page.locator("#triggers tbody tr").allTextContents()).toEqual([
      "t1Use for house style.80%50%",
      "t2Use for any prose.40%90%",
    ]);
  });
});
