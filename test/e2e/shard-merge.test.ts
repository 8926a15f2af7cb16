/**
 * `run --shard I/N` and `skillbench merge` (docs/distributed.md): a suite run as 3 shards and
 * merged gives the reports of one run (apart from timings and ids); merge refuses a folder of
 * another plan, naming the difference, and folders run differently unless --allow-drift; a merge
 * killed with SIGKILL midway leaves its inputs as they were and a second merge completes.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { cp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  assertBuilt,
  filesUnder,
  makeSandbox,
  reportedRunIds,
  runArgs,
  runCli,
  startCli,
  waitUntil,
  type CliResult,
  type Sandbox,
} from "../helpers/cli.js";

let box: Sandbox;
let whole: string;
let shards: string[];
let otherPlan: string;
const SUITE = "e2e-matrix";
const ALL_RUNS = [
  "needs-skill-CONTROL-r1",
  "needs-skill-CONTROL-r2",
  "needs-skill-WITH_SKILL-r1",
  "needs-skill-WITH_SKILL-r2",
  "tone-CONTROL-r1",
  "tone-CONTROL-r2",
  "tone-WITH_SKILL-r1",
  "tone-WITH_SKILL-r2",
];

const ok = (r: CliResult): void => expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);

beforeAll(async () => {
  assertBuilt();
  box = await makeSandbox("shard-merge");
  whole = box.dir("whole");
  shards = [1, 2, 3].map((i) => box.dir(`shard-${i}`));
  otherPlan = box.dir("other-plan");
  const env = box.env();
  const runs = await Promise.all([
    runCli(runArgs(SUITE, whole, "--count", "2", "--exit-zero"), { env }),
    ...shards.map((dir, i) =>
      runCli(runArgs(SUITE, dir, "--count", "2", "--shard", `${i + 1}/3`, "--exit-zero"), { env }),
    ),
    runCli(runArgs(SUITE, otherPlan, "--count", "1", "--task", "tone", "--exit-zero"), { env }),
  ]);
  runs.forEach(ok);
}, 300_000);

afterAll(async () => {
  await box.remove();
});

/** Every file under `dir` with its bytes' hash and its mtime: what "untouched" means. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const rel of await filesUnder(dir)) {
    const file = path.join(dir, rel);
    const st = await stat(file);
    out[rel] = `${st.mtimeMs}:${createHash("sha256")
      .update(await readFile(file))
      .digest("hex")}`;
  }
  return out;
}

/** A report's text without what differs between two runs of the same plan: ids, times, paths. */
function neutral(text: string, dir: string): string {
  return text
    .split(dir)
    .join("<DIR>")
    .replace(/\d{8}-\d{6}-[0-9a-f]{6}/g, "<ID>")
    .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, "<TIME>")
    .replace(/\bdur=\d+s\b/g, "dur=<T>")
    .replace(/\b\d+(\.\d+)?s\b/g, "<T>")
    .replace(/"(avg_)?duration_seconds": [\d.]+/g, '"$1duration_seconds": <T>');
}

async function reportsOf(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const f of ["summary.md", "comparison_report.md", "comparison.json"])
    out[f] = neutral(await readFile(path.join(dir, f), "utf8"), dir);
  return out;
}

/** The run lines of a results folder's index (header and shared values left out). */
async function indexedRuns(dir: string): Promise<string[]> {
  const text = await readFile(path.join(dir, ".run-index.jsonl"), "utf8");
  return text
    .split("\n")
    .slice(1)
    .filter((l) => l !== "" && !l.startsWith("\t"))
    .map((l) => l.split("\t")[0] ?? "")
    .sort();
}

