import { describe, expect, it } from "vitest";
import type { Evidence, ToolCall } from "../../../src/core/evidence.js";
import { RunReportSchema, type RunReport } from "../../../src/core/report.js";
import { contentAttributes, sha256Hex } from "../../../src/telemetry/content.js";
import {
  experimentSpanId,
  runSpanId,
  spanIdFor,
  traceIdFor,
  traceparent,
} from "../../../src/telemetry/ids.js";
import { planExperimentSpan } from "../../../src/telemetry/plan-experiment.js";
import { planRunSpans, type RunTraceInput } from "../../../src/telemetry/plan-run.js";
import { redactOtlpJson } from "../../../src/telemetry/agent-collector.js";

const T0 = Date.parse("2026-01-01T00:00:00.000Z");
const policy = {
  includeContent: false,
  redact: (s: string) => s.replaceAll("SECRET", "[REDACTED]"),
  maxChars: 50,
};

function call(id: string, name: string, turn: number, isError = false): ToolCall {
  return {
    id,
    name,
    input: { command: "echo hi" },
    output: "hi",
    is_error: isError,
    turn,
    parent_tool_use_id: null,
  };
}

function report(): RunReport {
  return RunReportSchema.parse({
    schema: "skillbench.report.v1",
    run_id: "t-A-r1",
    run_uuid: null,
    experiment_id: "exp-1",
    task: "t",
    treatment: "A",
    rep: 1,
    passed: false,
    status: "failed",
    outcome: "completed",
    agent_outcome: "completed",
    outcome_detail: "completed",
    harness_error: null,
    exit_code: 0,
    checks_passed: ["a"],
    checks_failed: ["b SECRET"],
    rubric: {
      profile: "generic",
      dimensions: [
        { name: "completion", weight: 2, score: 0.5, reason: "1/2", checks: [] },
        { name: "skill_invocation", weight: 1, score: null, reason: "n/a", checks: [] },
      ],
      weighted_score: 0.5,
      rubric_avg: 0.5,
    },
    rubric_lines: [],
    events_summary: null,
    skill_sources: [],
    sample_quality: {
      status: "included",
      reason_code: "valid_signal",
      reason: "",
      include_in_analysis: true,
      confidence: "high",
      evidence: [],
    },
    failure_attribution: [],
    interaction: null,
    judge: null,
    model: "m",
    sandbox: null,
    agent: { name: "claude-code", bin: null, version: "2.1" },
    hashes: { task: "h", suite: "h" },
    timing: {
      started_at: new Date(T0).toISOString(),
      finished_at: new Date(T0 + 10_000).toISOString(),
      wall_ms: 10_000,
    },
    artifacts: { stdout: "", stderr: "", events: null, validation: null, workspace: null },
    timestamp: "",
  });
}

function evidence(calls: ToolCall[], resultLines: number[]): Evidence {
  return {
    tool_calls: calls,
    results: resultLines.map((line) => ({
      line,
      subtype: "success",
      is_error: false,
      result: "ok",
      num_turns: 1,
      duration_ms: 1,
      terminal_reason: null,
      api_error_status: null,
      session_id: "s",
    })),
    agent: { claude_code_version: null, model: "m", cwd: null },
    session_ids: ["s"],
  } as unknown as Evidence;
}

function input(over: Partial<RunTraceInput>): RunTraceInput {
  return {
    report: report(),
    evidence: null,
    lineTimes: null,
    toolLines: new Map(),
    validators: [],
    scriptedModel: true,
    ...over,
  };
}

describe("ids", () => {
  it("are deterministic, of W3C length, and distinct per run", () => {
    expect(traceIdFor("e")).toMatch(/^[0-9a-f]{32}$/);
    expect(runSpanId("e", "r1")).toMatch(/^[0-9a-f]{16}$/);
    expect(runSpanId("e", "r1")).toBe(runSpanId("e", "r1"));
    expect(runSpanId("e", "r1")).not.toBe(runSpanId("e", "r2"));
    expect(runSpanId("e", "r1")).not.toBe(experimentSpanId("e"));
    expect(traceparent("a".repeat(32), "b".repeat(16))).toBe(
      `00-${"a".repeat(32)}-${"b".repeat(16)}-01`,
    );
  });
});

