import { isRecord } from "../../src/core/json.js";
/**
 * Drives the real Claude Code CLI against the scripted model server.
 * Six claude spawns, run one after another.
 */
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runBaseUrl, serveModel, type ModelServer } from "../../src/model/index.js";

const CLAUDE = path.resolve("node_modules/.bin/claude");

const SCRIPT = `
version: 1
defaults:
  model: claude-mock-1
  usage: {input_tokens: 50, output_tokens: 10}
rules:
  - name: with-skill
    when: {task: basic, skill: hello}
    steps:
      - tool_use: {name: Skill, input: {skill: hello}}
      - text: Running a command.
        tool_use: {name: Bash, input: {command: "echo from-bash > bash.txt", description: write bash.txt}}
      - tool_use: {name: Write, input: {file_path: out.txt, content: "written by the script\\n"}}
      - text: Finished the task.
      - text: Resumed and done.
  - name: no-skill
    when: {task: basic}
    reply: {text: skill listing not seen}
  - name: f500
    when: {task: f500}
    steps:
      - text: recovered
        fault: {status: 500, times: 1}
  - name: f429
    when: {task: f429}
    steps:
      - fault: {status: 429, headers: {retry-after: "1"}, message: slow down}
  - name: cut
    when: {task: cut}
    steps:
      - fault: {cut: true}
  - name: hang
    when: {task: hang}
    steps:
      - fault: {hang: true}
`;

interface ClaudeRun {
  code: number | null;
  events: Array<Record<string, unknown>>;
  stderr: string;
  result: Record<string, unknown> | undefined;
}

let root: string;
let server: ModelServer;
let recordFile: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "skillbench-e2e-model-"));
  const scriptFile = path.join(root, "script.yaml");
  await writeFile(scriptFile, SCRIPT);
  recordFile = path.join(root, "model.jsonl");
  server = await serveModel({ scriptFile, recordFile });
});

afterAll(async () => {
  await server.close();
  await rm(root, { recursive: true, force: true });
});

async function workspace(name: string): Promise<{ ws: string; cfg: string; tmp: string }> {
  const dir = path.join(root, name);
  const ws = path.join(dir, "ws");
  const cfg = path.join(dir, "cfg");
  const tmp = path.join(dir, "tmp");
  await mkdir(path.join(ws, ".claude", "skills", "hello"), { recursive: true });
  await mkdir(cfg, { recursive: true });
  await mkdir(tmp, { recursive: true });
  await writeFile(
    path.join(ws, ".claude", "skills", "hello", "SKILL.md"),
    "---\nname: hello\ndescription: Greets the user.\n---\nSay hello.\n",
  );
  return { ws, cfg, tmp };
}

function runClaude(
  dirs: { ws: string; cfg: string; tmp: string },
  task: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<ClaudeRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      CLAUDE,
      ["--output-format", "stream-json", "--verbose", "--dangerously-skip-permissions", ...args],
      {
        cwd: dirs.ws,
        stdio: ["ignore", "pipe", "pipe"],
        env: {
          PATH: process.env.PATH ?? "/usr/bin:/bin",
          HOME: dirs.tmp,
          IS_SANDBOX: "1",
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
          DISABLE_TELEMETRY: "1",
          ANTHROPIC_API_KEY: "sk-test",
          CLAUDE_CONFIG_DIR: dirs.cfg,
          CLAUDE_CODE_TMPDIR: dirs.tmp,
          CLAUDE_CODE_MAX_RETRIES: "1",
          ANTHROPIC_BASE_URL: runBaseUrl(server.url, {
            task,
            treatment: "WITH SKILL",
            rep: 1,
            role: "subject",
          }),
          ...env,
        },
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString("utf8")));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
    // Safety net only: a wedged CLI must not hang the suite.
    const guard = setTimeout(() => child.kill("SIGKILL"), 90_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(guard);
      const events: Array<Record<string, unknown>> = [];
      for (const line of stdout.split("\n")) {
        if (!line.trim()) continue;
        const v: unknown = JSON.parse(line);
        if (isRecord(v)) events.push(v);
      }
      resolve({ code, events, stderr, result: events.filter((e) => e.type === "result").at(-1) });
    });
  });
}

async function records(task: string): Promise<Array<Record<string, unknown>>> {
  const text = await readFile(recordFile, "utf8");
  const out: Array<Record<string, unknown>> = [];
  for (const line of text.trim().split("\n")) {
    const v: unknown = JSON.parse(line);
    if (isRecord(v) && isRecord(v.run) && v.run.task === task) out.push(v);
  }
  return out;
}

