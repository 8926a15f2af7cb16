import { describe, expect, it } from "vitest";
import type { Attribution } from "../../../src/analysis/attribution.js";
import { classifySample, type SampleInput } from "../../../src/analysis/sample-quality.js";

const RESULT = '{"type":"result","subtype":"success","is_error":false}';

/** A clean completed run with a result event and full telemetry. */
function run(over: Partial<SampleInput> = {}): SampleInput {
  return {
    outcome: "completed",
    exit_code: 0,
    has_result: true,
    stdout_tail: RESULT,
    stderr: "",
    failed: [],
    attribution: [],
    total_tokens: 1200,
    total_cost_usd: 0.01,
    ...over,
  };
}

const noResult = (over: Partial<SampleInput> = {}): SampleInput =>
  run({
    outcome: "agent_error",
    exit_code: 1,
    has_result: false,
    stdout_tail: "",
    total_tokens: null,
    total_cost_usd: null,
    ...over,
  });

const harnessAttr: Attribution = {
  bucket: "harness",
  check: "Required skill not invoked: hello",
  reason: "target Skill was never invoked, so workflow quality is not observable",
};
const taskAttr: Attribution = {
  bucket: "task",
  check: "validator: artifact path missing",
  reason: "task or validator path assumption failed",
};

type Row = [string, SampleInput, string, string, string];

