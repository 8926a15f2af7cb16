/**
 * The Claude Code driver end to end: the real claude binary, the scripted
 * model server, a temporary workspace. Asserts on the files the agent left,
 * every field of the evidence, the recorded outcome of each failure mode, and
 * that a host secret never reaches the agent or a saved file.
 */
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveClaudeBinary } from "../../src/agents/claude/binary.js";
import { buildAgentEnv } from "../../src/agents/claude/env.js";
import { runClaudeTurn, type TurnResult } from "../../src/agents/claude/turn.js";
import { parseEvidenceFile } from "../../src/evidence/index.js";
import {
  parseModelScriptText,
  runBaseUrl,
  startModelServer,
  type ModelServer,
} from "../../src/model/index.js";
import { createBwrapSandbox } from "../../src/sandbox/bwrap.js";
import { probeSandboxes } from "../../src/sandbox/index.js";
import { makeRedactor, secretsFromEnv } from "../../src/util/redact.js";
import { RedactingLineWriter } from "../../src/util/redacting-writer.js";
import { listFiles } from "../../src/util/hash.js";

const SCRIPT = `
version: 1
defaults:
  usage: {input_tokens: 100, output_tokens: 20, cache_read_input_tokens: 50, cache_creation_input_tokens: 10}
rules:
  - name: full
    when: {task: full}
    steps:
      - text: Using the skill.
        tool_use: {name: Skill, input: {skill: hello}}
      - tool_use: {name: Bash, input: {command: "echo from-bash > bash.txt && env", description: run}}
      - tool_use: {name: Write, input: {file_path: new.txt, content: "brand new\\n"}}
      - tool_use: {name: Read, input: {file_path: notes.txt}}
      - tool_use: {name: Edit, input: {file_path: notes.txt, old_string: "old line", new_string: "new line"}}
      - tool_use: {name: Bash, input: {command: "exit 3", description: fail}}
      - text: "All done."
      - text: "Second turn done."
  - name: f500
    when: {task: f500}
    steps:
      - text: recovered
        fault: {status: 500, times: 1}
  - name: f429
    when: {task: f429}
    steps:
      - fault: {status: 429, headers: {retry-after: "1"}}
  - name: cut
    when: {task: cut}
    steps:
      - fault: {cut: true}
  - name: hang
    when: {task: hang}
    steps:
      - fault: {hang: true}
`;

const HOST_SECRET = "aws-host-secret-value-0123456789";
let root: string;
let server: ModelServer;
const bin = resolveClaudeBinary({});
// Under CI (.ci/run installs bubblewrap) the bubblewrap case always runs; elsewhere where it works.
const bwrapHere =
  process.env.CI === "true" || (await probeSandboxes({ docker: "if-needed" })).bwrap;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "skillbench-driver-"));
  server = await startModelServer({ script: parseModelScriptText(SCRIPT, "driver.yaml") });
});

afterAll(async () => {
  await server.close();
  await rm(root, { recursive: true, force: true });
});

interface Prepared {
  ws: string;
  out: string;
  env: Record<string, string>;
  stdout: RedactingLineWriter;
  stderr: RedactingLineWriter;
  redact: ReturnType<typeof makeRedactor>;
}

async function prepare(task: string, extra: Record<string, string> = {}): Promise<Prepared> {
  const dir = path.join(root, task);
  const ws = path.join(dir, "ws");
  const out = path.join(dir, "out");
  for (const d of [ws, out, path.join(dir, "home"), path.join(dir, "cfg"), path.join(dir, "tmp")])
    await mkdir(d, { recursive: true });
  const hostEnv = { ...process.env, AWS_SECRET_ACCESS_KEY: HOST_SECRET };
  const env = buildAgentEnv({
    hostEnv,
    home: path.join(dir, "home"),
    configDir: path.join(dir, "cfg"),
    tmpDir: path.join(dir, "tmp"),
    baseUrl: runBaseUrl(server.url, { task, treatment: "T", rep: 1, role: "subject" }),
    apiKey: "sk-driver-test-key",
    declared: { CLAUDE_CODE_MAX_RETRIES: "1", DECLARED_VAR: "declared-ok", ...extra },
  });
  const redact = makeRedactor([...secretsFromEnv(hostEnv), "sk-driver-test-key"]);
  return {
    ws,
    out,
    env,
    redact,
    stdout: new RedactingLineWriter(path.join(out, "stdout.jsonl"), redact),
    stderr: new RedactingLineWriter(path.join(out, "stderr.txt"), redact),
  };
}

