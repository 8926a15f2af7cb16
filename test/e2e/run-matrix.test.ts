/**
 * `skillbench run` end to end on the e2e-matrix fixture suite (2 tasks × CONTROL/WITH_SKILL,
 * 4 runs): the required-skill hard failure, --resume after a killed run, and --concurrency.
 *
 * beforeAll does all the CLI work (about 9 claude spawns):
 *  1. a fresh run with -j4;
 *  2. a run with -j1 that is killed (SIGKILL to its process group) while one run's agent
 *     is held in flight by its model (a request that never gets an answer) after another
 *     run's report.json exists, then the same folder completed with --resume -j1 and the
 *     suite's own script (and resumed once more: nothing to do).
 * The tests then assert on the files. The -j1 experiment (killed + resumed) is the
 * reference that the -j4 experiment is compared with.
 */
import { readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { RunReport } from "../../src/core/report.js";
import { hashTree } from "../../src/util/hash.js";
import {
  fixtureSuite,
  killStrays,
  makeSandbox,
  readJsonLines,
  readRunReport,
  reportedRunIds,
  runArgs,
  runCli,
  startCli,
  waitUntil,
  type CliResult,
  type Sandbox,
} from "../helpers/cli.js";

const SUITE = "e2e-matrix";
/** The part of a model-requests.jsonl line that names the run. */
const RecordLine = z.object({
  run: z.object({ task: z.string(), treatment: z.string(), rep: z.number() }),
});

const RunEventType = z.object({ type: z.string() });

/** The rule (and its run) that the killed -j1 invocation's model holds unanswered. */
const HELD_RULE = "held-in-flight";
const HELD_RUN = "needs-skill-WITH_SKILL-r1";

const RUN_IDS = [
  "needs-skill-CONTROL-r1",
  "needs-skill-WITH_SKILL-r1",
  "tone-CONTROL-r1",
  "tone-WITH_SKILL-r1",
];

let sandbox: Sandbox;
let outJ4: string;
let outJ1: string;
let cliJ4: CliResult;
let killed: CliResult;
let resumed: CliResult;
/** What the killed run left behind: each finished report's bytes and mtime. */
let beforeResume: Map<string, { bytes: Buffer; mtimeMs: number }>;
/** Runs whose folder had a transcript but no report when the CLI was killed. */
let inFlightAtKill: string[];
let metadataAfterKill: Record<string, unknown>;
let modelLogBytesAfterKill: number;

async function readObject(file: string): Promise<Record<string, unknown>> {
  const v: unknown = JSON.parse(await readFile(file, "utf8"));
  if (typeof v !== "object" || v === null || Array.isArray(v))
    throw new Error(`${file}: not a JSON object`);
  return Object.fromEntries(Object.entries(v));
}

/** Run folders with a non-empty stdout.jsonl and no report.json. */
async function inFlightRuns(out: string): Promise<string[]> {
  const done = new Set(await reportedRunIds(out));
  const ids: string[] = [];
  for (const id of RUN_IDS) {
    if (done.has(id)) continue;
    const size = await stat(path.join(out, "runs", id, "stdout.jsonl")).then(
      (s) => s.size,
      () => 0,
    );
    if (size > 0) ids.push(id);
  }
  return ids;
}

async function reportsOf(out: string): Promise<Map<string, RunReport>> {
  const m = new Map<string, RunReport>();
  for (const id of RUN_IDS) m.set(id, await readRunReport(out, id));
  return m;
}

beforeAll(async () => {
  sandbox = await makeSandbox("e2e-matrix");
  outJ4 = sandbox.dir("out-j4");
  outJ1 = sandbox.dir("out-j1");

  cliJ4 = await runCli(runArgs(SUITE, outJ4, "--concurrency", "4"), { env: sandbox.env() });

  // The killed invocation's model never answers needs-skill-WITH_SKILL's first request: that
  // run stays in flight until the kill, whatever the machine's load (polling for "a report and
  // a transcript" alone raced the in-flight run's own end, between the last poll and the kill).
  const script = await readFile(path.join(fixtureSuite(SUITE), "model-script.yaml"), "utf8");
  const heldScript = path.join(sandbox.root, "held-model-script.yaml");
  await writeFile(
    heldScript,
    script.replace(
      /^rules:\n/m,
      `rules:\n  - name: ${HELD_RULE}\n    when: {task: needs-skill, treatment: WITH_SKILL}\n` +
        "    reply: {fault: {hang: true}}\n",
    ),
  );
  const heldArgs = runArgs(SUITE, outJ1, "--concurrency", "1");
  heldArgs[heldArgs.indexOf("--model-script") + 1] = heldScript;
  const first = startCli(heldArgs, { env: sandbox.env(), detached: true });
  // Kill once the held run has asked the model and started its transcript (its agent is in
  // flight); the runs before it in -j1 order have their reports by then.
  await waitUntil(
    async () =>
      (await readJsonLines(path.join(outJ1, "model-requests.jsonl")).catch(() => [])).some(
        (l) => (l.rule as { name?: string } | null)?.name === HELD_RULE,
      ) && (await inFlightRuns(outJ1)).includes(HELD_RUN),
    first.done,
    "the held run in flight",
  );
  const pid = first.child.pid;
  if (pid === undefined) throw new Error("the CLI has no pid");
  process.kill(-pid, "SIGKILL");
  killed = await first.done;
  // Its agents run in process groups of their own: end the ones left behind.
  await killStrays(sandbox.root);

  beforeResume = new Map();
  for (const id of await reportedRunIds(outJ1)) {
    const file = path.join(outJ1, "runs", id, "report.json");
    beforeResume.set(id, { bytes: await readFile(file), mtimeMs: (await stat(file)).mtimeMs });
  }
  inFlightAtKill = await inFlightRuns(outJ1);
  metadataAfterKill = await readObject(path.join(outJ1, "metadata.json"));
  modelLogBytesAfterKill = (await stat(path.join(outJ1, "model-requests.jsonl"))).size;

  resumed = await runCli(runArgs(SUITE, outJ1, "--concurrency", "1", "--resume"), {
    env: sandbox.env(),
  });
}, 400_000);

afterAll(async () => {
  await sandbox?.remove();
});

describe("6. required skill: hard failure under CONTROL, pass WITH the skill", () => {
  it('CONTROL: "Required skill not invoked: greeter" although the validator passed', async () => {
    expect(cliJ4.stderr).not.toMatch(/internal error/);
    const r = await readRunReport(outJ4, "needs-skill-CONTROL-r1");
    expect(r.checks_passed).toEqual(["note_text"]);
    expect(r.checks_failed).toEqual(["Required skill not invoked: greeter"]);
    expect(r).toMatchObject({
      passed: false,
      status: "failed",
      outcome: "completed",
      skill_sources: [],
    });
    expect(r.events_summary?.skills_invoked).toEqual([]);
    expect(r.rubric?.dimensions.find((d) => d.name === "skill_invocation")?.score).toBe(0);
  });

  it("WITH_SKILL: passes, the skill was invoked, and its hash is in skill_sources", async () => {
    const r = await readRunReport(outJ4, "needs-skill-WITH_SKILL-r1");
    expect(r).toMatchObject({
      passed: true,
      status: "passed",
      checks_failed: [],
      checks_passed: ["note_text"],
    });
    expect(r.events_summary?.skills_invoked).toContain("greeter");
    const skillDir = path.join(fixtureSuite(SUITE), "skills", "greeter");
    expect(r.skill_sources).toEqual([
      { name: "greeter", source_type: "path", path: skillDir, hash: await hashTree(skillDir) },
    ]);
    expect(r.rubric?.dimensions.find((d) => d.name === "skill_invocation")?.score).toBe(1);
  });
});

describe("8. --resume after a killed run", () => {
  it("the kill left a partial results folder", () => {
    expect(killed.signal).toBe("SIGKILL");
    expect(beforeResume.size).toBeGreaterThanOrEqual(1);
    expect(beforeResume.size).toBeLessThan(RUN_IDS.length);
    expect(inFlightAtKill).toEqual([HELD_RUN]);
    expect(metadataAfterKill.completed_at).toBeNull();
  });

  it("the run that was in flight was done again from scratch: one transcript, not two", async () => {
    const [id] = inFlightAtKill;
    if (id === undefined) throw new Error("no run was in flight");
    const r = await readRunReport(outJ1, id);
    expect(r.status).not.toBe("errored");
    const lines = (await readFile(path.join(outJ1, "runs", id, "stdout.jsonl"), "utf8"))
      .split("\n")
      .filter((l) => l.trim() !== "");
    const types = lines.map((l) => RunEventType.parse(JSON.parse(l)).type);
    expect(types.filter((t) => t === "result")).toHaveLength(1);
    expect(lines.filter((l) => l.includes('"subtype":"init"'))).toHaveLength(1);
  });

  it("the resumed CLI plans only the runs without a report", () => {
    expect(resumed.stderr).not.toMatch(/internal error/);
    const done = beforeResume.size;
    expect(resumed.stderr).toContain(
      `${RUN_IDS.length} runs planned (${RUN_IDS.length - done} to run, ${done} already complete)`,
    );
    expect(resumed.code).toBe(1); // the CONTROL runs fail
  });

  it("no run is done twice: the finished reports are untouched and their runs got no model request", async () => {
    for (const [id, before] of beforeResume) {
      const file = path.join(outJ1, "runs", id, "report.json");
      expect((await readFile(file)).equals(before.bytes), `${id}/report.json changed`).toBe(true);
      expect((await stat(file)).mtimeMs).toBe(before.mtimeMs);
    }
    const log = await readFile(path.join(outJ1, "model-requests.jsonl"));
    const newLines = log.subarray(modelLogBytesAfterKill).toString("utf8");
    const runsAsked = new Set(
      newLines
        .split("\n")
        .filter((l) => l.trim() !== "")
        .map((l) => RecordLine.parse(JSON.parse(l)).run)
        .map((r) => `${r.task}-${r.treatment}-r${r.rep}`),
    );
    for (const id of beforeResume.keys())
      expect(runsAsked.has(id), `${id} was run again`).toBe(false);
    for (const id of RUN_IDS.filter((x) => !beforeResume.has(x)))
      expect(runsAsked.has(id), `${id} was not run`).toBe(true);
  });

  it("none is lost: every planned report exists, in one experiment, and summary.md lists them all", async () => {
    const reports = await reportsOf(outJ1);
    expect([...reports.keys()]).toEqual(RUN_IDS);
    const experimentIds = new Set([...reports.values()].map((r) => r.experiment_id));
    expect([...experimentIds]).toEqual([metadataAfterKill.experiment_id]);
    const meta = await readObject(path.join(outJ1, "metadata.json"));
    expect(meta.experiment_id).toBe(metadataAfterKill.experiment_id);
    expect(meta.completed_at).toEqual(expect.any(String));
    expect(meta.total_passed).toBe(2);
    const summary = await readFile(path.join(outJ1, "summary.md"), "utf8");
    for (const id of RUN_IDS) expect(summary).toContain(`\`${id}\``);
    expect(summary).toContain("- Total Runs: 4");
    expect(summary).toContain("- Runs Passed: 2/4");
  });
  it("a second --resume of the complete folder runs nothing and changes no report", async () => {
    const before = new Map<string, Buffer>();
    for (const id of RUN_IDS)
      before.set(id, await readFile(path.join(outJ1, "runs", id, "report.json")));
    const again = await runCli(runArgs(SUITE, outJ1, "--concurrency", "1", "--resume"), {
      env: sandbox.env(),
    });
    expect(again.stderr).toContain(
      `${RUN_IDS.length} runs planned (0 to run, ${RUN_IDS.length} already complete)`,
    );
    expect(again.code).toBe(1);
    expect(again.stdout).toContain("2/4 runs passed");
    for (const [id, bytes] of before)
      expect((await readFile(path.join(outJ1, "runs", id, "report.json"))).equals(bytes)).toBe(
        true,
      );
  });
});

describe("9. --concurrency 4 gives the same results as --concurrency 1", () => {
  it("the -j4 runs really overlapped, the -j1 runs did not", async () => {
    const j4 = [...(await reportsOf(outJ4)).values()];
    const lastStart = Math.max(...j4.map((r) => Date.parse(r.timing.started_at)));
    const firstEnd = Math.min(...j4.map((r) => Date.parse(r.timing.finished_at)));
    expect(lastStart).toBeLessThanOrEqual(firstEnd);
    expect((await readObject(path.join(outJ4, "metadata.json"))).concurrency).toBe(4);
    expect((await readObject(path.join(outJ1, "metadata.json"))).concurrency).toBe(1);
    expect(cliJ4.code).toBe(1);
    expect(cliJ4.stdout).toContain("2/4 runs passed");
  });

  it.each(RUN_IDS)("%s: passed, checks and rubric scores are equal", async (id) => {
    const shape = (r: RunReport) => ({
      passed: r.passed,
      status: r.status,
      outcome: r.outcome,
      checks_passed: r.checks_passed,
      checks_failed: r.checks_failed,
      dimensions: r.rubric?.dimensions.map((d) => ({ name: d.name, score: d.score })),
      weighted_score: r.rubric?.weighted_score,
      skills_invoked: r.events_summary?.skills_invoked,
      files_created: r.events_summary?.files_created,
    });
    expect(shape(await readRunReport(outJ4, id))).toEqual(shape(await readRunReport(outJ1, id)));
  });
});
