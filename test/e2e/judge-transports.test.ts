/**
 * The LLM judge end to end, with the scripted model server as the judge
 * endpoint: direct HTTP with a token and with an API key, the CLI fallback (the
 * real claude binary), a skipped judge, HTTP 500, an unparseable answer that is
 * repaired, custom_N dimensions, the cache, and the workspace budget. A
 * pass-through proxy in front of the server sees the real header values (the
 * server's record file redacts them), which proves that the subject's key never
 * reaches the judge.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { resolveClaudeBinary } from "../../src/agents/claude/binary.js";
import { JudgeCache } from "../../src/judge/cache.js";
import { MISSING_MODEL_REASON, resolveJudgeConfig } from "../../src/judge/config.js";
import { JUDGE_PLACEHOLDER_KEY } from "../../src/judge/env.js";
import { runJudge, type RunJudgeInput } from "../../src/judge/run-judge.js";
import { JudgeBlockSchema, type JudgeBlock } from "../../src/judge/types.js";
import { parseModelScriptText, runBaseUrl, startModelServer } from "../../src/model/index.js";
import { makeSandbox, readRunReport, runArgs, runCli } from "../helpers/cli.js";
import {
  expectOnlyInsideBwrap,
  processesWithEnv,
  startSnoopingProxy,
  type ProcNs,
} from "../helpers/proc-ns.js";

const SCRIPT = `
version: 1
defaults:
  usage: {input_tokens: 300, output_tokens: 30}
rules:
  - name: repaired
    when: {role: judge, user_text: "could not be parsed"}
    reply: {text: "[RUBRIC-JUDGE] task_completion: 0.70 - fixed on repair"}
  - name: garbage
    when: {role: judge, task: garbage}
    reply: {text: "I liked it a lot."}
  - name: f500
    when: {role: judge, task: f500}
    reply: {fault: {status: 500, message: "judge is down"}}
  - name: custom
    when: {role: judge, task: custom}
    reply:
      text: |
        \`\`\`json
        {"scores": {"task_completion": {"score": 1, "reason": "done"}, "custom_0": {"score": 0.25, "reason": "no table"}, "custom_1": {"score": 0.75, "reason": "two sources"}}}
        \`\`\`
  - name: judge
    when: {role: judge}
    reply:
      text: |
        \`\`\`json
        {"scores": {"task_completion": {"score": 0.9, "reason": "out.txt written"}, "output_quality": {"score": 0.8, "reason": "short"}, "instruction_adherence": {"score": 1.2, "reason": "followed"}}}
        \`\`\`
`;

const SUBJECT_KEY = "sk-subject-host-key-5555";
const JUDGE_TOKEN = "judge-token-6666";
const JUDGE_KEY = "judge-api-key-7777";

const RecordSchema = z.looseObject({
  path: z.string(),
  headers: z.record(z.string(), z.string()),
  run: z.looseObject({ role: z.string() }),
  request: z.looseObject({ messages: z.array(z.looseObject({ content: z.unknown() })) }).nullable(),
});
type RecordEntry = z.infer<typeof RecordSchema>;

interface Seen {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

let root: string;
let ws: string;
const bin = resolveClaudeBinary({});

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "skillbench-judge-e2e-"));
  ws = path.join(root, "ws");
  await mkdir(ws);
  await writeFile(path.join(ws, "out.txt"), "hello\n");
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A pass-through proxy that keeps every request's real headers and body. */
async function startProxy(
  target: string,
): Promise<{ url: string; seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const t = new URL(target);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      seen.push({ path: req.url ?? "", headers: req.headers, body: body.toString("utf8") });
      const up = httpRequest(
        { host: t.hostname, port: t.port, path: req.url, method: req.method, headers: req.headers },
        (ur) => {
          res.writeHead(ur.statusCode ?? 502, ur.headers);
          ur.pipe(res);
        },
      );
      up.on("error", () => res.destroy());
      up.end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const addr = server.address();
  const port = addr !== null && typeof addr === "object" ? addr.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** Start the model server (with a record file) behind the proxy, run `fn`, stop both, return what was seen. */
async function withJudgeServer(
  name: string,
  fn: (judgeUrl: (task: string) => string) => Promise<JudgeBlock | null>,
): Promise<{ block: JudgeBlock | null; record: RecordEntry[]; seen: Seen[] }> {
  const recordFile = path.join(root, `${name}.jsonl`);
  const server = await startModelServer({
    script: parseModelScriptText(SCRIPT, "judge.yaml"),
    recordFile,
  });
  const proxy = await startProxy(server.url);
  let block: JudgeBlock | null;
  try {
    block = await fn((task) =>
      runBaseUrl(proxy.url, { task, treatment: "WITH_SKILL", rep: 1, role: "judge" }),
    );
  } finally {
    await proxy.close();
    await server.close();
  }
  let text = "";
  try {
    text = await readFile(recordFile, "utf8");
  } catch {
    /* no request at all */
  }
  const record = text
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => RecordSchema.parse(JSON.parse(l)));
  if (block !== null) JudgeBlockSchema.parse(block);
  return { block, record, seen: proxy.seen };
}