function toolNames(run: ClaudeRun): string[] {
  const names: string[] = [];
  for (const e of run.events) {
    if (e.type !== "assistant" || !isRecord(e.message) || !Array.isArray(e.message.content))
      continue;
    for (const b of e.message.content)
      if (isRecord(b) && b.type === "tool_use" && typeof b.name === "string") names.push(b.name);
  }
  return names;
}

const retries = (run: ClaudeRun) =>
  run.events.filter((e) => e.type === "system" && e.subtype === "api_retry");

describe("scripted model server with the real claude CLI", () => {
  let basic: { ws: string; cfg: string; tmp: string };
  let sessionId = "";

  it("plays Skill, Bash, Write and a final text", async () => {
    basic = await workspace("basic");
    const run = await runClaude(basic, "basic", ["-p", "Do the task."]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.result).toMatchObject({
      type: "result",
      is_error: false,
      result: "Finished the task.",
    });
    expect(toolNames(run)).toEqual(["Skill", "Bash", "Write"]);
    expect(await readFile(path.join(basic.ws, "out.txt"), "utf8")).toBe("written by the script\n");
    expect(await readFile(path.join(basic.ws, "bash.txt"), "utf8")).toBe("from-bash\n");
    const recs = await records("basic");
    expect(
      recs.map((r) => [
        isRecord(r.rule) ? r.rule.name : null,
        isRecord(r.facts) ? r.facts.position : null,
      ]),
    ).toEqual([
      ["with-skill", 0],
      ["with-skill", 1],
      ["with-skill", 2],
      ["with-skill", 3],
    ]);
    expect(recs[0]).toMatchObject({
      run: { treatment: "WITH SKILL" },
      headers: { "x-api-key": "[REDACTED]" },
    });
    sessionId = typeof run.result?.session_id === "string" ? run.result.session_id : "";
    expect(sessionId).not.toBe("");
  });

  it("continues with the next step after --resume (history is resent)", async () => {
    const run = await runClaude(basic, "basic", ["-p", "continue please", "--resume", sessionId]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.result).toMatchObject({
      is_error: false,
      result: "Resumed and done.",
      session_id: sessionId,
    });
    const last = (await records("basic")).at(-1);
    expect(last).toMatchObject({
      facts: { position: 4, turn_position: 0, user_text: "continue please" },
      step: 4,
    });
  });

  it("retries a 500 once and then succeeds", async () => {
    const run = await runClaude(await workspace("f500"), "f500", ["-p", "go"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.result).toMatchObject({ is_error: false, result: "recovered" });
    expect(retries(run)).toHaveLength(1);
    expect(retries(run)[0]).toMatchObject({ error_status: 500 });
    expect((await records("f500")).map((r) => [r.attempt, r.status])).toEqual([
      [1, 500],
      [2, 200],
    ]);
  });

  it("gives up on a persistent 429 after CLAUDE_CODE_MAX_RETRIES=1", async () => {
    const run = await runClaude(await workspace("f429"), "f429", ["-p", "go"]);
    expect(run.code).toBe(1);
    expect(run.result).toMatchObject({ is_error: true, api_error_status: 429 });
    expect(String(run.result?.result)).toContain("slow down");
    expect((await records("f429")).map((r) => r.status)).toEqual([429, 429]);
  });

  it("reports a lost connection when every stream is cut", async () => {
    // Observed with CLAUDE_CODE_MAX_RETRIES=1: the stream is retried once (one api_retry,
    // error_status null), then the CLI falls back to a non-streaming request, which is cut
    // too; the run ends with "API Error: Connection to the API was lost (ECONNRESET)", exit 1.
    const run = await runClaude(await workspace("cut"), "cut", ["-p", "go"]);
    expect(run.code).toBe(1);
    expect(run.result).toMatchObject({ is_error: true });
    expect(String(run.result?.result)).toMatch(/ECONNRESET/);
    expect(retries(run)).toHaveLength(1);
    const recs = await records("cut");
    expect(recs.map((r) => (isRecord(r.facts) ? r.facts.stream : null))).toEqual([
      true,
      true,
      false,
    ]);
    expect(
      recs.every((r) => r.outcome === "fault" && isRecord(r.fault) && r.fault.kind === "cut"),
    ).toBe(true);
  });

  it("times out on a hanging request with a small API_TIMEOUT_MS", async () => {
    const run = await runClaude(await workspace("hang"), "hang", ["-p", "go"], {
      API_TIMEOUT_MS: "1500",
      CLAUDE_CODE_MAX_RETRIES: "0",
    });
    expect(run.code).toBe(1);
    expect(run.result).toMatchObject({ is_error: true });
    expect(String(run.result?.result)).toMatch(/timed out/i);
    expect((await records("hang"))[0]).toMatchObject({
      outcome: "fault",
      fault: { kind: "hang" },
      status: null,
    });
  });
});
