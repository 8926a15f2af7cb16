import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readReports } from "../../../src/store/read.js";
import { readRunIndex, RUN_INDEX_FILE } from "../../../src/store/run-index.js";
import { makeReport, reps } from "../report/helpers.js";

let dir: string;
const reports = [...reps("CONTROL", 3, [1, 0]), ...reps("WITH_SKILL", 3, [1, 1])];
const indexFile = (): string => path.join(dir, RUN_INDEX_FILE);

async function writeReport(id: string, text: string): Promise<void> {
  await mkdir(path.join(dir, "runs", id), { recursive: true });
  await writeFile(path.join(dir, "runs", id, "report.json"), text);
}

/** Change what the index says about one run, keeping its stamp: a read that shows it used the index. */
async function tamper(id: string, task: string): Promise<void> {
  const lines = (await readFile(indexFile(), "utf8")).split("\n");
  const at = lines.findIndex((l) => l.startsWith(`${id}\t`));
  const [rid, stamp, json] = (lines[at] ?? "").split("\t");
  lines[at] = `${rid}\t${stamp}\t${JSON.stringify({ ...JSON.parse(json ?? "{}"), task })}`;
  await writeFile(indexFile(), lines.join("\n"));
}

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "skillbench-run-index-"));
  for (const r of reports) await writeReport(r.run_id, JSON.stringify(r, null, 2));
  await writeReport("broken-json", "{");
  await mkdir(path.join(dir, "runs", "no-report-yet"), { recursive: true });
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("the run index", () => {
  it("is written by the first read and gives the same reports and problems as the files", async () => {
    const first = await readReports(dir);
    const index = await readRunIndex(dir);
    expect([...index.runs.keys()].sort()).toEqual(reports.map((r) => r.run_id).sort());
    const second = await readReports(dir);
    expect(second.reports).toEqual(first.reports);
    expect(second.problems).toEqual(first.problems);
    expect(second.problems.map((p) => path.basename(path.dirname(p.file)))).toEqual([
      "broken-json",
    ]);
    expect(first.reports).toEqual((await readReports(dir, { index: false })).reports.map((r) => r));
  });

  it("stands in for a report.json whose stamp it holds, and not for one rewritten since", async () => {
    await readReports(dir);
    const [a, b] = reports;
    await tamper(a?.run_id ?? "", "from-the-index");
    await tamper(b?.run_id ?? "", "from-the-index");
    // b's report.json is replaced (as rescore does): new inode, new mtime.
    const path_b = path.join(dir, "runs", b?.run_id ?? "", "report.json");
    await writeFile(`${path_b}.tmp`, JSON.stringify({ ...b, rep: 7 }));
    const { rename } = await import("node:fs/promises");
    await rename(`${path_b}.tmp`, path_b);
    const got = await readReports(dir);
    expect(got.reports.find((r) => r.run_id === a?.run_id)?.task).toBe("from-the-index");
    const rb = got.reports.find((r) => r.run_id === b?.run_id);
    expect(rb?.task).toBe(b?.task);
    expect(rb?.rep).toBe(7);
    // ... and the index was written again with b's new report.
    const again = await readRunIndex(dir);
    expect(again.runs.get(b?.run_id ?? "")?.rep).toBe(7);
  });

  it("is ignored when its header names another report schema, or when it is cut short", async () => {
    await readReports(dir);
    const text = await readFile(indexFile(), "utf8");
    const [header, ...rest] = text.split("\n");
    const h = JSON.parse(header ?? "{}") as Record<string, unknown>;
    await writeFile(
      indexFile(),
      [JSON.stringify({ ...h, report_schema: "x" }), ...rest].join("\n"),
    );
    expect((await readRunIndex(dir)).runs.size).toBe(0);
    // A read rebuilds it.
    await readReports(dir);
    expect((await readRunIndex(dir)).runs.size).toBe(reports.length);
    // Cut in the middle of the last line: that run is read from its file, the others are not lost.
    const whole = await readFile(indexFile(), "utf8");
    await writeFile(indexFile(), whole.slice(0, whole.length - 20));
    expect((await readRunIndex(dir)).runs.size).toBe(reports.length - 1);
    const got = await readReports(dir);
    expect(got.reports).toHaveLength(reports.length);
    expect((await readRunIndex(dir)).runs.size).toBe(reports.length);
  });

  it("drops runs whose report is gone, and is neither read nor written with index: false", async () => {
    await readReports(dir);
    const gone = reports[0]?.run_id ?? "";
    await rm(path.join(dir, "runs", gone), { recursive: true });
    const got = await readReports(dir);
    expect(got.reports.map((r) => r.run_id)).not.toContain(gone);
    expect([...(await readRunIndex(dir)).runs.keys()]).not.toContain(gone);
    await rm(indexFile());
    await readReports(dir, { index: false });
    await expect(readFile(indexFile())).rejects.toThrow();
  });

  it("a report that does not parse stays a problem and never enters the index", async () => {
    await writeReport("wrong-shape", JSON.stringify({ ...makeReport(), rep: "one" }));
    const got = await readReports(dir);
    expect(got.problems.map((p) => path.basename(path.dirname(p.file))).sort()).toEqual([
      "broken-json",
      "wrong-shape",
    ]);
    expect((await readRunIndex(dir)).runs.has("wrong-shape")).toBe(false);
  });
});
