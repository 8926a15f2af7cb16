/**
 * Sample quality and attribution on typed failure records (docs/statistics.md §7 typed table,
 * §8 typed rules): the decision comes from {source, code} and the model-API evidence, never
 * from the words of a validator's message.
 */
import { describe, expect, it } from "vitest";
import { attributeFailures, ATTRIBUTION_REASONS as R } from "../../../src/analysis/attribution.js";
import { classifySample, type SampleInput } from "../../../src/analysis/sample-quality.js";
import type { FailureRecord, ModelApiRecord } from "../../../src/core/report.js";

const rec = (
  source: FailureRecord["source"],
  code: string,
  message: string,
  status: number | null = null,
): FailureRecord => ({
  source,
  code,
  message,
  status,
  phase: source === "agent" ? "agent" : source === "contract" ? "scoring" : "validation",
});

const api = (over: Partial<ModelApiRecord> = {}): ModelApiRecord => ({
  source: "scripted_server",
  requests: 3,
  answered: 3,
  unanswered: 0,
  errors: {},
  ...over,
});

const TIMEOUT = rec("agent", "agent_timeout", "Agent timed out: no result after 5s");

function input(
  failures: FailureRecord[],
  over: Partial<SampleInput> & { model_api?: ModelApiRecord | null; api_retries?: number } = {},
): SampleInput {
  const { model_api = null, api_retries = 0, ...rest } = over;
  return {
    outcome: "completed",
    exit_code: 0,
    has_result: true,
    stdout_tail: '{"type":"result"}',
    stderr: "",
    failed: failures.map((f) => f.message),
    attribution: [],
    total_tokens: 100,
    total_cost_usd: 0,
    typed: { failures, model_api, api_retries },
    ...rest,
  };
}

const timedOut = (over: Parameters<typeof input>[1] = {}): SampleInput =>
  input([TIMEOUT], {
    outcome: "timeout",
    exit_code: null,
    has_result: false,
    stdout_tail: "",
    ...over,
  });

describe("classifySample on typed records", () => {
  it.each<[string, SampleInput, string, string, boolean, string]>([
    [
      "timeout, scripted model answered every request -> failure of the run, kept",
      timedOut({ model_api: api() }),
      "flagged",
      "agent_timeout",
      true,
      "high",
    ],
    [
      "timeout, scripted model left a request unanswered -> noise",
      timedOut({ model_api: api({ requests: 4, unanswered: 1 }) }),
      "excluded",
      "api_unresponsive",
      false,
      "high",
    ],
    [
      "timeout, real endpoint, api_retry events -> noise",
      timedOut({ api_retries: 2 }),
      "excluded",
      "api_unresponsive",
      false,
      "medium",
    ],
    [
      "timeout, real endpoint, 'request timed out' in stderr -> noise",
      timedOut({ stderr: "API request timed out" }),
      "excluded",
      "api_unresponsive",
      false,
      "medium",
    ],
    [
      "timeout, real endpoint, no sign of the API -> failure of the run, kept",
      timedOut(),
      "flagged",
      "agent_timeout",
      true,
      "medium",
    ],
    [
      "timeout WITH a result, scripted model all answered -> kept",
      timedOut({ has_result: true, model_api: api() }),
      "flagged",
      "agent_timeout",
      true,
      "high",
    ],
    [
      "a validator check that mentions docker and auth does not exclude a run with no result",
      input([rec("validator", "check_failed", "docker auth rate limit docs missing")], {
        has_result: false,
        outcome: "agent_error",
      }),
      "flagged",
      "partial_observability",
      true,
      "low",
    ],
    [
      "no result, network error in stderr -> noise",
      input([rec("agent", "agent_crashed", "Agent execution failed")], {
        has_result: false,
        outcome: "agent_error",
        stderr: "connect ECONNREFUSED 127.0.0.1:1",
      }),
      "excluded",
      "network_failure",
      false,
      "high",
    ],
    [
      "no result, scripted model left a request unanswered -> noise",
      input([rec("agent", "agent_crashed", "Agent execution failed")], {
        has_result: false,
        outcome: "agent_error",
        model_api: api({ unanswered: 1 }),
      }),
      "excluded",
      "api_unresponsive",
      false,
      "high",
    ],
    [
      "a crashed validator -> flagged validator_assumption",
      input([rec("validator", "validator_crashed", "Validator crashed (exit 2): check.sh")]),
      "flagged",
      "validator_assumption",
      true,
      "medium",
    ],
    [
      "a completed run whose validator message mentions a timeout is not flagged as outer failure",
      input([rec("validator", "check_failed", "request timeout handling missing")]),
      "included",
      "valid_signal",
      true,
      "high",
    ],
    [
      "HTTP 400 from the result event -> failure of the run",
      input([rec("agent", "api_invalid_request", "Agent execution failed", 400)], {
        exit_code: 1,
        api_error: { status: 400, message: "API Error: 400 prompt is too long" },
      }),
      "flagged",
      "agent_invalid_request",
      true,
      "high",
    ],
    [
      "HTTP 529 -> noise",
      input([rec("agent", "api_error", "Agent execution failed", 529)], {
        exit_code: 1,
        api_error: { status: 529, message: "Overloaded" },
      }),
      "excluded",
      "api_error",
      false,
      "high",
    ],
    [
      "HTTP 503 after retries -> noise",
      input([rec("agent", "api_error", "Agent execution failed", 503)], {
        exit_code: 1,
        api_error: { status: 503, message: "Service Unavailable" },
      }),
      "excluded",
      "api_error",
      false,
      "high",
    ],
    [
      "HTTP 403 -> auth noise",
      input([rec("agent", "api_error", "Agent execution failed", 403)], {
        exit_code: 1,
        api_error: { status: 403, message: "Forbidden" },
      }),
      "excluded",
      "auth_failure",
      false,
      "high",
    ],
    [
      "HTTP 429 -> rate limit noise",
      input([rec("agent", "api_error", "Agent execution failed", 429)], {
        exit_code: 1,
        api_error: { status: 429, message: "rate limited" },
      }),
      "excluded",
      "rate_limited",
      false,
      "high",
    ],
    [
      "no status, connection refused -> network noise",
      input([rec("agent", "api_error", "Agent execution failed")], {
        exit_code: 1,
        api_error: { status: null, message: "Connection refused (ECONNREFUSED)" },
      }),
      "excluded",
      "network_failure",
      false,
      "high",
    ],
  ])("%s", (_name, i, status, code, kept, confidence) => {
    const q = classifySample(i);
    expect(q.status).toBe(status);
    expect(q.reason_code).toBe(code);
    expect(q.include_in_analysis).toBe(kept);
    expect(q.confidence).toBe(confidence);
    expect(q.evidence.length).toBeGreaterThan(0);
  });
});