describe("run --shard I/N", () => {
  it("runs a slice each, whole (task, rep) pairs, every run in exactly one shard", async () => {
    const slices = await Promise.all(shards.map((d) => reportedRunIds(d)));
    expect(slices).toEqual([
      [
        "needs-skill-CONTROL-r1",
        "needs-skill-WITH_SKILL-r1",
        "tone-CONTROL-r2",
        "tone-WITH_SKILL-r2",
      ],
      ["needs-skill-CONTROL-r2", "needs-skill-WITH_SKILL-r2"],
      ["tone-CONTROL-r1", "tone-WITH_SKILL-r1"],
    ]);
    expect(slices.flat().sort()).toEqual(ALL_RUNS);
    const meta = JSON.parse(
      await readFile(path.join(shards[1] ?? "", "metadata.json"), "utf8"),
    ) as {
      shard: unknown;
      plan: { fingerprint: string; runs: number };
      matrix: unknown[];
    };
    const wholeMeta = JSON.parse(await readFile(path.join(whole, "metadata.json"), "utf8")) as {
      plan: { fingerprint: string };
      shard?: unknown;
    };
    expect(meta.shard).toEqual({ index: 2, count: 3 });
    expect(meta.plan.runs).toBe(8);
    expect(meta.matrix).toHaveLength(2);
    expect(meta.plan.fingerprint).toBe(wholeMeta.plan.fingerprint);
    expect(wholeMeta.shard).toBeUndefined();
  });

  it("runs the same slice on --resume, and refuses another shard's folder", async () => {
    const dir = box.dir("resumed");
    await cp(shards[2] ?? "", dir, { recursive: true });
    const again = await runCli(
      runArgs(SUITE, dir, "--count", "2", "--shard", "3/3", "--resume", "--exit-zero"),
      { env: box.env() },
    );
    ok(again);
    expect(again.stdout).toMatch(/\/2 runs passed/);
    expect(await reportedRunIds(dir)).toEqual(["tone-CONTROL-r1", "tone-WITH_SKILL-r1"]);
    const other = await runCli(
      runArgs(SUITE, dir, "--count", "2", "--shard", "1/3", "--resume", "--exit-zero"),
      { env: box.env() },
    );
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/holds shard 3\/3: resume it with --shard 3\/3/);
  });
});

