/**
 * Interrupted commands and what a killed one leaves (issue 40.6, 39.8): SIGINT exits 130 and
 * SIGTERM 143 whatever --exit-zero says; after kill -9 of a `run` under --sandbox local, the next
 * `run` removes its temporary folders and kills the process that escaped its agent's turn.
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import { setTimeout as delay } from "node:timers/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  REPO_ROOT,
  assertBuilt,
  fixtureSuite,
  killStrays,
  makeSandbox,
  runArgs,
  runCli,
  startCli,
  waitUntil,
  type Sandbox,
} from "../helpers/cli.js";

let box: Sandbox;
beforeAll(async () => {
  assertBuilt();
  box = await makeSandbox("interrupt-sweep");
});
afterAll(async () => {
  await box.remove();
});

const ONE = ["--task", "tone", "--treatment", "CONTROL", "--count", "2", "--no-html"];

/** A run whose model never answers, started; resolves once its agent has asked. */
async function hangingRun(name: string, ...extra: string[]) {
  const out = box.dir(name);
  const script = path.join(box.root, "hang.yaml");
  await writeFile(script, "version: 1\nrules:\n  - reply: {fault: {hang: true}}\n");
  const cli = startCli(
    ["run", fixtureSuite("e2e-matrix"), "--model-script", script, "--out", out, ...ONE, ...extra],
    { env: box.env() },
  );
  await waitUntil(
    async () =>
      (await readFile(path.join(out, "model-requests.jsonl"), "utf8").catch(() => "")).length > 0,
    cli.done,
    "the first model request",
  );
  return cli;
}

/** Every process whose environment carries a run marker of pid `owner`. */
async function markedBy(owner: number): Promise<number[]> {
  const found: number[] = [];
  for (const p of await readdir("/proc")) {
    if (!/^\d+$/.test(p)) continue;
    const env = await readFile(`/proc/${p}/environ`, "latin1").catch(() => "");
    if (env.includes(`SKILLBENCH_RUN_MARKER=p${owner}-`)) found.push(Number(p));
  }
  return found;
}

/**
 * The processes of `owner`'s runs that escaped their agent: the Bash step's `sleep 1000`. Not
 * any marked process: the agents carry the marker too, and exit on their own once the killed
 * run's pipes close, so only the escaped one tells that the sweep did its work.
 */
async function escapedBy(owner: number): Promise<number[]> {
  const found: number[] = [];
  for (const p of await markedBy(owner)) {
    const cmd = await readFile(`/proc/${p}/cmdline`, "latin1").catch(() => "");
    if (cmd.startsWith("sleep\u00001000")) found.push(p);
  }
  return found;
}

