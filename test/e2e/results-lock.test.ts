/**
 * One writer per results folder (src/store/lock.ts), through the CLI: two `--resume` into one
 * folder never run a run twice; a live holder is named in the refusal (exit 2); a lock left by a
 * process killed with -9 is taken over.
 */
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  assertBuilt,
  fixtureSuite,
  makeSandbox,
  readJsonLines,
  reportedRunIds,
  runArgs,
  runCli,
  startCli,
  waitUntil,
  type Sandbox,
} from "../helpers/cli.js";

let box: Sandbox;

beforeAll(async () => {
  assertBuilt();
  box = await makeSandbox("lock");
});

afterAll(async () => {
  await box.remove();
});

const ONE_ARM = [
  "--task",
  "tone",
  "--treatment",
  "CONTROL",
  "--count",
  "2",
  "-j",
  "1",
  "--no-html",
];

/** Each run key of the model log → the agent sessions that asked for it. */
async function sessionsByRun(out: string): Promise<Map<string, Set<string>>> {
  const by = new Map<string, Set<string>>();
  for (const line of await readJsonLines(path.join(out, "model-requests.jsonl"))) {
    const run = line.run as { task: string; treatment: string; rep: number; role: string };
    const headers = line.headers as Record<string, string>;
    if (run.role !== "subject") continue;
    const key = `${run.task}-${run.treatment}-r${run.rep}`;
    const set = by.get(key) ?? new Set<string>();
    set.add(headers["x-claude-code-session-id"] ?? "");
    by.set(key, set);
  }
  return by;
}

describe("the results folder's lock", () => {
  it("two --resume --wait at once into one folder: each run runs once", async () => {
    const out = box.dir("both");
    const a = startCli(runArgs("e2e-matrix", out, "--resume", "--wait", ...ONE_ARM), {
      env: box.env(),
    });
    const b = startCli(runArgs("e2e-matrix", out, "--resume", "--wait", ...ONE_ARM), {
      env: box.env(),
    });
    const [ra, rb] = await Promise.all([a.done, b.done]);
    // CONTROL fails the tone check by design (exit 1); neither is refused nor crashes.
    expect(ra.code, ra.stderr).toBe(1);
    expect(rb.code, rb.stderr).toBe(1);
    expect(await reportedRunIds(out)).toEqual(["tone-CONTROL-r1", "tone-CONTROL-r2"]);
    const sessions = await sessionsByRun(out);
    expect([...sessions.keys()].sort()).toEqual(["tone-CONTROL-r1", "tone-CONTROL-r2"]);
    for (const [run, s] of sessions) expect(s.size, run).toBe(1);
    expect(existsSync(path.join(out, ".skillbench.lock"))).toBe(false);
  });

  it("a live holder is named in the refusal; its lock, once it is killed -9, is taken over", async () => {
    const out = box.dir("held");
    // A model that never answers: the holder stays in its first run until it is killed.
    const hang = path.join(box.root, "hang.yaml");
    await writeFile(hang, "version: 1\nrules:\n  - reply: {fault: {hang: true}}\n");
    const holderArgs = [
      "run",
      fixtureSuite("e2e-matrix"),
      "--model-script",
      hang,
      "--out",
      out,
      "--resume",
      ...ONE_ARM,
    ];
    const holder = startCli(holderArgs, { env: box.env() });
    const log = path.join(out, "model-requests.jsonl");
    await waitUntil(
      async () => (await readFile(log, "utf8").catch(() => "")).length > 0,
      holder.done,
      "the holder's first model request",
    );
    const lock = JSON.parse(await readFile(path.join(out, ".skillbench.lock"), "utf8")) as {
      pid: number;
    };
    expect(lock.pid).toBe(holder.child.pid);

    const refused = await runCli(runArgs("e2e-matrix", out, "--resume", ...ONE_ARM), {
      env: box.env(),
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      `is being written by another skillbench (pid ${holder.child.pid} on `,
    );
    expect(refused.stderr).toContain("skillbench run --resume");
    expect(refused.stderr).not.toMatch(/internal error|\n\s+at /);
    // The refused one asked the model nothing.
    expect((await sessionsByRun(out)).get("tone-CONTROL-r2")).toBeUndefined();

    holder.child.kill("SIGKILL");
    await holder.done;
    expect(existsSync(path.join(out, ".skillbench.lock"))).toBe(true);
    const resumed = await runCli(runArgs("e2e-matrix", out, "--resume", ...ONE_ARM), {
      env: box.env(),
    });
    expect(resumed.code, resumed.stderr).toBe(1);
    expect(resumed.stderr).toContain(`took over the lock of ${out} left by pid ${lock.pid}`);
    expect(await reportedRunIds(out)).toEqual(["tone-CONTROL-r1", "tone-CONTROL-r2"]);
    expect(existsSync(path.join(out, ".skillbench.lock"))).toBe(false);
  });
});
