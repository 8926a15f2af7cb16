/**
 * Ctrl-C and crashes, through the CLI: the first SIGINT stops new runs and lets the
 * running one finish; a second SIGINT kills it (no report, so --resume runs it again);
 * a run whose agent crashes is recorded and the other runs go on.
 */
import { execFileSync } from "node:child_process";
import { chmod, open, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveClaudeBinary } from "../../src/agents/claude/binary.js";
import { readMetadata } from "../../src/store/metadata.js";
import {
  assertBuilt,
  makeSandbox,
  readRunReport,
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
  box = await makeSandbox("skillbench-interrupt-");
});

afterAll(async () => {
  await box.remove();
});

describe("Ctrl-C", () => {
  it("first SIGINT: no new run starts, the running one completes, its record is intact", async () => {
    const out = box.dir("once");
    // r2's agent reads a FIFO in its Bash step: the test opens it for writing, which returns
    // once that read has begun (r2 is running, r1 reported), and ends the read only after the
    // first SIGINT was handled. Polling for the first report and signalling raced the runs
    // after it on a loaded machine (a late signal found r3 running, or the experiment done).
    const fifo = path.join(box.root, "once.fifo");
    execFileSync("mkfifo", [fifo]);
    const script = path.join(box.root, "once.yaml");
    const suiteScript = await readFile(
      path.resolve("test/fixtures/suites/e2e-matrix/model-script.yaml"),
      "utf8",
    );
    await writeFile(
      script,
      suiteScript.replace(
        /^rules:\n/m,
        [
          "rules:",
          "  - name: tone-held",
          "    when: {task: tone, rep: 2}",
          "    steps:",
          `      - tool_use: {name: Bash, input: {command: 'cat ${fifo}'}}`,
          '      - tool_use: {name: Write, input: {file_path: greeting.txt, content: "hi\\n"}}',
          '      - text: "Wrote greeting.txt."',
          "",
        ].join("\n"),
      ),
    );
    const args = runArgs(
      "e2e-matrix",
      out,
      "--count",
      "4",
      "-j",
      "1",
      "--task",
      "tone",
      "--treatment",
      "CONTROL",
      "--no-html",
      // The agent's Bash reads the FIFO by its host path.
      "--sandbox",
      "local",
    );
    args[args.indexOf("--model-script") + 1] = script;
    const cli = startCli(args, { env: box.env() });
    const writer = await Promise.race([
      open(fifo, "w"),
      cli.done.then((r) => {
        throw new Error(`the run ended before r2 read the FIFO:\n${r.stderr}`);
      }),
    ]);
    expect(await reportedRunIds(out)).toEqual(["tone-CONTROL-r1"]);
    cli.child.kill("SIGINT");
    await waitUntil(
      async () => /stopping — no new runs start/.test(cli.stderrSoFar()),
      cli.done,
      "the first SIGINT to be handled",
    );
    await writer.write("go\n");
    await writer.close();
    const res = await cli.done;
    expect(res.code).toBe(130); // interrupted by SIGINT (cli/interrupt.ts)
    // The first run, and the one that was running when Ctrl-C came.
    const ids = await reportedRunIds(out);
    expect(ids).toEqual(["tone-CONTROL-r1", "tone-CONTROL-r2"]);
    for (const id of ids) expect((await readRunReport(out, id)).status).not.toBe("errored");
    expect(res.stdout).toMatch(/not completed \(rerun with --resume --out/);
    expect((await readMetadata(path.join(out, "metadata.json")))?.completed_at).toBeNull();
  });

  it("second SIGINT: the running agent is killed, leaves no report, and --resume completes the rest", async () => {
    const out = box.dir("twice");
    // A model that never answers: the run can only end by being killed.
    const script = path.join(box.root, "hang.yaml");
    await writeFile(script, "version: 1\nrules:\n  - reply: {fault: {hang: true}}\n");
    const args = [
      "run",
      path.resolve("test/fixtures/suites/e2e-matrix"),
      "--model-script",
      script,
      "--out",
      out,
      "--task",
      "tone",
      "--treatment",
      "CONTROL",
      "--count",
      "2",
      "--no-html",
    ];
    const cli = startCli(args, { env: box.env() });
    // The agent has reached the model (and hangs there): the request is in the model log.
    const log = path.join(out, "model-requests.jsonl");
    await waitUntil(
      async () => (await readFile(log, "utf8").catch(() => "")).length > 0,
      cli.done,
      "the first model request",
    );
    cli.child.kill("SIGINT");
    // Signals sent back to back can merge into one: send the second once the first was handled.
    await waitUntil(
      async () => /stopping — no new runs start/.test(cli.stderrSoFar()),
      cli.done,
      "the first SIGINT to be handled",
    );
    cli.child.kill("SIGINT");
    const res = await cli.done;
    expect(res.code).toBe(130); // interrupted by SIGINT (cli/interrupt.ts)
    expect(await reportedRunIds(out)).toEqual([]);
    // The interrupted folder completes with --resume (now with a model that answers).
    const resumed = await runCli(
      runArgs(
        "e2e-matrix",
        out,
        "--resume",
        "--task",
        "tone",
        "--treatment",
        "CONTROL",
        "--count",
        "2",
        "--no-html",
      ),
      {
        env: box.env(),
      },
    );
    expect(resumed.code, resumed.stderr).toBe(1); // CONTROL fails the tone check by design
    expect(await reportedRunIds(out)).toEqual(["tone-CONTROL-r1", "tone-CONTROL-r2"]);
  });
});

describe("a crashing run", () => {
  it("is recorded, and the other runs go on", async () => {
    const bin = resolveClaudeBinary({});
    if ("error" in bin) throw new Error(bin.error);
    // A stand-in agent: crashes (SIGSEGV) on the greeting task's WITH_SKILL runs, else the real claude.
    const wrapper = path.join(box.root, "crashy-claude.sh");
    await writeFile(
      wrapper,
      `#!/bin/sh\nif [ -d .claude/skills/greeter ] && [ "$1" = "-p" ]; then kill -SEGV $$; fi\nexec "${bin.path}" "$@"\n`,
    );
    await chmod(wrapper, 0o755);
    const out = box.dir("crash");
    const res = await runCli(
      // Local: the wrapper execs the real binary by a path a sandbox need not expose (a clone
      // under /tmp is private inside bwrap); this test is about a crash, not about isolation.
      runArgs(
        "e2e-matrix",
        out,
        "--task",
        "tone",
        "--agent-bin",
        wrapper,
        "-j",
        "2",
        "--no-html",
        "--sandbox",
        "local",
      ),
      {
        env: box.env(),
      },
    );
    expect(res.code).toBe(1);
    expect(await reportedRunIds(out)).toEqual(["tone-CONTROL-r1", "tone-WITH_SKILL-r1"]);
    const crashed = await readRunReport(out, "tone-WITH_SKILL-r1");
    expect(crashed.agent_outcome).toBe("crashed");
    expect(crashed.outcome).toBe("agent_error");
    expect(crashed.checks_failed[0]).toMatch(/Agent execution failed .*crashed/);
    const other = await readRunReport(out, "tone-CONTROL-r1");
    expect(other.agent_outcome).toBe("completed");
  });
});
