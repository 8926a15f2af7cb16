import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { stat } from "node:fs/promises";
import { digestOf } from "../../../src/core/digest.js";
import { RunReportSchema } from "../../../src/core/report.js";
import { readReports, readStoredRuns, type ReportCache } from "../../../src/store/read.js";
import {
  appendRunIndexLine,
  IndexReports,
  indexStamp,
  readRunIndex as readIndex,
  RUN_INDEX_FILE,
  SharedValues,
} from "../../../src/store/run-index.js";
import { makeReport, reps } from "../report/helpers.js";

let dir: string;
const reports = [...reps("CONTROL", 3, [1, 0]), ...reps("WITH_SKILL", 3, [1, 1])];
const indexFile = (): string => path.join(dir, RUN_INDEX_FILE);

async function writeReport(id: string, text: string): Promise<void> {
  await mkdir(path.join(dir, "runs", id), { recursive: true });
  await writeFile(path.join(dir, "runs", id, "report.json"), text);
}

/** The digests the index holds, by run id. */
async function readRunIndex(d: string): Promise<{ runs: Map<string, { rep: number }> }> {
  const source = await IndexReports.open(d);
  try {
    const runs = new Map<string, { rep: number }>();
    await readIndex(
      source,
      () => "parse",
      (id, digest) => digest && runs.set(id, digest),
    );
    return { runs };
  } finally {
    await source?.close();
  }
}

/**
 * Change what the index says about one run (digest, and report when its line holds one),
 * keeping its stamp: a read that shows it used the index.
 */
async function tamper(id: string, task: string): Promise<void> {
  const lines = (await readFile(indexFile(), "utf8")).split("\n");
  const at = lines.findIndex((l) => l.startsWith(`${id}\t`));
  const [rid, stamp, refs, digest, report] = (lines[at] ?? "").split("\t");
  const set = (json: string | undefined): string =>
    json ? JSON.stringify({ ...JSON.parse(json), task }) : "";
  lines[at] = [rid, stamp, refs, set(digest), set(report)].join("\t");
  await writeFile(indexFile(), lines.join("\n"));
}

/** The index as the runs' commits write it: a line per run, with its report's JSON (`except`: runs left out). */
async function commitIndex(except: readonly string[] = []): Promise<void> {
  for (const r of reports) {
    if (except.includes(r.run_id)) continue;
    const st = await stat(path.join(dir, "runs", r.run_id, "report.json"));
    const parsed = RunReportSchema.parse(r);
    appendRunIndexLine(dir, r.run_id, indexStamp(st), digestOf(parsed), JSON.stringify(parsed));
  }
}

