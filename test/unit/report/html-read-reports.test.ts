import { mkdir, mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { comparisonOf, loadInputs, loadResults } from "../../../src/report/html/load.js";
import { buildHtmlData } from "../../../src/report/html/summary-data.js";
import { digestOf } from "../../../src/core/digest.js";
import { readReports, readStoredRuns, type ReportCache } from "../../../src/store/read.js";
import { mapPool } from "../../../src/util/pool.js";
import { makeReport, reps } from "./helpers.js";

let dir: string;
const reports = [...reps("CONTROL", 3, [1]), ...reps("WITH_SKILL", 3, [1, 2, 3])];

async function writeReport(id: string, text: string): Promise<void> {
  await mkdir(path.join(dir, "runs", id), { recursive: true });
  await writeFile(path.join(dir, "runs", id, "report.json"), text);
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "skillbench-html-read-"));
  for (const r of reports) await writeReport(r.run_id, JSON.stringify(r));
  await writeReport("broken-json", "{");
  await writeReport("wrong-shape", JSON.stringify({ schema: "skillbench.report.v1" }));
  await mkdir(path.join(dir, "runs", "no-report-yet"), { recursive: true });
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("mapPool", () => {
  it.each([1, 3, 16])("keeps input order and at most %i calls in flight", async (limit) => {
    let inFlight = 0;
    let peak = 0;
    const out = await mapPool([5, 4, 3, 2, 1, 0], limit, async (x, i) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await Promise.resolve();
      inFlight--;
      return `${i}:${x}`;
    });
    expect(out).toEqual(["0:5", "1:4", "2:3", "3:2", "4:1", "5:0"]);
    expect(peak).toBeLessThanOrEqual(limit);
  });
  it("handles no items", async () => expect(await mapPool([], 4, async () => 1)).toEqual([]));
});

describe("readStoredRuns", () => {
  it("gives the digests of what readReports gives", async () => {
    const want = await readReports(dir);
    const got = await readStoredRuns(dir);
    expect(got.digests).toEqual(want.reports.map(digestOf));
    expect(got.problems).toEqual(want.problems);
    expect(got.problems.map((p) => path.basename(path.dirname(p.file)))).toEqual([
      "broken-json",
      "wrong-shape",
    ]);
    expect(got.signature).toContain("no-report-yet:-");
  });

  it("reuses the digests of unchanged reports and re-reads a changed one", async () => {
    const cache: ReportCache = new Map();
    const first = await readStoredRuns(dir, { cache });
    const again = await readStoredRuns(dir, { cache });
    expect(again.signature).toBe(first.signature);
    const id = reports[0]?.run_id ?? "";
    expect(again.digests.find((r) => r.run_id === id)).toBe(
      first.digests.find((r) => r.run_id === id),
    );
    const changed = makeReport({ task: "task-a", treatment: "CONTROL", rep: 1, passed: true });
    await writeReport(changed.run_id, JSON.stringify(changed));
    const later = new Date(Date.now() + 5000);
    await utimes(path.join(dir, "runs", changed.run_id, "report.json"), later, later);
    const third = await readStoredRuns(dir, { cache });
    expect(third.signature).not.toBe(first.signature);
    expect(third.digests).toEqual((await readReports(dir)).reports.map(digestOf));
  });
});

describe("staged overview data", () => {
  it("the quick data has the runs and point estimates, no intervals, and is marked pending", async () => {
    const inputs = await loadInputs(dir);
    const quick = buildHtmlData({
      view: "summary",
      mode: "served",
      reports: inputs.reports,
      metadata: null,
      comparison: null,
      pending: true,
    });
    const full = buildHtmlData({
      view: "summary",
      mode: "served",
      reports: inputs.reports,
      metadata: null,
      comparison: comparisonOf(inputs),
    });
    expect(quick.pending).toBe(true);
    expect(full.pending).toBe(false);
    expect(quick.pass_k.bootstrap).toEqual([]);
    expect(full.pass_k.bootstrap.length).toBeGreaterThan(0);
    expect(quick.runs).toEqual(full.runs);
    expect(quick.pass_k.rows).toEqual(full.pass_k.rows);
    expect(quick.task_outcomes).toEqual(full.task_outcomes);
  });
  it("loadResults still builds the comparison", async () => {
    const loaded = await loadResults(dir);
    expect(loaded.comparison?.treatments).toEqual(["CONTROL", "WITH_SKILL"]);
    expect(loaded.hasComparisonFile).toBe(false);
  });
});
