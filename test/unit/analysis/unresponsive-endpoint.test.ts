/**
 * `api_unresponsive` on any endpoint (issue 32, point 6; docs/statistics.md §8): the relay's or
 * tap's timing of the model requests, else the agent's stream, decide whether a timed-out run
 * was left waiting on the model. Pure rules, and the request log that feeds them.
 */
import { describe, expect, it } from "vitest";
import { classifySample, type SampleInput } from "../../../src/analysis/sample-quality.js";
import type { FailureRecord } from "../../../src/core/report.js";
import type { ModelRequests } from "../../../src/core/sandbox.js";
import { CodexDecoder } from "../../../src/agents/codex/decoder.js";
import { parseEvidence } from "../../../src/evidence/index.js";
import { createRequestLog } from "../../../src/sandbox/request-log.js";

const TIMEOUT: FailureRecord = {
  source: "agent",
  code: "agent_timeout",
  message: "Agent timed out: no result after 60s",
  status: null,
  phase: "agent",
};

function timedOut(typed: Partial<NonNullable<SampleInput["typed"]>>): SampleInput {
  return {
    outcome: "timeout",
    exit_code: null,
    has_result: false,
    stdout_tail: "",
    stderr: "",
    failed: [TIMEOUT.message],
    attribution: [],
    total_tokens: null,
    total_cost_usd: null,
    typed: { failures: [TIMEOUT], model_api: null, api_retries: 0, timeout_ms: 60_000, ...typed },
  };
}

const reqs = (last: ModelRequests["last"], via: ModelRequests["via"] = "relay"): ModelRequests => ({
  via,
  requests: 3,
  answered: last?.answered === false ? 2 : 3,
  last,
});

describe("a timed-out run on an endpoint that is not the scripted model", () => {
  it.each<[string, Partial<NonNullable<SampleInput["typed"]>>, string, string, RegExp]>([
    [
      "relay: the last request unanswered for most of the timeout -> noise",
      { model_requests: reqs({ waited_ms: 55_000, answered: false }) },
      "api_unresponsive",
      "high",
      /the last of 3 model request\(s\) waited 55\.0 s of the 60\.0 s timeout with no byte back \(skillbench's relay; 2 answered\)/,
    ],
    [
      "tap: the same, named as the tap",
      { model_requests: reqs({ waited_ms: 31_000, answered: false }, "tap") },
      "api_unresponsive",
      "high",
      /loopback tap/,
    ],
    [
      "relay: unanswered for less than half the timeout -> the run's own hang, kept",
      { model_requests: reqs({ waited_ms: 20_000, answered: false }) },
      "agent_timeout",
      "high",
      /the last unanswered for only 20\.0 s \(skillbench's relay\)/,
    ],
    [
      "relay: the last request answered (a tool hung) -> kept, even if the stream ends waiting",
      { model_requests: reqs({ waited_ms: 800, answered: true }), awaiting_model: true },
      "agent_timeout",
      "high",
      /3 of 3 model request\(s\) answered; the last answered after 0\.8 s/,
    ],
    [
      "no relay: the stream ends waiting for the model -> noise (medium)",
      { awaiting_model: true },
      "api_unresponsive",
      "medium",
      /no model output after its last request began/,
    ],
    [
      "no relay: the stream ends on model output (a tool call) -> kept",
      { awaiting_model: false },
      "agent_timeout",
      "medium",
      /no api_retry events/,
    ],
  ])("%s", (_name, typed, code, confidence, evidence) => {
    const q = classifySample(timedOut(typed));
    expect(q.reason_code).toBe(code);
    expect(q.include_in_analysis).toBe(code !== "api_unresponsive");
    expect(q.confidence).toBe(confidence);
    expect(q.evidence.join("\n")).toMatch(evidence);
  });
});

describe("createRequestLog", () => {
  it("times requests by the bytes each way, per connection", () => {
    let t = 0;
    const log = createRequestLog("relay", () => t);
    expect(log.snapshot()).toEqual({ via: "relay", requests: 0, answered: 0, last: null });
    log.fromAgent(1); // request head
    t = 5;
    log.fromAgent(1); // its body: the same request
    t = 100;
    log.fromEndpoint(1); // first byte back after 100 ms
    t = 150;
    log.fromEndpoint(1);
    t = 200;
    log.fromAgent(1); // the next request on the kept-alive connection
    t = 1200;
    expect(log.snapshot()).toEqual({
      via: "relay",
      requests: 2,
      answered: 1,
      last: { waited_ms: 1000, answered: false },
    });
    log.closed(1); // the agent was killed: the request waits no longer
    t = 5000;
    expect(log.snapshot().last).toEqual({ waited_ms: 1000, answered: false });
  });

  it("the request begun last is the one reported, whichever connection", () => {
    let t = 0;
    const log = createRequestLog("tap", () => t);
    log.fromAgent(1);
    t = 10;
    log.fromAgent(2);
    t = 30;
    log.fromEndpoint(2);
    t = 1000;
    expect(log.snapshot()).toEqual({
      via: "tap",
      requests: 2,
      answered: 1,
      last: { waited_ms: 20, answered: true },
    });
  });
});

describe("Evidence.awaiting_model: the stream rule's input, for every agent", () => {
  const claude = (...events: object[]): boolean | null =>
    parseEvidence(events.map((e) => JSON.stringify(e)).join("\n")).awaiting_model;
  const init = { type: "system", subtype: "init", session_id: "s" };
  const toolUse = {
    type: "assistant",
    message: { id: "m", content: [{ type: "tool_use", id: "t1", name: "Bash", input: {} }] },
  };
  const toolResult = {
    type: "user",
    message: { content: [{ type: "tool_result", tool_use_id: "t1", content: "ok" }] },
  };
  it.each<[string, object[], boolean | null]>([
    ["nothing", [], null],
    ["the session began, no model output", [init], true],
    ["the model asked for a tool (the tool then hung)", [init, toolUse], false],
    ["the tool's result went back, no model output", [init, toolUse, toolResult], true],
    [
      "a retry of the request: still waiting",
      [init, { type: "system", subtype: "api_retry" }],
      true,
    ],
    ["a final event", [init, { type: "result", subtype: "success", is_error: false }], false],
  ])("claude: %s", (_name, events, want) => {
    expect(claude(...events)).toBe(want);
  });

  it("codex (the assembled decoders): the same reading", () => {
    const codex = (...events: object[]): boolean | null => {
      const d = new CodexDecoder({});
      for (const e of events) d.pushLine(JSON.stringify(e));
      return d.finish().awaiting_model;
    };
    const started = { type: "thread.started", thread_id: "t" };
    const cmd = (done: boolean): object => ({
      type: done ? "item.completed" : "item.started",
      item: {
        id: "i1",
        type: "command_execution",
        command: "sleep 99",
        status: done ? "completed" : "in_progress",
      },
    });
    expect(codex(started)).toBe(true);
    expect(codex(started, { type: "turn.started" }, cmd(false))).toBe(false);
    expect(codex(started, { type: "turn.started" }, cmd(false), cmd(true))).toBe(true);
  });
});