/** The report text field of each run line of the index, by run id ("" when the line holds none). */
async function reportFields(): Promise<Map<string, string>> {
  const lines = (await readFile(indexFile(), "utf8")).split("\n").slice(1);
  const runs = lines.filter((l) => l !== "" && !l.startsWith("\t")).map((l) => l.split("\t"));
  return new Map(runs.map((f) => [f[0] ?? "", f[4] ?? ""]));
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
    await commitIndex();
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
    const digests = await readStoredRuns(dir);
    expect(digests.digests.find((r) => r.run_id === a?.run_id)?.task).toBe("from-the-index");
    const rb = got.reports.find((r) => r.run_id === b?.run_id);
    expect(rb?.task).toBe(b?.task);
    expect(rb?.rep).toBe(7);
    // ... and the index was written again with b's new report.
    const again = await readRunIndex(dir);
    expect(again.runs.get(b?.run_id ?? "")?.rep).toBe(7);
  });

  it("written by a reading, holds digests without report text: full reports come from report.json; a rewrite keeps the committed runs' text", async () => {
    // A folder without an index: the reading indexes every run, without its report's text.
    const cold = await readReports(dir);
    expect([...(await reportFields()).values()]).toEqual(reports.map(() => ""));
    const [a, b] = reports;
    await tamper(a?.run_id ?? "", "from-the-index");
    const runs = await readStoredRuns(dir);
    expect(runs.digests.find((d) => d.run_id === a?.run_id)?.task).toBe("from-the-index");
    const full: string[] = [];
    await runs.reports([a?.run_id ?? ""], (r) => void full.push(r.task));
    expect(full).toEqual([a?.task]);
    expect((await readReports(dir)).reports).toEqual(cold.reports);
    // Committed lines (with text) for all runs but b; b's report.json rewritten since: the
    // reading writes the index again, b without text, the others with theirs.
    await rm(indexFile());
    await commitIndex([b?.run_id ?? ""]);
    await writeReport(b?.run_id ?? "", JSON.stringify({ ...b, rep: 9 }, null, 2));
    const again = await readReports(dir);
    expect(again.reports.find((r) => r.run_id === b?.run_id)?.rep).toBe(9);
    const fields = await reportFields();
    expect(fields.get(b?.run_id ?? "")).toBe("");
    for (const r of reports)
      if (r.run_id !== b?.run_id)
        expect(JSON.parse(fields.get(r.run_id) ?? "null")).toEqual(RunReportSchema.parse(r));
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

  it('is read but never written with index: "read" (merge leaves its inputs as they are)', async () => {
    const all = (await readReports(dir, { index: false })).reports.map((r) => r.run_id);
    // No index: every report from its file, and no index written.
    const first = await readReports(dir, { index: "read" });
    expect(first.reports.map((r) => r.run_id)).toEqual(all);
    await expect(readFile(indexFile())).rejects.toThrow();
    // A stale index (one run gone): used for the others, left as it was.
    await commitIndex();
    await tamper(reports[1]?.run_id ?? "", "from-the-index");
    const before = await readFile(indexFile(), "utf8");
    await rm(path.join(dir, "runs", reports[0]?.run_id ?? ""), { recursive: true });
    const got = await readReports(dir, { index: "read" });
    expect(got.reports.map((r) => r.task)).toContain("from-the-index");
    expect(got.reports).toHaveLength(all.length - 1);
    expect(await readFile(indexFile(), "utf8")).toBe(before);
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

describe("the run index's shared values, appended lines and report ranges", () => {
  it("holds a value that repeats across runs once, frozen, and gives equal digests", async () => {
    await readReports(dir);
    const { digests } = await readStoredRuns(dir);
    expect(digests).toEqual((await readReports(dir, { index: false })).reports.map(digestOf));
    const [a, b] = digests;
    expect(a?.agent).toEqual(b?.agent);
    expect(a?.agent).toBe(b?.agent);
    expect(Object.isFrozen(a?.agent)).toBe(true);
    const text = await readFile(indexFile(), "utf8");
    const agentLines = text
      .split("\n")
      .filter((l) => l.startsWith("\t") && l.includes('"claude-code"'));
    expect(agentLines).toHaveLength(1);
  });

  it("takes a line a committed run appended, without writing the index again", async () => {
    await readReports(dir);
    const r = makeReport({ task: "task-new", treatment: "CONTROL", rep: 1, passed: true });
    const text = JSON.stringify(r);
    await writeReport(r.run_id, text);
    const st = await stat(path.join(dir, "runs", r.run_id, "report.json"));
    // What the appended line says wins while the stamp matches: marked so the test can tell.
    const marked = { ...r, outcome_detail: "from-the-appended-line" };
    appendRunIndexLine(dir, r.run_id, indexStamp(st), digestOf(marked), JSON.stringify(marked));
    const before = await stat(indexFile());
    const got = await readStoredRuns(dir);
    expect(got.digests.find((d) => d.run_id === r.run_id)?.outcome_detail).toBe(
      "from-the-appended-line",
    );
    expect((await stat(indexFile())).ino).toBe(before.ino);
    const full: string[] = [];
    await got.reports([r.run_id], (x) => void full.push(x.outcome_detail));
    expect(full).toEqual(["from-the-appended-line"]);
  });

  it("a line cut short by a crash, followed by another appended line, costs only those runs a read from their files", async () => {
    await readReports(dir);
    await writeFile(indexFile(), `${await readFile(indexFile(), "utf8")}run-x\t1:2:3\t\t{"ta`);
    const r = makeReport({ task: "task-z", treatment: "CONTROL", rep: 1, passed: true });
    await writeReport(r.run_id, JSON.stringify(r));
    const st = await stat(path.join(dir, "runs", r.run_id, "report.json"));
    appendRunIndexLine(dir, r.run_id, indexStamp(st), digestOf(r), JSON.stringify(r));
    const got = await readReports(dir);
    expect(got.reports.map((x) => x.run_id).sort()).toEqual(
      [...reports.map((x) => x.run_id), r.run_id].sort(),
    );
    expect((await readRunIndex(dir)).runs.size).toBe(reports.length + 1);
  });

  it("reports() hands out full reports in the order asked, and from report.json when the index was replaced since", async () => {
    await commitIndex();
    const runs = await readStoredRuns(dir);
    const ids = runs.digests.map((d) => d.run_id).reverse();
    const got: string[] = [];
    await runs.reports(ids, (r) => void got.push(r.run_id));
    expect(got).toEqual(ids);
    // Another reader writes the index again in another order: the ranges no longer fit.
    const text = await readFile(indexFile(), "utf8");
    const [header, ...lines] = text.trimEnd().split("\n");
    await writeFile(indexFile(), `${[header, ...lines.reverse()].join("\n")}\n`);
    const again: string[] = [];
    await runs.reports(ids, (r) => void again.push(r.run_id));
    expect(again).toEqual(ids);
    const whole = (await readReports(dir, { index: false })).reports;
    const full: unknown[] = [];
    await runs.reports(
      whole.map((r) => r.run_id),
      (r) => void full.push(r),
    );
    expect(full).toEqual(whole);
  });

  it("reports() finds a run whose folder was renamed by hand, from the index and from its file", async () => {
    const r = makeReport({ task: "task-moved", treatment: "CONTROL", rep: 1, passed: true });
    await writeReport("moved-by-hand", JSON.stringify(r, null, 2));
    for (const index of [true, false]) {
      const runs = await readStoredRuns(dir, { index });
      expect(runs.digests.map((d) => d.run_id)).toContain(r.run_id);
      const got: unknown[] = [];
      await runs.reports([r.run_id, "no-such-run"], (x) => void got.push(x));
      expect(got).toEqual([r]);
    }
  });

  it("with a cache, a second read takes unchanged runs from it and reads again the one rewritten", async () => {
    const cache: ReportCache = new Map();
    const first = await readStoredRuns(dir, { cache });
    const changed = reports[1];
    if (!changed) throw new Error("fixture");
    await writeReport(
      changed.run_id,
      JSON.stringify({ ...changed, task: "task-rewritten" }, null, 2),
    );
    const second = await readStoredRuns(dir, { cache });
    const byId = (rs: typeof first.digests) => new Map(rs.map((d) => [d.run_id, d]));
    const a = byId(first.digests);
    const b = byId(second.digests);
    expect(b.get(changed.run_id)?.task).toBe("task-rewritten");
    for (const r of reports)
      if (r.run_id !== changed.run_id) expect(b.get(r.run_id)).toBe(a.get(r.run_id));
    expect(second.problems.map((p) => path.basename(path.dirname(p.file)))).toEqual([
      "broken-json",
    ]);
    const full: string[] = [];
    await second.reports([changed.run_id], (r) => void full.push(r.task));
    expect(full).toEqual(["task-rewritten"]);
  });

  it("reads a line longer than its read buffer (a run with a 5 MB failure message)", async () => {
    const big = makeReport({
      task: "task-big",
      treatment: "CONTROL",
      rep: 1,
      passed: false,
      failed: [`huge: ${"x".repeat(5_000_000)}`],
    });
    await writeReport(big.run_id, JSON.stringify(big));
    await readReports(dir);
    const got = await readStoredRuns(dir);
    expect(got.digests.find((d) => d.run_id === big.run_id)?.checks_failed[0]).toHaveLength(
      5_000_006,
    );
    expect((await readRunIndex(dir)).runs.size).toBe(reports.length + 1);
    const full: number[] = [];
    await got.reports([big.run_id], (r) => void full.push(r.checks_failed[0]?.length ?? 0));
    expect(full).toEqual([5_000_006]);
  });

  it("reports() never hands out another run's report when the bytes at a run's range are another run's", async () => {
    await commitIndex();
    const runs = await readStoredRuns(dir);
    const source = await IndexReports.open(dir);
    const ranges: Array<{ id: string; at: number; len: number }> = [];
    await readIndex(
      source,
      () => "parse",
      (id, _digest, range) => range && ranges.push({ id, ...range }),
    );
    await source?.close();
    // Another writer's index put run b's report JSON exactly where run a's range points
    // (padded with spaces, which JSON allows).
    const [b, a] = ranges.sort((x, y) => x.len - y.len);
    const buf = await readFile(indexFile());
    const bJson = Buffer.from(buf.subarray(b?.at ?? 0, (b?.at ?? 0) + (b?.len ?? 0)));
    buf.fill(0x20, a?.at ?? 0, (a?.at ?? 0) + (a?.len ?? 0));
    bJson.copy(buf, a?.at ?? 0);
    await writeFile(indexFile(), buf);
    const got: string[] = [];
    await runs.reports([a?.id ?? ""], (r) => void got.push(r.run_id));
    expect(got).toEqual([a?.id]);
  });
});

describe("SharedValues: one shared value per JSON text, whether found among the recent values or by its text", () => {
  const base = digestOf(RunReportSchema.parse(makeReport()));
  // Each case: the agent values interned in turn, and which of them must share one value.
  const cases: Array<{ name: string; agents: unknown[]; same: number[][] }> = [
    {
      name: "equal values, separate objects",
      agents: [
        { name: "claude-code", bin: "x", version: "1" },
        { name: "claude-code", bin: "x", version: "1" },
      ],
      same: [[0, 1]],
    },
    {
      name: "the same keys in another order: another JSON text, another value",
      agents: [
        { name: "claude-code", bin: "x", version: "1" },
        { bin: "x", name: "claude-code", version: "1" },
      ],
      same: [[0], [1]],
    },
    {
      name: "an undefined key is left out of the text: equal to the value without it",
      agents: [
        { name: "claude-code", bin: "x", version: "1" },
        { name: "claude-code", bin: "x", version: "1", extra: undefined },
      ],
      same: [[0, 1]],
    },
    {
      name: "NaN is written null: equal to a null",
      agents: [
        { name: "claude-code", bin: null, version: Number.NaN },
        { name: "claude-code", bin: null, version: null },
      ],
      same: [[0, 1]],
    },
    {
      name: "a value seen again after more than the recent ones: found by its text",
      agents: [1, 2, 3, 4, 5, 6, 1].map((v) => ({
        name: "claude-code",
        bin: null,
        version: String(v),
      })),
      same: [[0, 6], [1], [2], [3], [4], [5]],
    },
    {
      name: "arrays: order and length count",
      agents: [
        { name: "claude-code", bin: null, version: null, l: [1, 2] },
        { name: "claude-code", bin: null, version: null, l: [2, 1] },
        { name: "claude-code", bin: null, version: null, l: [1, 2, 3] },
        { name: "claude-code", bin: null, version: null, l: [1, 2] },
      ],
      same: [[0, 3], [1], [2]],
    },
  ];
  for (const c of cases)
    it(c.name, () => {
      const shared = new SharedValues();
      const fresh: string[] = [];
      const got = c.agents.map(
        (agent, i) =>
          shared.intern(`r${i}`, "1:2:3", { ...base, agent } as typeof base, (_k, json) =>
            fresh.push(json),
          ).digest.agent,
      );
      for (const group of c.same) {
        for (const i of group) expect(got[i]).toBe(got[group[0] ?? 0]);
        expect(JSON.stringify(got[group[0] ?? 0])).toBe(JSON.stringify(c.agents[group[0] ?? 0]));
      }
      // One shared-value line per distinct agent text (and one for each other shared field).
      const agentTexts = new Set(c.agents.map((a) => JSON.stringify(a)));
      expect(fresh.filter((j) => agentTexts.has(j))).toHaveLength(agentTexts.size);
    });
});
