import { isRecord } from "../../../src/core/json.js";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { request } from "node:http";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  parseModelScript,
  runBaseUrl,
  startModelServer,
  type ModelServer,
} from "../../../src/model/index.js";

const script = parseModelScript({
  defaults: { model: "mock-1" },
  rules: [
    {
      name: "judge",
      when: { role: "judge" },
      reply: { text: "[RUBRIC-JUDGE] task_completion: 1.0 - fine" },
    },
    {
      name: "flaky",
      when: { task: "flaky" },
      steps: [
        {
          text: "finally",
          fault: [
            { status: 429, headers: { "retry-after": 2 }, message: "slow down" },
            { status: 529 },
          ],
        },
      ],
    },
    {
      name: "rawbody",
      when: { task: "raw" },
      steps: [{ fault: { status: 401, body: "nope", headers: { "x-should-retry": "false" } } }],
    },
    { name: "cut", when: { task: "cut" }, steps: [{ text: "abcdef", fault: { cut: true } }] },
    {
      name: "cleancut",
      when: { task: "cleancut" },
      steps: [{ text: "abcdef", fault: { cut: { clean: true, after_events: 2 } } }],
    },
    { name: "hang", when: { task: "hang" }, steps: [{ fault: { hang: true } }] },
    {
      name: "main",
      when: { task: "main" },
      steps: [{ tool_use: { name: "Bash", input: { command: "ls" } } }, { text: "done" }],
    },
  ],
});

let dir: string;
let server: ModelServer;
let recordFile: string;
const exchanges: Array<Record<string, unknown>> = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "skillbench-model-"));
  recordFile = path.join(dir, "log", "model.jsonl");
  server = await startModelServer({ script, recordFile, onExchange: (e) => exchanges.push(e) });
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

const base = (task: string, role: "subject" | "judge" = "subject", rep = 1) =>
  runBaseUrl(server.url, { task, treatment: "T", rep, role });

function post(url: string, body: unknown): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": "sk-secret-123" },
    body: JSON.stringify(body),
  });
}
const ask = (assistants: number, stream = false) => ({
  model: "claude-req",
  stream,
  messages: [
    { role: "user", content: "hi" },
    ...Array.from({ length: assistants }, (_, i) => [
      { role: "assistant", content: [{ type: "tool_use", id: `t${i}`, name: "Bash", input: {} }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: `t${i}`, content: "ok" }] },
    ]).flat(),
  ],
});

async function errorMessage(res: Response): Promise<string> {
  const j: unknown = await res.json();
  return isRecord(j) && isRecord(j.error) && typeof j.error.message === "string"
    ? j.error.message
    : "";
}

describe("model server over HTTP", () => {
  it("listens on 127.0.0.1", () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
  });

  it("answers non-streaming requests with a message, by conversation position", async () => {
    const r0 = await post(`${base("main")}/v1/messages`, ask(0));
    expect(r0.status).toBe(200);
    expect(await r0.json()).toMatchObject({
      type: "message",
      model: "mock-1",
      stop_reason: "tool_use",
      content: [{ type: "tool_use", name: "Bash" }],
    });
    const r1 = await post(`${base("main")}/v1/messages?beta=true`, ask(1));
    expect(await r1.json()).toMatchObject({
      stop_reason: "end_turn",
      content: [{ type: "text", text: "done" }],
    });
  });

  it("streams SSE when stream is true", async () => {
    const res = await post(`${base("main")}/v1/messages?beta=true`, ask(1, true));
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    const names = (await res.text())
      .split("\n")
      .filter((l) => l.startsWith("event: "))
      .map((l) => l.slice(7));
    expect(names[0]).toBe("message_start");
    expect(names.slice(-2)).toEqual(["message_delta", "message_stop"]);
  });

  it("serves several roles from one script (judge repeats its reply)", async () => {
    for (let i = 0; i < 2; i++) {
      const res = await post(`${base("x", "judge")}/v1/messages`, {
        model: "j",
        max_tokens: 2048,
        messages: [{ role: "user", content: "score it" }],
      });
      expect(await res.json()).toMatchObject({
        content: [{ type: "text", text: "[RUBRIC-JUDGE] task_completion: 1.0 - fine" }],
      });
    }
  });

  it("explains an unmatched request with a 500", async () => {
    const res = await post(`${base("nothing")}/v1/messages`, ask(0));
    expect(res.status).toBe(500);
    expect(await errorMessage(res)).toMatch(
      /no rule matched this request \(task=nothing treatment=T rep=1 role=subject; position 0.*latest user text: "hi"/,
    );
  });

  it("errors past the end of a sequence", async () => {
    const res = await post(`${base("main")}/v1/messages`, ask(2));
    expect(res.status).toBe(500);
    expect(await errorMessage(res)).toContain('rule "main" has 2 step(s)');
  });

  it("plays a fault list, counted per run, then the reply", async () => {
    const url = `${base("flaky", "subject", 2)}/v1/messages`;
    const a = await post(url, ask(0));
    expect([a.status, a.headers.get("retry-after"), await errorMessage(a)]).toEqual([
      429,
      "2",
      "slow down",
    ]);
    const b = await post(url, ask(0));
    expect(b.status).toBe(529);
    expect(await b.json()).toMatchObject({ type: "error", error: { type: "overloaded_error" } });
    const c = await post(url, ask(0));
    expect(await c.json()).toMatchObject({ content: [{ type: "text", text: "finally" }] });
    // Another rep has its own attempt counter.
    expect((await post(`${base("flaky", "subject", 3)}/v1/messages`, ask(0))).status).toBe(429);
  });

  it("sends a raw fault body and headers", async () => {
    const res = await post(`${base("raw")}/v1/messages`, ask(0));
    expect([res.status, res.headers.get("x-should-retry"), await res.text()]).toEqual([
      401,
      "false",
      "nope",
    ]);
  });

  it("cuts a stream by destroying the socket", async () => {
    const res = await post(`${base("cut")}/v1/messages`, ask(0, true));
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow(/terminated/);
  });

  it("ends a stream cleanly without message_stop", async () => {
    const res = await post(`${base("cleancut")}/v1/messages`, ask(0, true));
    const names = (await res.text())
      .split("\n")
      .filter((l) => l.startsWith("event: "))
      .map((l) => l.slice(7));
    expect(names).toEqual(["message_start", "content_block_start"]);
  });

  it("answers count_tokens, models, unknown paths and bad run paths", async () => {
    const c = await post(`${base("main")}/v1/messages/count_tokens`, ask(0));
    const cj: unknown = await c.json();
    expect(isRecord(cj) && typeof cj.input_tokens === "number" && cj.input_tokens > 0).toBe(true);
    expect((await fetch(`${server.url}/v1/models`)).status).toBe(200);
    const nf = await post(`${base("main")}/v1/complete`, {});
    expect([nf.status, await errorMessage(nf)]).toEqual([
      404,
      "skillbench model server: no such endpoint POST /v1/complete",
    ]);
    const bad = await post(`${server.url}/runs/a/b/zero/subject/v1/messages`, ask(0));
    expect(bad.status).toBe(400);
    expect(await errorMessage(bad)).toContain("rep must be a positive integer");
    expect((await post(`${server.url}/v1/messages`, "not json")).status).toBe(500);
  });
});