describe("content policy", () => {
  it("hash and length by default, of the redacted text", () => {
    expect(contentAttributes("k", "a SECRET b", policy)).toEqual({
      k: `sha256:${sha256Hex("a [REDACTED] b")}`,
      "k.length": 10,
    });
  });
  it("the redacted text, cut at maxChars, when content is included", () => {
    const p = { ...policy, includeContent: true, maxChars: 5 };
    expect(contentAttributes("k", "SECRET", p)).toEqual({
      k: "[REDA… [5 more characters]",
      "k.length": 6,
    });
    expect(contentAttributes("k", null, p)).toEqual({});
  });
});

describe("planRunSpans", () => {
  it("without line times: the run span only, tool calls as untimed events", () => {
    const spans = planRunSpans(input({ evidence: evidence([call("x", "Bash", 1)], [3]) }), policy);
    expect(spans.map((s) => s.name)).toEqual(["invoke_agent claude-code"]);
    const run = spans[0];
    expect(run?.attributes["skillbench.timing_source"]).toBe("none");
    expect(run?.events.filter((e) => e.name === "skillbench.tool_call")).toHaveLength(1);
    expect(run?.parentSpanId).toBe(experimentSpanId("exp-1"));
    expect(run?.traceId).toBe(traceIdFor("exp-1"));
  });

  it("turns end at their result lines; tools run from their call to their result", () => {
    // lines: 1 init, 2 call x, 3 result x, 4 result (turn 1), 5 call y, 6 result y (error), 7 result (turn 2)
    const times = [0, 100, 300, 400, 1000, 1100, 2000].map((t) => T0 + t);
    const spans = planRunSpans(
      input({
        evidence: evidence([call("x", "Bash", 1), call("y", "Write", 2, true)], [4, 7]),
        lineTimes: times,
        toolLines: new Map([
          ["x", { use: 2, result: 3 }],
          ["y", { use: 5, result: 6 }],
        ]),
        validators: [
          {
            script: "v.py",
            status: "ok",
            exit_code: 0,
            duration_ms: 500,
            passed: ["a"],
            failed: [],
          },
          {
            script: "w.sh",
            status: "crashed",
            exit_code: 1,
            duration_ms: 99_999,
            passed: [],
            failed: [],
          },
        ],
      }),
      policy,
    );
    const get = (name: string) => spans.find((s) => s.name === name);
    expect(spans.map((s) => s.name)).toEqual([
      "invoke_agent claude-code",
      "turn 1",
      "execute_tool Bash",
      "turn 2",
      "execute_tool Write",
      "validate v.py",
      "validate w.sh",
    ]);
    expect([get("turn 1")?.start, get("turn 1")?.end]).toEqual([T0, T0 + 400]);
    expect([get("turn 2")?.start, get("turn 2")?.end]).toEqual([T0 + 1000, T0 + 2000]);
    expect([get("execute_tool Bash")?.start, get("execute_tool Bash")?.end]).toEqual([
      T0 + 100,
      T0 + 300,
    ]);
    expect(get("execute_tool Bash")?.parentSpanId).toBe(get("turn 1")?.spanId);
    expect(get("execute_tool Write")?.status.code).toBe("error");
    // validators are laid end to end after the agent, never past the run's end
    expect([get("validate v.py")?.start, get("validate v.py")?.end]).toEqual([
      T0 + 2000,
      T0 + 2500,
    ]);
    expect(get("validate w.sh")?.end).toBe(T0 + 10_000);
    expect(get("validate w.sh")?.status.code).toBe("error");
    expect(get("turn 1")?.spanId).toBe(spanIdFor("exp-1", "turn", "t-A-r1", "1"));
  });

  it("evaluation events: passed, checks pass rate, weighted score, each dimension (n/a labelled)", () => {
    const [run] = planRunSpans(input({}), policy);
    const evs = run?.events.map((e) => [
      e.attributes["gen_ai.evaluation.name"],
      e.attributes["gen_ai.evaluation.score.value"] ?? null,
      e.attributes["gen_ai.evaluation.score.label"] ?? null,
    ]);
    expect(evs).toEqual([
      ["passed", 0, "fail"],
      ["checks_pass_rate", 0.5, null],
      ["weighted_score", 0.5, null],
      ["rubric.completion", 0.5, null],
      ["rubric.skill_invocation", null, "n/a"],
    ]);
  });
});