async function turn(
  p: Prepared,
  prompt: string,
  opts: { resume?: string; timeoutMs?: number; bin?: string } = {},
): Promise<TurnResult> {
  if ("error" in bin) throw new Error(bin.error);
  return runClaudeTurn({
    bin: opts.bin ?? bin.path,
    workspace: p.ws,
    prompt,
    env: p.env,
    resume: opts.resume,
    timeoutMs: opts.timeoutMs ?? 60_000,
    stdout: p.stdout,
    stderr: p.stderr,
  });
}

describe("claude driver with the real CLI", () => {
  it("runs Skill, Bash, Write, Read and Edit, then resumes the same session", async () => {
    const p = await prepare("full");
    await mkdir(path.join(p.ws, ".claude/skills/hello"), { recursive: true });
    await writeFile(
      path.join(p.ws, ".claude/skills/hello/SKILL.md"),
      "---\nname: hello\ndescription: Says hello.\n---\nSay hello.\n",
    );
    await writeFile(path.join(p.ws, "notes.txt"), "old line\n");
    const preexisting = new Set(await listFiles(p.ws));

    const t1 = await turn(p, "Do the task.");
    expect(t1.outcome).toBe("completed");
    expect(t1.exit_code).toBe(0);
    expect(t1.result_text).toBe("All done.");
    expect(t1.session_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(t1.stdout_file).toBe(path.join(p.out, "stdout.jsonl"));
    expect(t1.stderr_file).toBe(path.join(p.out, "stderr.txt"));
    expect(await readFile(path.join(p.ws, "bash.txt"), "utf8")).toBe("from-bash\n");
    expect(await readFile(path.join(p.ws, "new.txt"), "utf8")).toBe("brand new\n");
    expect(await readFile(path.join(p.ws, "notes.txt"), "utf8")).toBe("new line\n");

    const t2 = await turn(p, "Continue.", { resume: t1.session_id ?? undefined });
    expect(t2.outcome).toBe("completed");
    expect(t2.session_id).toBe(t1.session_id);
    expect(t2.result_text).toBe("Second turn done.");
    await p.stdout.close();
    await p.stderr.close();

    const e = await parseEvidenceFile(path.join(p.out, "stdout.jsonl"), {
      workspace: p.ws,
      preexisting,
    });
    expect(e.schema).toBe("skillbench.evidence.v1");
    expect(e.agent.claude_code_version).toBe("2.1.328");
    expect(e.tool_calls.map((c) => c.name)).toEqual([
      "Skill",
      "Bash",
      "Write",
      "Read",
      "Edit",
      "Bash",
    ]);
    expect(e.tool_calls.every((c) => c.turn === 1)).toBe(true);
    const failing = e.tool_calls[5];
    expect(failing?.is_error).toBe(true);
    expect(failing?.output).toContain("Exit code 3");
    expect(e.tool_calls[1]?.is_error).toBe(false);
    expect(e.tool_calls[1]?.output).toContain("DECLARED_VAR=declared-ok");
    expect(e.commands_run).toEqual(["echo from-bash > bash.txt && env", "exit 3"]);
    expect(e.files_created).toEqual(["new.txt"]);
    expect(e.files_modified).toEqual(["notes.txt"]);
    expect(e.files_read).toEqual(["notes.txt"]);
    expect(e.skills_invoked).toEqual(["hello"]);
    expect(e.session_ids).toEqual([t1.session_id]);
    expect(e.results).toHaveLength(2);
    expect(e.result_text).toBe("Second turn done.");
    expect(e.is_error).toBe(false);
    expect(e.num_turns).toBeGreaterThanOrEqual(8);
    expect(e.duration_ms).toBeGreaterThan(0);
    expect(e.duration_api_ms).toBeGreaterThan(0);
    // 8 model replies in all, 100 + 20 + 50 + 10 tokens each.
    expect(e.tokens).toEqual({
      input: 800,
      output: 160,
      cache_read: 400,
      cache_creation: 80,
      total: 1440,
    });
    expect(e.total_cost_usd).toBeGreaterThan(0);
    expect(Object.keys(e.model_usage)).toHaveLength(1);
    expect(e.peak_context_tokens).toBe(160);
    expect(e.api_retries).toEqual([]);
    expect(e.permission_denials).toBe(0);
    expect(e.diagnostics.malformed_lines).toEqual([]);
    expect(e.diagnostics.non_object_lines).toEqual([]);
    expect(e.diagnostics.truncated_last_line).toBe(false);

    // The host secret never reached the agent (its `env` output) nor a saved file.
    const saved = await readFile(path.join(p.out, "stdout.jsonl"), "utf8");
    expect(saved).not.toContain("AWS_SECRET_ACCESS_KEY");
    expect(saved).not.toContain(HOST_SECRET);
    expect(saved).not.toContain("sk-driver-test-key");
    expect(saved).toContain("[REDACTED]");
  });

  it.each([
    ["f500", "completed", 0, 1],
    ["f429", "agent_error", 1, 1],
    ["cut", "agent_error", 1, 1],
  ] as const)("records the outcome of fault %s", async (task, outcome, exit, retries) => {
    const p = await prepare(task, { CLAUDE_CODE_MAX_RETRIES: "1" });
    const t = await turn(p, "Go.");
    await p.stdout.close();
    expect(t.outcome).toBe(outcome);
    expect(t.exit_code).toBe(exit);
    const e = await parseEvidenceFile(path.join(p.out, "stdout.jsonl"));
    expect(e.api_retries.length).toBe(retries);
    expect(e.is_error).toBe(outcome !== "completed");
    if (task === "f429") expect(e.results.at(-1)?.api_error_status).toBe(429);
  });

  it("kills a hanging agent at the timeout and records it", async () => {
    const p = await prepare("hang", { API_TIMEOUT_MS: "600000" });
    const t = await turn(p, "Go.", { timeoutMs: 3000 });
    await p.stdout.close();
    expect(t.outcome).toBe("timeout");
    expect(t.detail).toContain("Timeout after 3s");
  });
});

describe("driver outcomes with stand-in binaries", () => {
  async function fakeBin(name: string, body: string): Promise<string> {
    const file = path.join(root, `${name}.sh`);
    await writeFile(file, `#!/bin/sh\n${body}\n`);
    await chmod(file, 0o755);
    return file;
  }

  it.each([
    ["crashed", 'echo \'{"type":"system","subtype":"init","session_id":"s1"}\'; exit 7', 7],
    ["empty_output", "exit 0", 0],
    ["no_result", 'echo \'{"type":"system","subtype":"init","session_id":"s1"}\'', 0],
    [
      "agent_error",
      'echo \'{"type":"result","subtype":"success","is_error":true,"result":"API Error"}\'; exit 1',
      1,
    ],
  ] as const)("%s", async (outcome, body, exit) => {
    const p = await prepare(`fake-${outcome}`);
    const t = await turn(p, "x", { bin: await fakeBin(outcome, body) });
    await p.stdout.close();
    expect(t.outcome).toBe(outcome);
    expect(t.exit_code).toBe(exit);
  });

  it("kills processes that left the process group (setsid, nohup) when the turn ends", async () => {
    const p = await prepare("fake-escape");
    const pidFile = path.join(root, "escaped.pid");
    const body = `setsid sh -c 'echo $$ > ${pidFile}; exec sleep 1000' >/dev/null 2>&1 < /dev/null &
while [ ! -s ${pidFile} ]; do :; done
echo '{"type":"result","subtype":"success","is_error":false,"result":"ok"}'`;
    const t = await turn(p, "x", { bin: await fakeBin("escape", body) });
    await p.stdout.close();
    expect(t.outcome).toBe("completed");
    const pid = Number((await readFile(pidFile, "utf8")).trim());
    expect(pid).toBeGreaterThan(1);
    // Gone, or a zombie awaiting its (new) parent: either way no longer running.
    const state = await readFile(`/proc/${pid}/stat`, "utf8").then(
      (s) => s.slice(s.lastIndexOf(")") + 2, s.lastIndexOf(")") + 3),
      () => "gone",
    );
    expect(["gone", "Z", "X"]).toContain(state);
  });

  // A bubblewrap launch has a PID namespace of its own (LaunchSpec.contained): the turn skips the
  // marker scan of every host process, and the kernel still ends what the agent left behind.
  it.runIf(bwrapHere)(
    "a bubblewrap launch ends what the agent left running by itself (no marker needed)",
    async () => {
      const p = await prepare("fake-escape-bwrap");
      const dir = path.dirname(p.ws);
      const tag = `skillbench-escape-${process.pid}-${Date.now()}`;
      const pidFile = path.join(p.ws, "escaped.pid");
      // The escaped process holds a connection to this socket (in the workspace, reached from
      // inside by its path): the connection closes when the process ends, which is how the test
      // knows, without polling, that the kernel has ended it (the turn itself ends first: bwrap's
      // outer process exits before its PID namespace is torn down).
      const held = net.createServer();
      const escapeeGone = new Promise<void>((resolve) =>
        held.on("connection", (c) => {
          c.on("error", () => undefined);
          c.on("close", () => resolve());
        }),
      );
      await new Promise<void>((resolve) => held.listen(path.join(p.ws, "held.sock"), resolve));
      const fake = path.join(dir, "agent.sh");
      await writeFile(
        fake,
        `#!/bin/bash
[ "$1" = --version ] && { echo "1.0.0 (fake)"; exit 0; }
env -u SKILLBENCH_RUN_MARKER setsid perl -e 'use Socket; $0 = "${tag}"; socket(S, AF_UNIX, SOCK_STREAM, 0) && connect(S, pack_sockaddr_un("held.sock")) or die; open(F, ">", "escaped.pid") or die; print F $$; close F; sleep 1000' >/dev/null 2>&1 < /dev/null &
while [ ! -s escaped.pid ]; do :; done
echo '{"type":"result","subtype":"success","is_error":false,"result":"ok"}'
`,
      );
      await chmod(fake, 0o755);
      const sandbox = createBwrapSandbox({
        runDirs: {
          root: dir,
          workspace: p.ws,
          home: path.join(dir, "home"),
          config: path.join(dir, "cfg"),
          tmp: path.join(dir, "tmp"),
        },
        task: { environmentDir: null },
        agentBin: fake,
        resultsDir: path.join(root, "results-bwrap"),
        network: "none",
      });
      /** Host processes still running under the tag (a zombie awaiting its parent is not running). */
      const runningTagged = async (): Promise<string[]> => {
        const out: string[] = [];
        for (const d of await readdir("/proc")) {
          if (!/^\d+$/.test(d)) continue;
          const cmd = await readFile(`/proc/${d}/cmdline`, "utf8").catch(() => "");
          const stat = await readFile(`/proc/${d}/stat`, "utf8").catch(() => "");
          const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
          if (cmd.startsWith(tag) && state !== "Z" && state !== "X") out.push(d);
        }
        return out;
      };
      try {
        await sandbox.start();
        expect(sandbox.launcher({ cmd: fake, args: [], cwd: p.ws, env: {} }).contained).toBe(true);
        const t = await runClaudeTurn({
          bin: fake,
          workspace: p.ws,
          prompt: "x",
          env: p.env,
          timeoutMs: 60_000,
          stdout: p.stdout,
          stderr: p.stderr,
          launcher: sandbox.launcher,
        });
        await p.stdout.close();
        expect(t.outcome).toBe("completed");
        expect((await readFile(pidFile, "utf8")).trim()).not.toBe("");
        // The escaped process dropped the run's marker: only the PID namespace can have ended it
        // (if nothing did, its connection never closes and the test times out).
        await escapeeGone;
        expect(await runningTagged()).toEqual([]);
      } finally {
        held.close();
        await sandbox.stop();
        for (const pid of await runningTagged()) process.kill(Number(pid), "SIGKILL");
      }
    },
  );

  it("spawn_error for a missing binary", async () => {
    const p = await prepare("fake-missing");
    const t = await turn(p, "x", { bin: path.join(root, "does-not-exist") });
    expect(t.outcome).toBe("spawn_error");
  });

  it("keeps a truncated last line verbatim and never splits a JSON line", async () => {
    const p = await prepare("fake-trunc");
    const body =
      'printf \'{"type":"system","subtype":"init","session_id":"s1"}\\n{"type":"resu\'; exit 9';
    const t = await turn(p, "x", { bin: await fakeBin("trunc", body) });
    await p.stdout.close();
    expect(t.outcome).toBe("crashed");
    const text = await readFile(path.join(p.out, "stdout.jsonl"), "utf8");
    expect(text).toBe('{"type":"system","subtype":"init","session_id":"s1"}\n{"type":"resu');
    const e = await parseEvidenceFile(path.join(p.out, "stdout.jsonl"));
    expect(e.diagnostics.truncated_last_line).toBe(true);
  });
});