describe("record file", () => {
  it("records every exchange, with credentials redacted", async () => {
    const file = path.join(dir, "record-test.jsonl");
    const s = await startModelServer({ script, recordFile: file });
    const url = `${runBaseUrl(s.url, { task: "main", treatment: "T", rep: 1, role: "subject" })}/v1/messages?beta=true`;
    await (
      await post(url, { ...ask(0), system: "S".repeat(5000), note: "key sk-secret-123 leaked" })
    ).text();
    await (
      await post(
        `${runBaseUrl(s.url, { task: "zzz", treatment: "T", rep: 1, role: "subject" })}/v1/messages`,
        ask(0),
      )
    ).text();
    await s.close();
    const text = await readFile(file, "utf8");
    expect(text).not.toContain("sk-secret-123");
    const lines = text
      .trim()
      .split("\n")
      .map((l): unknown => JSON.parse(l));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      run: { task: "main", treatment: "T", rep: 1, role: "subject" },
      path: "/runs/main/T/1/subject/v1/messages?beta=true",
      headers: { "x-api-key": "[REDACTED]" },
      rule: { index: 6, name: "main" },
      step: 0,
      attempt: 1,
      outcome: "reply",
      status: 200,
      facts: { position: 0, user_text: "hi" },
      reply: { content: [{ type: "tool_use", name: "Bash" }] },
      request: {
        system: { chars: 5000 },
        note: "key [REDACTED] leaked",
        messages: [{ role: "user", content: "hi" }],
      },
    });
    expect(lines[1]).toMatchObject({ outcome: "no_match", status: 500, rule: null });
    expect(isRecord(lines[1]) && String(lines[1].error)).toContain("no rule matched");
  });
});

/** POST a Messages request through a unix socket; status and body. */
function postVia(socketPath: string, urlPath: string, body: unknown): Promise<[number, string]> {
  return new Promise((resolve, reject) => {
    const data = JSON.stringify(body);
    const req = request(
      {
        socketPath,
        path: urlPath,
        method: "POST",
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(data) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (d: Buffer) => chunks.push(d));
        res.on("end", () => resolve([res.statusCode ?? 0, Buffer.concat(chunks).toString("utf8")]));
      },
    );
    req.on("error", reject);
    req.end(data);
  });
}

describe("connections handed over (accept)", () => {
  it("serves a connection that arrived elsewhere like one on its port, and cuts one handed after close()", async () => {
    const s = await startModelServer({ script });
    const sock = path.join(dir, "handed.sock");
    const door = net.createServer((c) => s.accept(c));
    await new Promise<void>((resolve) => door.listen(sock, resolve));
    const runPath = new URL(
      runBaseUrl(s.url, { task: "main", treatment: "T", rep: 1, role: "subject" }),
    ).pathname;
    const [status, body] = await postVia(sock, `${runPath}/v1/messages`, ask(1));
    expect(status).toBe(200);
    expect(JSON.parse(body)).toMatchObject({ content: [{ type: "text", text: "done" }] });
    await s.close();
    await expect(postVia(sock, `${runPath}/v1/messages`, ask(0))).rejects.toThrow();
    await new Promise<void>((resolve) => door.close(() => resolve()));
  });
});

describe("closing", () => {
  it("close() ends promptly while a request hangs", async () => {
    const seen: Array<Record<string, unknown>> = [];
    let hanging: () => void = () => {};
    const hangSeen = new Promise<void>((resolve) => {
      hanging = resolve;
    });
    const s = await startModelServer({
      script,
      onExchange: (e) => {
        seen.push(e);
        if (e.outcome === "fault") hanging();
      },
    });
    const req = post(
      `${runBaseUrl(s.url, { task: "hang", treatment: "T", rep: 1, role: "subject" })}/v1/messages`,
      ask(0, true),
    );
    const failed = req.then(
      () => "answered",
      () => "failed",
    );
    await hangSeen;
    expect(seen[0]).toMatchObject({ outcome: "fault", fault: { kind: "hang" }, status: null });
    await s.close();
    expect(await failed).toBe("failed");
  });
});