describe("skillbench merge", () => {
  let merged: string;

  beforeAll(async () => {
    merged = box.dir("merged");
    const before = await Promise.all(shards.map(snapshot));
    const res = await runCli(["merge", merged, ...shards], { env: box.env() });
    ok(res);
    expect(res.stdout).toMatch(/merged 3 folder\(s\): 8\/8 run\(s\)/);
    // The inputs are only read.
    expect(await Promise.all(shards.map(snapshot))).toEqual(before);
  });

  it("gives the reports of one run of the whole plan (apart from timings and ids)", async () => {
    expect(await reportsOf(merged)).toEqual(await reportsOf(whole));
    expect(await reportedRunIds(merged)).toEqual(ALL_RUNS);
  });

  it("writes the run index as it copies the runs: current before any report is asked for", async () => {
    expect(await indexedRuns(merged)).toEqual(ALL_RUNS);
    const meta = JSON.parse(await readFile(path.join(merged, "metadata.json"), "utf8")) as {
      merge: { from: Array<{ shard: unknown }>; drift: string[] };
      shard?: unknown;
      completed_at: string | null;
    };
    expect(meta.merge.from.map((f) => f.shard)).toEqual([
      { index: 1, count: 3 },
      { index: 2, count: 3 },
      { index: 3, count: 3 },
    ]);
    expect(meta.merge.drift).toEqual([]);
    expect(meta.shard).toBeUndefined();
    expect(meta.completed_at).not.toBeNull();
  });

  it("keeps a run found in two folders once", async () => {
    const out = box.dir("merged-twice");
    const res = await runCli(["merge", out, ...shards, shards[0] ?? ""], { env: box.env() });
    ok(res);
    const copy = box.dir("shard-1-copy");
    await cp(shards[0] ?? "", copy, { recursive: true });
    const res2 = await runCli(["merge", box.dir("merged-copy"), ...shards, copy], {
      env: box.env(),
    });
    ok(res2);
    expect(res2.stdout).toMatch(/8\/8 run\(s\), 4 found twice \(kept once\)/);
    expect(await indexedRuns(box.dir("merged-copy"))).toEqual(ALL_RUNS);
  });

  it("refuses a folder of another plan, naming the difference (exit 2)", async () => {
    const out = box.dir("merged-other");
    const res = await runCli(["merge", out, shards[0] ?? "", otherPlan, "--allow-drift"], {
      env: box.env(),
    });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`${otherPlan} is not of the same plan as ${shards[0] ?? ""}`);
    expect(res.stderr).toMatch(/repetitions \(--count\): \S+ 2, \S+ 1/);
    expect(res.stderr).toMatch(/planned only in \S+shard-1: needs-skill × CONTROL \(claude\)/);
    expect(existsSync(out)).toBe(false);
  });

  it("refuses folders of another suite version unless --allow-drift, which records it", async () => {
    const drifted = box.dir("shard-2-drifted");
    await cp(shards[1] ?? "", drifted, { recursive: true });
    const file = path.join(drifted, "metadata.json");
    const meta = JSON.parse(await readFile(file, "utf8")) as { suite: { hash: string } };
    meta.suite.hash = `sha256:${"0".repeat(64)}`;
    await writeFile(file, JSON.stringify(meta));
    const args = ["merge", box.dir("merged-drift"), shards[0] ?? "", drifted, shards[2] ?? ""];
    const refused = await runCli(args, { env: box.env() });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/suite hash: \S+shard-1 sha256:\w+, \S+drifted sha256:000000/);
    expect(refused.stderr).toMatch(/--allow-drift/);
    const allowed = await runCli([...args, "--allow-drift"], { env: box.env() });
    ok(allowed);
    const out = JSON.parse(
      await readFile(path.join(box.dir("merged-drift"), "metadata.json"), "utf8"),
    ) as {
      merge: { drift: string[] };
    };
    expect(out.merge.drift).toEqual([expect.stringMatching(/^suite hash: /)]);
  });

  it("says which shards are missing, and merges what there is", async () => {
    const out = box.dir("merged-partial");
    const res = await runCli(["merge", out, shards[0] ?? "", shards[2] ?? ""], { env: box.env() });
    ok(res);
    expect(res.stderr).toMatch(/not among the folders: shard\(s\) 2\/3/);
    expect(await reportedRunIds(out)).toHaveLength(6);
  });

  it("killed with SIGKILL midway, leaves its inputs untouched, and a second merge completes", async () => {
    const out = box.dir("merged-killed");
    const fifo = box.dir("hold.fifo");
    execFileSync("mkfifo", [fifo]);
    // A folder without its index (upload-artifact leaves hidden files out): read, not indexed.
    await rm(path.join(shards[1] ?? "", ".run-index.jsonl"));
    const before = await Promise.all(shards.map(snapshot));
    const first = startCli(["merge", out, ...shards], {
      env: box.env({ SKILLBENCH_MERGE_HOLD: `3:${fifo}` }),
      detached: true,
    });
    await waitUntil(
      async () => first.stderrSoFar().includes("holding after 3 run(s) copied"),
      first.done,
      "the merge held after 3 runs",
    );
    // Held midway: runs copied into the temporary folder beside OUT, OUT not there yet.
    const beside = (await readdir(box.root)).filter((n) => n.startsWith(".merged-killed.merge-"));
    expect(beside).toHaveLength(1);
    expect(existsSync(out)).toBe(false);
    expect(await readdir(path.join(box.root, beside[0] ?? "", "runs"))).toHaveLength(3);
    first.child.kill("SIGKILL");
    expect((await first.done).signal).toBe("SIGKILL");

    expect(await Promise.all(shards.map(snapshot))).toEqual(before);
    const again = await runCli(["merge", out, ...shards], { env: box.env() });
    ok(again);
    expect(await reportedRunIds(out)).toEqual(ALL_RUNS);
    expect(await indexedRuns(out)).toEqual(ALL_RUNS);
    expect(await reportsOf(out)).toEqual(await reportsOf(whole));
    // The killed merge's temporary folder is gone.
    expect((await readdir(box.root)).filter((n) => n.includes(".merge-"))).toEqual([]);
  });
});