describe("classifySample", () => {
  it.each<Row>([
    // harness_error: always excluded, even with a result event
    [
      "harness_error",
      run({ outcome: "harness_error", harness_error: "workspace copy failed: ENOSPC" }),
      "excluded",
      "harness_error",
      "high",
    ],
    [
      "harness_error with no message",
      run({ outcome: "harness_error", harness_error: null }),
      "excluded",
      "harness_error",
      "high",
    ],

    // api error reported in the result event (extension)
    [
      "api_error 429",
      run({
        exit_code: 1,
        api_error: { status: 429, message: "API Error: Request rejected (429)" },
      }),
      "excluded",
      "rate_limited",
      "high",
    ],
    [
      "api_error 401",
      run({
        exit_code: 1,
        api_error: { status: 401, message: "Invalid API key · Fix external API key" },
      }),
      "excluded",
      "auth_failure",
      "high",
    ],
    [
      "api_error timeout text",
      run({
        exit_code: 1,
        api_error: { status: null, message: "Request timed out… set API_TIMEOUT_MS above 3000." },
      }),
      "excluded",
      "api_timeout",
      "high",
    ],
    [
      "api_error connection text",
      run({
        exit_code: 1,
        api_error: { status: null, message: "API Error: Connection dropped (ECONNRESET)" },
      }),
      "excluded",
      "network_failure",
      "high",
    ],
    [
      "api_error 500",
      run({
        exit_code: 1,
        api_error: { status: 500, message: "API Error: 500 mock 500. This is a server-side issue" },
      }),
      "excluded",
      "api_error",
      "high",
    ],
    [
      "api_error 400: the agent's own invalid request is a failure of the run, kept",
      run({ exit_code: 1, api_error: { status: 400, message: "API Error: 400 mock bad request" } }),
      "flagged",
      "agent_invalid_request",
      "high",
    ],
    [
      "api_error 413 (request too large: the agent blew its context) is kept too",
      run({ exit_code: 1, api_error: { status: 413, message: "request too large" } }),
      "flagged",
      "agent_invalid_request",
      "high",
    ],
    [
      "api_error 404 (endpoint or model misconfigured): noise, medium",
      run({ exit_code: 1, api_error: { status: 404, message: "not found" } }),
      "excluded",
      "api_error",
      "medium",
    ],
    [
      "boundary: api_error null is ignored",
      run({ api_error: null }),
      "included",
      "valid_signal",
      "high",
    ],

    // hard noise, only without a result event
    [
      "rate_limited (no result)",
      noResult({ stderr: "HTTP 429 Too Many Requests" }),
      "excluded",
      "rate_limited",
      "high",
    ],
    [
      "rate_limited via stdout tail",
      noResult({ stdout_tail: "error: rate_limit exceeded" }),
      "excluded",
      "rate_limited",
      "high",
    ],
    [
      "boundary: 429 in stderr WITH a result -> flagged",
      run({ stderr: "HTTP 429 Too Many Requests" }),
      "flagged",
      "completed_run_mentions_outer_failure",
      "medium",
    ],
    [
      "boundary: 4291 inside an id is not a 429",
      noResult({ stdout_tail: '{"type":"system","session_id":"0b6d4291-aa"}' }),
      "flagged",
      "partial_observability",
      "low",
    ],
    [
      "api_timeout (no result)",
      noResult({ stderr: "API request timed out" }),
      "excluded",
      "api_timeout",
      "high",
    ],
    [
      "boundary: api_timeout loses to rate_limited (order)",
      noResult({ stderr: "read timed out\nquota exceeded" }),
      "excluded",
      "rate_limited",
      "high",
    ],
    [
      "runner_timeout by regex (no result)",
      noResult({ stderr: "killed: timed out after 600s" }),
      "excluded",
      "runner_timeout",
      "high",
    ],
    [
      "runner_timeout by outcome (no result)",
      noResult({ outcome: "timeout", exit_code: null }),
      "excluded",
      "runner_timeout",
      "high",
    ],
    [
      "runner_timeout by exit 124 (no result)",
      noResult({ exit_code: 124 }),
      "excluded",
      "runner_timeout",
      "high",
    ],
    [
      "boundary: timeout WITH a result -> flagged, kept",
      run({ outcome: "timeout", exit_code: null }),
      "flagged",
      "runner_timeout",
      "medium",
    ],
    [
      "boundary: exit 124 WITH a result -> flagged, kept",
      run({ exit_code: 124 }),
      "flagged",
      "runner_timeout",
      "medium",
    ],
    [
      "container_failure (no result)",
      noResult({ stderr: "docker build step 3 failed" }),
      "excluded",
      "container_failure",
      "high",
    ],
    [
      "container_failure mount",
      noResult({ stderr: "bind mount of /work failed" }),
      "excluded",
      "container_failure",
      "high",
    ],
    [
      'boundary: "docker" and "failed" on different lines is not container noise',
      noResult({ stderr: "docker\nfailed" }),
      "flagged",
      "partial_observability",
      "low",
    ],
    [
      "auth_failure (no result)",
      noResult({ stderr: "401 Unauthorized" }),
      "excluded",
      "auth_failure",
      "high",
    ],
    [
      "network_failure (no result)",
      noResult({ stderr: "connect ECONNREFUSED 127.0.0.1:9; connection refused" }),
      "excluded",
      "network_failure",
      "high",
    ],
    [
      "boundary: network words WITH a result -> flagged",
      run({ stderr: "connection reset by peer" }),
      "flagged",
      "completed_run_mentions_outer_failure",
      "medium",
    ],

    // soft flags
    [
      "outer failure in failed checks",
      run({ failed: ["tests: container exited"] }),
      "flagged",
      "completed_run_mentions_outer_failure",
      "medium",
    ],
    [
      "boundary: outer-failure words in stdout only do not flag",
      run({ stdout_tail: `${RESULT}\nthe docker auth timeout docs` }),
      "included",
      "valid_signal",
      "high",
    ],
    [
      "harness_trigger_suspect",
      run({ failed: ["Required skill not invoked: hello"], attribution: [harnessAttr] }),
      "flagged",
      "harness_trigger_suspect",
      "medium",
    ],
    [
      "harness_trigger_suspect without a result, no noise",
      noResult({ failed: ["Required skill not invoked: hello"], attribution: [harnessAttr] }),
      "flagged",
      "harness_trigger_suspect",
      "medium",
    ],
    [
      "validator_assumption",
      run({ failed: ["validator: artifact path missing"], attribution: [taskAttr] }),
      "flagged",
      "validator_assumption",
      "medium",
    ],
    [
      "boundary: validator text but attribution not task",
      run({
        failed: ["validator: artifact path missing"],
        attribution: [{ ...taskAttr, bucket: "model" }],
      }),
      "included",
      "valid_signal",
      "high",
    ],
    [
      "partial_observability (tokens missing)",
      run({ total_tokens: null }),
      "flagged",
      "partial_observability",
      "medium",
    ],
    [
      "partial_observability (cost missing)",
      run({ total_cost_usd: null }),
      "flagged",
      "partial_observability",
      "medium",
    ],
    [
      "boundary: zero tokens and cost are present telemetry",
      run({ total_tokens: 0, total_cost_usd: 0 }),
      "included",
      "valid_signal",
      "high",
    ],

    // no result, no noise
    [
      "no result, failed checks -> flagged low",
      noResult({ failed: ["Agent execution failed with exit code 1"] }),
      "flagged",
      "partial_observability",
      "low",
    ],
    [
      "no result, no failed checks -> flagged low",
      noResult(),
      "flagged",
      "partial_observability",
      "low",
    ],

    // clean
    ["clean completed run", run(), "included", "valid_signal", "high"],
    [
      "agent_error with a result and a real test failure",
      run({
        outcome: "agent_error",
        exit_code: 1,
        failed: ["pytest: 2 failed"],
        attribution: [{ bucket: "model", check: "pytest: 2 failed", reason: "r" }],
      }),
      "included",
      "valid_signal",
      "high",
    ],
  ])("%s", (_name, input, status, code, confidence) => {
    const q = classifySample(input);
    expect(q.status).toBe(status);
    expect(q.reason_code).toBe(code);
    expect(q.confidence).toBe(confidence);
    expect(q.include_in_analysis).toBe(status !== "excluded");
    expect(q.reason.length).toBeGreaterThan(0);
  });

  it.each<[string, SampleInput, string[]]>([
    [
      "hard noise: the matching line",
      noResult({ stderr: "starting\nHTTP 429 Too Many Requests\nbye" }),
      ["HTTP 429 Too Many Requests"],
    ],
    [
      "timeout by outcome",
      noResult({ outcome: "timeout", exit_code: 124 }),
      ["outcome timeout (exit code 124)"],
    ],
    ["timeout with result", run({ exit_code: 124 }), ["exit code 124", "result event present"]],
    [
      "harness attribution reasons",
      run({ failed: [harnessAttr.check], attribution: [harnessAttr, taskAttr] }),
      [`${harnessAttr.check} -> ${harnessAttr.reason}`],
    ],
    [
      "api error",
      run({ api_error: { status: 429, message: "slow down" } }),
      ["api_error_status 429: slow down"],
    ],
    ["harness error", run({ outcome: "harness_error", harness_error: "  boom  " }), ["boom"]],
    ["no result, first failed check", noResult({ failed: ["first", "second"] }), ["first"]],
    ["clean", run(), ["result event present"]],
  ])("evidence: %s", (_n, input, evidence) => {
    expect(classifySample(input).evidence).toEqual(evidence);
  });

  it("evidence lines are cut to 200 characters", () => {
    const q = classifySample(noResult({ stderr: `429 ${"x".repeat(500)}` }));
    expect(q.evidence[0]?.length).toBe(200);
  });

  it("harness_error reason carries the harness message", () => {
    expect(
      classifySample(run({ outcome: "harness_error", harness_error: "disk full" })).reason,
    ).toBe("disk full");
  });
});