function judgeInput(env: Record<string, string>, over: Partial<RunJudgeInput> = {}): RunJudgeInput {
  return {
    config: resolveJudgeConfig({ env, cli: {} }),
    profile: "generic",
    workspace: ws,
    baseline: { passed: ["out.txt exists"], failed: ["out.txt says hello world"] },
    rubricCriteria: [],
    hostEnv: {
      ...env,
      PATH: process.env.PATH,
      ANTHROPIC_API_KEY: SUBJECT_KEY,
      ANTHROPIC_BASE_URL: "http://subject.invalid",
    },
    scratchDir: path.join(root, "scratch"),
    ...over,
  };
}

const httpEnv = (url: string, cred: Record<string, string>): Record<string, string> => ({
  BENCH_LLM_JUDGE: "1",
  BENCH_JUDGE_MODEL: "judge-model-x",
  BENCH_JUDGE_BASE_URL: url,
  ANTHROPIC_API_KEY: SUBJECT_KEY,
  ...cred,
});

function promptOf(e: RecordEntry | undefined): string {
  const content = e?.request?.messages[0]?.content;
  return typeof content === "string" ? content : JSON.stringify(content);
}

describe("judge over direct HTTP", () => {
  it("with a token: Authorization Bearer, never the subject key", async () => {
    const { block, record, seen } = await withJudgeServer("token", (u) =>
      runJudge(judgeInput(httpEnv(u("ok"), { BENCH_JUDGE_AUTH_TOKEN: JUDGE_TOKEN }))),
    );
    expect(block).toMatchObject({
      status: "enabled_and_successful",
      transport: "http",
      model: "judge-model-x",
      calls: 1,
      tokens: { input: 300, output: 30 },
      cost_usd: null,
    });
    expect(block?.lines).toEqual([
      "[RUBRIC-JUDGE] task_completion: 0.90 - out.txt written",
      "[RUBRIC-JUDGE] output_quality: 0.80 - short",
      "[RUBRIC-JUDGE] instruction_adherence: 1.00 - followed",
      "[RUBRIC-JUDGE] status: enabled_and_successful",
    ]);
    expect(record).toHaveLength(1);
    expect(record[0]?.path).toBe("/runs/ok/WITH_SKILL/1/judge/v1/messages");
    expect(record[0]?.run.role).toBe("judge");
    expect(record[0]?.headers.authorization).toBe("[REDACTED]");
    expect(record[0]?.headers["x-api-key"]).toBeUndefined();
    expect(record[0]?.headers["anthropic-version"]).toBe("2023-06-01");
    expect(seen[0]?.headers.authorization).toBe(`Bearer ${JUDGE_TOKEN}`);
    expect(seen[0]?.headers["x-api-key"]).toBeUndefined();
    expect(JSON.stringify(seen)).not.toContain(SUBJECT_KEY);
    const body = z
      .looseObject({ model: z.string(), max_tokens: z.number() })
      .parse(JSON.parse(seen[0]?.body ?? "{}"));
    expect(body).toMatchObject({ model: "judge-model-x", max_tokens: 2048 });
    const prompt = promptOf(record[0]);
    expect(prompt).toContain("Passed: 1, Failed: 1");
    expect(prompt).toContain("- out.txt says hello world");
    expect(prompt).toContain("\n=== out.txt ===\nhello\n");
  });

  it("with an API key: x-api-key, never the subject key", async () => {
    const { block, record, seen } = await withJudgeServer("apikey", (u) =>
      runJudge(judgeInput(httpEnv(u("ok"), { BENCH_JUDGE_API_KEY: JUDGE_KEY }))),
    );
    expect(block).toMatchObject({ status: "enabled_and_successful", transport: "http" });
    expect(record[0]?.headers["x-api-key"]).toBe("[REDACTED]");
    expect(record[0]?.headers.authorization).toBeUndefined();
    expect(seen[0]?.headers["x-api-key"]).toBe(JUDGE_KEY);
    expect(JSON.stringify(seen)).not.toContain(SUBJECT_KEY);
  });

  it("skipped without a model: the exact line, no request", async () => {
    const { block, record } = await withJudgeServer("skipped", (u) =>
      runJudge(
        judgeInput({
          BENCH_LLM_JUDGE: "1",
          BENCH_JUDGE_BASE_URL: u("ok"),
          BENCH_JUDGE_AUTH_TOKEN: JUDGE_TOKEN,
        }),
      ),
    );
    expect(block).toMatchObject({ status: "skipped", reason: MISSING_MODEL_REASON });
    expect(block?.lines).toEqual([
      "[RUBRIC-JUDGE] status: skipped - BENCH_JUDGE_MODEL is required when BENCH_LLM_JUDGE=1",
    ]);
    expect(record).toEqual([]);
  });

  it("HTTP 500: failed, saying why", async () => {
    const { block, record } = await withJudgeServer("f500", (u) =>
      runJudge(judgeInput(httpEnv(u("f500"), { BENCH_JUDGE_AUTH_TOKEN: JUDGE_TOKEN }))),
    );
    expect(block).toMatchObject({
      status: "failed",
      reason: "HTTP 500 judge is down",
    });
    // Fail closed (docs/judge.md): every dimension asked for is N/A with the cause, never a score.
    expect(block?.dimensions.map((d) => [d.score, d.reason])).toEqual(
      block?.dimensions.map(() => [null, "HTTP 500 judge is down"]),
    );
    expect(block?.dimensions.length).toBeGreaterThan(0);
    expect(block?.lines).toEqual(["[RUBRIC-JUDGE] status: failed - HTTP 500 judge is down"]);
    expect(record).toHaveLength(1);
  });

  it("unparseable text, then repaired", async () => {
    const { block, record } = await withJudgeServer("repair", (u) =>
      runJudge(judgeInput(httpEnv(u("garbage"), { BENCH_JUDGE_AUTH_TOKEN: JUDGE_TOKEN }))),
    );
    expect(record).toHaveLength(2);
    expect(promptOf(record[1])).toContain("I liked it a lot.");
    expect(promptOf(record[1])).toContain("could not be parsed");
    expect(block).toMatchObject({
      status: "enabled_and_successful",
      repairs: 1,
      calls: 2,
      reason: "not scored: output_quality, instruction_adherence",
    });
    expect(block?.lines).toEqual([
      "[RUBRIC-JUDGE] task_completion: 0.70 - fixed on repair",
      "[RUBRIC-JUDGE] status: enabled_and_successful",
    ]);
  });

  it("custom_N dimensions from rubric_criteria", async () => {
    const { block, record } = await withJudgeServer("custom", (u) =>
      runJudge(
        judgeInput(httpEnv(u("custom"), { BENCH_JUDGE_AUTH_TOKEN: JUDGE_TOKEN }), {
          rubricCriteria: ["uses a table", "cites two sources"],
        }),
      ),
    );
    expect(promptOf(record[0])).toContain("- custom_0: uses a table");
    expect(promptOf(record[0])).toContain("- custom_1: cites two sources");
    expect(block?.dimensions.map((d) => [d.name, d.score])).toEqual([
      ["task_completion", 1],
      // not scored by this verdict: N/A (fail closed), not left out
      ["output_quality", null],
      ["instruction_adherence", null],
      ["custom_0", 0.25],
      ["custom_1", 0.75],
    ]);
  });

  it("a second identical call is served from the cache: no new request", async () => {
    const cache = new JudgeCache(path.join(root, "judge-cache"));
    const { record } = await withJudgeServer("cache", async (u) => {
      const env = httpEnv(u("ok"), { BENCH_JUDGE_AUTH_TOKEN: JUDGE_TOKEN });
      const first = await runJudge(judgeInput(env, { cache }));
      const second = await runJudge(judgeInput(env, { cache }));
      expect(first?.cached).toBe(false);
      expect(second).toMatchObject({ cached: true, calls: 0, lines: first?.lines });
      return second;
    });
    expect(record).toHaveLength(1);
  });

  it("workspace budget: 60 KB skipped, 5 KB cut to 3,000, a symlink outside not read", async () => {
    const bws = path.join(root, "budget-ws");
    await mkdir(bws);
    await writeFile(path.join(root, "outside-secret.txt"), "OUTSIDE-CONTENT-NEVER-SENT");
    await writeFile(path.join(bws, "big.txt"), "B".repeat(60 * 1024));
    await writeFile(path.join(bws, "five.txt"), `${"F".repeat(3000)}${"G".repeat(2000)}`);
    await symlink(path.join(root, "outside-secret.txt"), path.join(bws, "link.txt"));
    const { block, record } = await withJudgeServer("budget", (u) =>
      runJudge(
        judgeInput(httpEnv(u("ok"), { BENCH_JUDGE_AUTH_TOKEN: JUDGE_TOKEN }), { workspace: bws }),
      ),
    );
    expect(block?.status).toBe("enabled_and_successful");
    const prompt = promptOf(record[0]);
    expect(prompt).toContain(`\n=== five.txt ===\n${"F".repeat(3000)}\n`);
    expect(prompt).not.toContain("GGGG");
    expect(prompt).not.toContain("BBBB");
    expect(prompt).not.toContain("=== big.txt");
    expect(prompt).not.toContain("OUTSIDE-CONTENT");
    expect(prompt).not.toContain("=== link.txt");
  });
});