describe("attributeFailures on typed records", () => {
  const one = (
    f: FailureRecord,
    invoked: string[] = [],
    profile = "generic",
    treatmentSkills?: string[],
  ) =>
    attributeFailures({
      failed: [f.message],
      skills_invoked: invoked,
      profile,
      treatment_skills: treatmentSkills,
      failures: [f],
    })[0];

  it.each<[string, FailureRecord, string[], string, string[] | undefined, string, string]>([
    [
      "agent timeout, Skill invoked -> workflow",
      TIMEOUT,
      ["hello"],
      "generic",
      ["hello"],
      "workflow",
      R.agent_timeout_workflow,
    ],
    [
      "agent timeout, no Skill invoked -> model",
      TIMEOUT,
      [],
      "generic",
      [],
      "model",
      R.agent_timeout_model,
    ],
    [
      "HTTP 400 -> model",
      rec("agent", "api_invalid_request", "Agent failed 400", 400),
      ["s"],
      "generic",
      ["s"],
      "model",
      R.invalid_request,
    ],
    [
      "API noise -> harness",
      rec("agent", "api_error", "Agent failed 529", 529),
      ["s"],
      "generic",
      ["s"],
      "harness",
      R.api_noise,
    ],
    [
      "decision queue -> workflow",
      rec("agent", "decision_queue_exhausted", "queue exhausted"),
      ["s"],
      "comet-workflow",
      ["s"],
      "workflow",
      R.decision_queue,
    ],
    [
      "crashed validator -> task",
      rec("validator", "validator_crashed", "Validator crashed"),
      ["s"],
      "generic",
      ["s"],
      "task",
      R.validator_broken,
    ],
    [
      "validator check whose text says 'validator state archive' -> model, not task/workflow",
      rec("validator", "check_failed", "validator state archive check"),
      ["s"],
      "generic",
      ["s"],
      "model",
      R.model,
    ],
    [
      "missing artifact -> model",
      rec("artifact", "artifact_missing", "Artifact not found: a.txt"),
      ["s"],
      "generic",
      ["s"],
      "model",
      R.model,
    ],
    [
      "generic, treatment Skill not invoked -> harness",
      rec("validator", "check_failed", "answer wrong"),
      [],
      "generic",
      ["s"],
      "harness",
      R.generic_not_run,
    ],
    [
      "generic, CONTROL (no Skill) -> model",
      rec("validator", "check_failed", "answer wrong"),
      [],
      "generic",
      [],
      "model",
      R.model,
    ],
    [
      "contract: skill not invoked, none invoked -> harness",
      rec("contract", "skill_not_invoked", "Required skill not invoked: s"),
      [],
      "generic",
      ["s"],
      "harness",
      R.skill_never_invoked,
    ],
    [
      "contract: skill not invoked, other invoked -> workflow",
      rec("contract", "skill_not_invoked", "Required skill not invoked: s"),
      ["t"],
      "generic",
      ["s"],
      "workflow",
      R.skill_contract,
    ],
    [
      "contract: skill not invoked under CONTROL -> workflow (by design)",
      rec("contract", "skill_not_invoked", "Required skill not invoked: s"),
      [],
      "comet-workflow",
      [],
      "workflow",
      R.no_skill_baseline,
    ],
    [
      "contract: other hard failure -> workflow",
      rec("contract", "hard_failure", "no .comet.yaml"),
      ["s"],
      "comet-workflow",
      ["s"],
      "workflow",
      R.workflow_state,
    ],
    [
      "harness -> harness",
      rec("harness", "harness_error", "Harness error: ENOSPC"),
      ["s"],
      "generic",
      ["s"],
      "harness",
      R.harness,
    ],
  ])("%s", (_n, f, invoked, profile, skills, bucket, reason) => {
    expect(one(f, invoked, profile, skills)).toEqual({ bucket, check: f.message, reason });
  });

  it("a timeout while the model API was unresponsive -> harness (noise)", () => {
    const out = attributeFailures({
      failed: [TIMEOUT.message],
      skills_invoked: ["s"],
      profile: "generic",
      failures: [TIMEOUT],
      model_unresponsive: true,
    });
    expect(out[0]).toEqual({
      bucket: "harness",
      check: TIMEOUT.message,
      reason: R.api_unresponsive,
    });
  });

  it("a check without a matching record falls back to the original regexes", () => {
    const out = attributeFailures({
      failed: ["validator: artifact path missing"],
      skills_invoked: ["s"],
      profile: "generic",
      failures: [],
    });
    expect(out[0]?.bucket).toBe("task");
  });
});