/** The experiment span's input for these reports (the other fields as a small local run gives them). */
function spanInput(
  reports: RunReport[],
  qualityGates: { name: string; passed: boolean; detail: string }[] = [],
): Parameters<typeof planExperimentSpan>[0] {
  return {
    experimentId: "exp-1",
    startedAt: null,
    completedAt: null,
    suitePath: "/s",
    suiteHash: "h",
    treatments: ["A"],
    model: null,
    skillbenchVersion: "0",
    agentVersion: null,
    scriptedModel: true,
    reports,
    qualityGates,
  };
}

describe("planExperimentSpan", () => {
  it("the root span with pass rate, pass@k and pass^k per treatment and failed gates as error", () => {
    const a = report();
    const b = {
      ...report(),
      run_id: "t-A-r2",
      rep: 2,
      passed: true,
      status: "passed",
      checks_failed: [],
    } as RunReport;
    const span = planExperimentSpan(
      spanInput([a, b], [{ name: "minPassRate", passed: false, detail: "0.5 < 0.8" }]),
    );
    expect(span.parentSpanId).toBeNull();
    expect(span.start).toBe(T0);
    const ev = (name: string, k?: number) =>
      span.events.find(
        (e) =>
          e.attributes["gen_ai.evaluation.name"] === name &&
          (k === undefined || e.attributes["skillbench.k"] === k),
      )?.attributes["gen_ai.evaluation.score.value"];
    expect(ev("pass_rate")).toBe(0.5);
    expect(ev("pass_at_k", 2)).toBe(1);
    expect(ev("pass_power_k", 2)).toBe(0);
    expect(ev("quality_gate")).toBe(0);
    expect(span.status.code).toBe("error");
  });

  it("spans the earliest run start to the latest run end at 200,000 runs (no argument spread)", () => {
    const base = report();
    const reports = Array.from({ length: 200_000 }, (_, i) => ({
      ...base,
      run_id: `t-A-r${i + 1}`,
      rep: i + 1,
      timing: {
        started_at: new Date(T0 + 1000 * ((i * 7919) % 200_000)).toISOString(),
        finished_at: new Date(T0 + 1000 * ((i * 7919) % 200_000) + 500).toISOString(),
        wall_ms: 500,
      },
    })) as RunReport[];
    const span = planExperimentSpan(spanInput(reports));
    expect(span.start).toBe(T0);
    expect(span.end).toBe(T0 + 1000 * 199_999 + 500);
  });
});

describe("redactOtlpJson (the agent's own spans)", () => {
  const body = {
    resourceSpans: [
      {
        scopeSpans: [
          {
            spans: [
              {
                name: "x SECRET",
                attributes: [
                  { key: "user_prompt", value: { stringValue: "do SECRET things" } },
                  { key: "user_prompt_length", value: { intValue: "16" } },
                  { key: "model", value: { stringValue: "m-SECRET" } },
                ],
              },
            ],
          },
        ],
      },
    ],
  };
  it("hashes content attributes and redacts secrets everywhere", () => {
    const out = JSON.stringify(redactOtlpJson(body, policy.redact, false));
    expect(out).not.toContain("SECRET");
    expect(out).toContain(`sha256:${sha256Hex("do [REDACTED] things")}`);
    expect(out).toContain('"m-[REDACTED]"');
    expect(out).toContain('"intValue":"16"');
  });
  it("keeps redacted content when content is included", () => {
    const out = JSON.stringify(redactOtlpJson(body, policy.redact, true));
    expect(out).toContain("do [REDACTED] things");
  });
});