describe("judge over the claude CLI (fallback)", () => {
  it("a base URL without a credential: the real claude binary, the placeholder key, never the subject key", async () => {
    if ("error" in bin) throw new Error(bin.error);
    const claudeBin = bin.path;
    const { block, record, seen } = await withJudgeServer("cli", (u) => {
      const env = {
        BENCH_LLM_JUDGE: "1",
        BENCH_JUDGE_MODEL: "judge-model-x",
        BENCH_JUDGE_BASE_URL: u("ok"),
        CLAUDE_CODE_MAX_RETRIES: "0",
      };
      return runJudge(judgeInput(env, { cliBin: claudeBin }));
    });
    expect(block).toMatchObject({
      status: "enabled_and_successful",
      transport: "cli",
      model: "judge-model-x",
      calls: 1,
    });
    expect(block?.dimensions.map((d) => d.name)).toEqual([
      "task_completion",
      "output_quality",
      "instruction_adherence",
    ]);
    expect(block?.cost_usd).toEqual(expect.any(Number));
    const messages = record.filter((e) => e.path.includes("/v1/messages"));
    expect(messages.length).toBeGreaterThanOrEqual(1);
    expect(messages.every((e) => e.run.role === "judge")).toBe(true);
    const judgeRequests = seen.filter((s) => s.path.includes("/v1/messages"));
    expect(judgeRequests.every((s) => s.headers["x-api-key"] === JUDGE_PLACEHOLDER_KEY)).toBe(true);
    expect(JSON.stringify(seen)).not.toContain(SUBJECT_KEY);
    expect(JSON.stringify(seen)).not.toContain("subject.invalid");
    expect(promptOf(messages[0])).toContain("=== out.txt ===");
  });
});