describe("exit codes of an interrupted run", () => {
  it("SIGINT twice: 130, even with --exit-zero", async () => {
    const cli = await hangingRun("sigint", "--exit-zero");
    cli.child.kill("SIGINT");
    await waitUntil(
      async () => /stopping — no new runs start/.test(cli.stderrSoFar()),
      cli.done,
      "the first SIGINT to be handled",
    );
    cli.child.kill("SIGINT");
    const res = await cli.done;
    expect(res.code, res.stderr).toBe(130);
    expect(res.stdout).toMatch(/not completed \(rerun with --resume --out/);
  });

  it("SIGTERM: 143, even with --exit-zero", async () => {
    const cli = await hangingRun("sigterm", "--exit-zero");
    cli.child.kill("SIGTERM");
    const res = await cli.done;
    expect(res.code, res.stderr).toBe(143);
  });
});

describe("after kill -9 under --sandbox local", () => {
  it("the next run removes the killed one's temporary folders and its escaped process", async () => {
    const out = box.dir("killed");
    // The agent's Bash leaves a process in a session of its own, then the model hangs.
    const script = path.join(box.root, "escape.yaml");
    await writeFile(
      script,
      [
        "version: 1",
        "rules:",
        "  - steps:",
        "      - tool_use: {name: Bash, input: {command: 'setsid sleep 1000 > /dev/null 2>&1 < /dev/null & echo started'}}",
        "      - fault: {hang: true}",
        "",
      ].join("\n"),
    );
    const cli = startCli(
      [
        "run",
        fixtureSuite("e2e-matrix"),
        "--model-script",
        script,
        "--out",
        out,
        "--sandbox",
        "local",
        ...ONE,
      ],
      { env: box.env() },
    );
    const pid = cli.child.pid ?? 0;
    await waitUntil(async () => (await escapedBy(pid)).length > 0, cli.done, "the escaped process");
    // Two model requests in all (the two runs' agents, or one agent's after its Bash step): the
    // kill lands while the agents wait on the model.
    await waitUntil(
      async () =>
        (await readFile(path.join(out, "model-requests.jsonl"), "utf8").catch(() => ""))
          .trim()
          .split("\n").length >= 2,
      cli.done,
      "the request after the Bash step",
    );
    cli.child.kill("SIGKILL");
    await cli.done;
    const leftFolders = (await readdir(box.tmp)).filter((n) => n.includes(`-p${pid}-`));
    expect(leftFolders.length).toBeGreaterThan(0);
    // The escaped process is not asserted alive here: the sweep is machine-wide by design, and
    // the runs of other test files, started meanwhile, may already have killed it (a CI run
    // did). That the sweep kills such a process at all is sandbox/leftovers.test.ts's; here,
    // that after the next run none is left.

    const next = await runCli(runArgs("e2e-matrix", box.dir("next"), ...ONE), {
      env: box.env(),
    });
    expect(next.code, next.stderr).toBe(1); // CONTROL fails the tone check by design
    expect(next.stderr).toMatch(
      /removed what skillbench processes that are gone left behind: .*\b[1-9]\d* temporary folder/,
    );
    expect((await readdir(box.tmp)).filter((n) => n.includes(`-p${pid}-`))).toEqual([]);
    // Killed by a sweep (SIGKILL is asynchronous: wait until it is gone, for a while).
    const deadline = Date.now() + 15_000;
    for (let left = await markedBy(pid); left.length > 0; left = await markedBy(pid)) {
      if (Date.now() > deadline) {
        for (const p of left)
          try {
            process.kill(p, "SIGKILL");
          } catch {
            // gone meanwhile: the error below says what was left
          }
        throw new Error(`not swept: ${left.length} process(es) of the killed run still running`);
      }
      await delay(25);
    }
    expect(await killStrays(box.root)).toEqual([]);
  });
});

describe("a triggers evaluation killed with -9", () => {
  it("holds its folder while it runs; the next one removes its probe folders", async () => {
    const skill = path.join(REPO_ROOT, "examples", "trigger-eval", "changelog-writer");
    const script = path.join(box.root, "hang.yaml");
    await writeFile(script, "version: 1\nrules:\n  - reply: {fault: {hang: true}}\n");
    const queries = path.join(box.root, "queries.yaml");
    await writeFile(queries, "- query: Add a changelog entry\n  should_trigger: true\n");
    const out = box.dir("triggers");
    const args = (...extra: string[]): string[] => [
      "triggers",
      skill,
      "--queries",
      queries,
      "--model-script",
      script,
      "--out",
      out,
      "--no-decoys",
      "-n",
      "1",
      "--max-attempts",
      "1",
      "--timeout",
      "30",
      "--env",
      "CLAUDE_CODE_MAX_RETRIES=0",
      ...extra,
    ];
    const first = startCli(args(), { env: box.env() });
    const pid = first.child.pid ?? 0;
    await waitUntil(
      async () => (await readdir(box.tmp)).some((n) => n.includes(`-p${pid}-`)),
      first.done,
      "the probe's folder",
    );
    const refused = await runCli(args("--resume"), { env: box.env() });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`is being written by another skillbench (pid ${pid} on `);
    first.child.kill("SIGKILL");
    await first.done;
    expect((await readdir(box.tmp)).filter((n) => n.includes(`-p${pid}-`)).length).toBeGreaterThan(
      0,
    );
    const next = startCli(args("--resume"), { env: box.env() });
    await waitUntil(
      async () => (await readdir(box.tmp)).filter((n) => n.includes(`-p${pid}-`)).length === 0,
      next.done,
      "the sweep of the killed one's folders",
    );
    next.child.kill("SIGTERM");
    expect((await next.done).code).toBe(143);
  });
});