describe("the judge of a run, under the default sandbox (auto: bwrap here)", () => {
  it("each judge call runs inside bubblewrap (its own PID and network namespaces), said once", async () => {
    const box = await makeSandbox("judge-sandbox");
    const server = await startModelServer({ script: parseModelScriptText(SCRIPT, "judge.yaml") });
    // While the judge waits for its answer, where do the processes carrying its endpoint run?
    const seen: ProcNs[][] = [];
    let judgeLine: RegExp = /^$/;
    const proxy = await startSnoopingProxy(server.url, (p) => {
      if (p.includes("/v1/messages")) seen.push(processesWithEnv(judgeLine));
    });
    const judgeUrl = runBaseUrl(proxy.url, { task: "ok", treatment: "X", rep: 1, role: "judge" });
    judgeLine = new RegExp(
      `^ANTHROPIC_BASE_URL=http://127\\.0\\.0\\.1:${proxy.port}/runs/ok/X/1/judge$`,
    );
    try {
      const out = box.dir("results");
      const r = await runCli(
        runArgs(
          "e2e-rescore-judge",
          out,
          "--judge",
          "--judge-model",
          "judge-model-x",
          "--exit-zero",
        ),
        { env: box.env({ BENCH_JUDGE_BASE_URL: judgeUrl }) },
      );
      expect(r.code, r.stderr).toBe(0);
      expect(
        r.stderr.match(/sandbox for the judge: bwrap \(auto: [^)]*bubblewrap works\)/g),
      ).toHaveLength(1);
      const report = await readRunReport(out, "note-CONTROL-r1");
      expect(report.judge).toMatchObject({ status: "enabled_and_successful", transport: "cli" });
      expectOnlyInsideBwrap(seen);
    } finally {
      await proxy.close();
      await server.close();
      await box.remove();
    }
  });
});
