/**
 * Per-run sample quality: should this run count in the analysis set? (the original's rules,
 * with the changes listed in docs/statistics.md §8). Pure.
 *
 * Rules, first match wins:
 *  0. budget outcome (a budget stopped the run)   -> excluded budget (high)
 *  1. harness_error outcome                      -> excluded harness_error (high)
 *  2. result reports a model-API failure          -> excluded rate_limited | api_timeout |
 *                                                   auth_failure | network_failure | api_error
 *  3. no result event + hard-noise text / timeout -> excluded <hard code> (high)
 *  4. result event + timeout (outcome or exit 124)-> flagged runner_timeout (medium)
 *  5. soft flags (medium): completed_run_mentions_outer_failure, harness_trigger_suspect,
 *     validator_assumption, partial_observability (telemetry missing)
 *  6. no result event                             -> flagged partial_observability (low)
 *  7. otherwise                                   -> included valid_signal (high)
 * Excluded runs leave the analysis set; flagged and included runs stay in it.
 */
import type { FailureRecord, ModelApiRecord } from "../core/report.js";
import type { ModelRequests } from "../core/sandbox.js";
import type { Attribution } from "./attribution.js";
import {
  HARD_NOISE_RULES,
  OUTER_FAILURE_RE,
  VALIDATOR_ASSUMPTION_RE,
  matchHardNoise,
  matchLine,
  type HardNoiseCode,
} from "./noise-patterns.js";

type SampleStatus = "included" | "flagged" | "excluded";
export type SampleConfidence = "high" | "medium" | "low";

export interface SampleQuality {
  status: SampleStatus;
  reason_code: string;
  reason: string;
  include_in_analysis: boolean;
  confidence: SampleConfidence;
  evidence: string[];
}

type RunOutcome = "completed" | "agent_error" | "timeout" | "harness_error" | "budget";

interface ApiErrorInfo {
  /** HTTP status reported by the agent (`api_error_status`), if any. */
  status: number | null;
  /** The error text (the result event's `result`). */
  message: string;
}

export interface SampleInput {
  outcome: RunOutcome;
  exit_code: number | null;
  /** The agent's stream had a final event (`Evidence.results` is not empty). */
  has_result: boolean;
  /** The last part of the agent's stdout (stream-json), already redacted. */
  stdout_tail: string;
  /** The agent's stderr, already redacted. */
  stderr: string;
  failed: string[];
  attribution: Attribution[];
  total_tokens: number | null;
  total_cost_usd: number | null;
  /** Why the harness failed (outcome harness_error). */
  harness_error?: string | null;
  /** Why a budget stopped the run (outcome budget). */
  budget_stop?: string | null;
  /**
   * Set when the last final event has `terminal_reason: "api_error"` (see `apiErrorOf` in
   * runner/evaluate.ts; every agent's decoder reports a model-API failure this way): agents
   * print a final event even when the model API failed, so without this such runs would read
   * as agent failures.
   */
  api_error?: ApiErrorInfo | null;
  /**
   * Typed evidence (reports written by this version). When present, timeouts and failed checks
   * are judged on these fields; the text regexes only read stderr and the agent's own messages.
   */
  typed?: TypedEvidence | null;
}

export interface TypedEvidence {
  /** One record per failed check. */
  failures: FailureRecord[];
  /** The scripted model server's log of this run's requests; null for a real endpoint. */
  model_api: ModelApiRecord | null;
  /** `api_retry` events in the agent's stream. */
  api_retries: number;
  /**
   * The model requests timed by skillbench's relay (bwrap, docker) or `local`'s tap, when one ran
   * (report.sandbox.model_requests); null without one. Optional: absent in older callers.
   */
  model_requests?: ModelRequests | null | undefined;
  /** The run's timeout in milliseconds (what an unanswered request is weighed against). */
  timeout_ms?: number | null | undefined;
  /** The agent's stream ended waiting for the model (Evidence.awaiting_model). */
  awaiting_model?: boolean | null | undefined;
}

/** A request left unanswered for at least this share of the timeout: the model was unresponsive. */
const UNANSWERED_SHARE = 0.5;

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/** HTTP statuses that mean the agent's own request was invalid: a failure of the run, not noise. */
const RUN_FAILURE_STATUSES: readonly number[] = [400, 413, 422];

const EVIDENCE_MAX = 200;

function cut(s: string): string {
  return s.trim().slice(0, EVIDENCE_MAX);
}

function excluded(
  reason_code: string,
  reason: string,
  evidence: string[],
  confidence: SampleConfidence = "high",
): SampleQuality {
  return {
    status: "excluded",
    reason_code,
    reason,
    include_in_analysis: false,
    confidence,
    evidence,
  };
}

function flagged(
  reason_code: string,
  reason: string,
  evidence: string[],
  confidence: SampleConfidence,
): SampleQuality {
  return {
    status: "flagged",
    reason_code,
    reason,
    include_in_analysis: true,
    confidence,
    evidence,
  };
}

function reasonOf(code: HardNoiseCode): string {
  return HARD_NOISE_RULES.find((r) => r.code === code)?.reason ?? code;
}

function timeoutEvidence(input: SampleInput): string | null {
  if (input.outcome === "timeout")
    return `outcome timeout (exit code ${input.exit_code ?? "none"})`;
  if (input.exit_code === 124) return "exit code 124";
  return null;
}

function classifyApiError(api: ApiErrorInfo, served: ModelApiRecord | null): SampleQuality {
  const evidence = [cut(`api_error_status ${api.status ?? "none"}: ${api.message}`)];
  // A stream the scripted server cut (and no HTTP error): a network failure on every agent,
  // whatever words the agent found for it.
  const statuses = Object.keys(served?.errors ?? {}).filter((k) => k !== "cut");
  if (api.status === null && (served?.errors.cut ?? 0) > 0 && statuses.length === 0)
    return excluded("network_failure", reasonOf("network_failure"), [
      ...evidence,
      `${served?.errors.cut} response stream(s) cut by the scripted model server`,
    ]);
  if (api.status !== null && RUN_FAILURE_STATUSES.includes(api.status))
    return flagged(
      "agent_invalid_request",
      `The model API rejected the agent's request as invalid (HTTP ${api.status}): a failure of the run, kept`,
      evidence,
      "high",
    );
  let code: HardNoiseCode | null;
  if (api.status === 429) code = "rate_limited";
  else if (api.status === 401 || api.status === 403) code = "auth_failure";
  else
    code = matchHardNoise(api.message, ["runner_timeout", "container_failure"])?.rule.code ?? null;
  if (code !== null) return excluded(code, reasonOf(code), evidence);
  const known = api.status === null || api.status >= 500;
  return excluded(
    "api_error",
    "Model API returned an error and the agent stopped before finishing",
    evidence,
    known ? "high" : "medium",
  );
}

function hardNoiseWithoutResult(input: SampleInput): SampleQuality | null {
  const text = [input.stderr, input.stdout_tail, ...input.failed].join("\n");
  const timeout = timeoutEvidence(input);
  for (const rule of HARD_NOISE_RULES) {
    if (rule.code === "runner_timeout" && timeout !== null)
      return excluded(rule.code, rule.reason, [timeout]);
    for (const re of rule.patterns) {
      const line = matchLine(re, text);
      if (line !== null) return excluded(rule.code, rule.reason, [line]);
    }
  }
  return null;
}

function softFlag(input: SampleInput): SampleQuality | null {
  const text = [input.stderr, ...input.failed].join("\n");
  if (input.has_result) {
    const line = matchHardNoise(text)?.line ?? matchLine(OUTER_FAILURE_RE, text);
    if (line !== null) {
      return flagged(
        "completed_run_mentions_outer_failure",
        "Run completed, but stderr or failed checks mention an infrastructure failure",
        [line],
        "medium",
      );
    }
  }
  const harness = input.attribution.filter((a) => a.bucket === "harness");
  if (harness.length > 0) {
    return flagged(
      "harness_trigger_suspect",
      "A failure is attributed to the harness: the target Skill may not have been triggered",
      harness.map((a) => cut(`${a.check} -> ${a.reason}`)),
      "medium",
    );
  }
  const validatorLine = matchLine(VALIDATOR_ASSUMPTION_RE, text);
  if (validatorLine !== null && input.attribution.some((a) => a.bucket === "task")) {
    return flagged(
      "validator_assumption",
      "A task or validator path assumption failed",
      [validatorLine],
      "medium",
    );
  }
  if (input.has_result && (input.total_tokens === null || input.total_cost_usd === null)) {
    return flagged(
      "partial_observability",
      "Result event present but token or cost telemetry is missing",
      ["result event present but telemetry missing"],
      "medium",
    );
  }
  return null;
}

/**
 * A timed-out run, judged on typed evidence: noise only when the model API was unresponsive
 * (scripted: a request with no answer; real endpoint: api_retry events or a request-timeout line
 * in stderr); otherwise the agent (or its tools) hung while the model answered: a failure, kept.
 */
/**
 * Evidence that the model API was unresponsive: under the scripted model, a request that got no
 * answer; with a real endpoint, api_retry events or a request-timeout line in stderr. Pure.
 */
export function unresponsiveEvidence(
  typed: TypedEvidence,
  stderr: string,
): { evidence: string; confidence: SampleConfidence } | null {
  const api = typed.model_api;
  if (api !== null) {
    if (api.unanswered > 0)
      return {
        evidence: `${api.unanswered} of ${api.requests} model request(s) got no answer (scripted model log)`,
        confidence: "high",
      };
    // An agent that retries a failing model without end (opencode has no retry limit) times out
    // on a model that never gave it a usable answer: the same cause as a hang.
    if (api.last_failed === true)
      return {
        evidence: `the last of ${api.requests} model request(s) failed (${Object.entries(api.errors)
          .map(([k, n]) => `${k === "cut" ? "cut stream" : `HTTP ${k}`} ×${n}`)
          .join(", ")}) and the agent was still retrying (scripted model log)`,
        confidence: "high",
      };
    return null;
  }
  // Any other endpoint: the relay's (or tap's) timing, else what the agent's stream shows.
  const timed = relayEvidence(typed);
  if (timed !== null) return timed;
  if (typed.api_retries > 0)
    return {
      evidence: `${typed.api_retries} api_retry event(s) in the agent's stream`,
      confidence: "medium",
    };
  const rule = HARD_NOISE_RULES.find((r) => r.code === "api_timeout");
  const line = rule?.patterns[0] ? matchLine(rule.patterns[0], stderr) : null;
  return line !== null ? { evidence: line, confidence: "medium" } : null;
}

/**
 * The relay's (or tap's) timing: the request begun last got no byte back for at least half the
 * timeout. Without a relay record, the stream rule: the agent's stream ended waiting for the
 * model (after its session began or a tool's result went back, no model output). Pure.
 */
function relayEvidence(
  typed: TypedEvidence,
): { evidence: string; confidence: SampleConfidence } | null {
  const reqs = typed.model_requests ?? null;
  if (reqs !== null) {
    const last = reqs.last;
    const timeout = typed.timeout_ms ?? null;
    if (
      last !== null &&
      !last.answered &&
      timeout !== null &&
      last.waited_ms >= UNANSWERED_SHARE * timeout
    )
      return {
        evidence: `the last of ${reqs.requests} model request(s) waited ${seconds(last.waited_ms)} of the ${seconds(timeout)} timeout with no byte back (skillbench's ${reqs.via === "tap" ? "loopback tap" : "relay"}; ${reqs.answered} answered)`,
        confidence: "high",
      };
    return null;
  }
  if (typed.awaiting_model === true)
    return {
      evidence:
        "the agent's stream ends waiting for the model: no model output after its last request began (no relay timed the requests)",
      confidence: "medium",
    };
  return null;
}

/**
 * A timed-out run, judged on typed evidence: noise only when the model API was unresponsive;
 * otherwise the agent (or its tools) hung while the model answered: a failure, kept.
 */
function classifyTypedTimeout(input: SampleInput, typed: TypedEvidence): SampleQuality {
  const u = unresponsiveEvidence(typed, input.stderr);
  if (u !== null)
    return excluded(
      "api_unresponsive",
      "Model API was unresponsive when the run timed out",
      [u.evidence],
      u.confidence,
    );
  const api = typed.model_api;
  if (api !== null)
    return flagged(
      "agent_timeout",
      "The run hung past timeout_sec while the model answered every request: a failure of the run, kept",
      [
        `${api.answered} of ${api.requests} model request(s) answered, none pending (scripted model log)`,
      ],
      "high",
    );
  const reqs = typed.model_requests ?? null;
  const last = reqs?.last ?? null;
  if (reqs !== null)
    return flagged(
      "agent_timeout",
      "The run hung past timeout_sec while the model answered: a failure of the run, kept",
      [
        timeoutEvidence(input) ?? "outcome timeout",
        last === null
          ? `no model request went through skillbench's ${reqs.via === "tap" ? "loopback tap" : "relay"}`
          : `${reqs.answered} of ${reqs.requests} model request(s) answered; the last ${last.answered ? `answered after ${seconds(last.waited_ms)}` : `unanswered for only ${seconds(last.waited_ms)}`} (skillbench's ${reqs.via === "tap" ? "loopback tap" : "relay"})`,
      ],
      "high",
    );
  return flagged(
    "agent_timeout",
    "The run hung past timeout_sec with no sign of an unresponsive model API: a failure of the run, kept",
    [
      timeoutEvidence(input) ?? "outcome timeout",
      "no api_retry events, no request timeout in stderr",
    ],
    "medium",
  );
}

/** The text the regexes may read when records are typed: stderr, stdout tail, agent and harness messages. */
function untypedText(input: SampleInput, typed: TypedEvidence, withStdout: boolean): string {
  const own = typed.failures
    .filter((f) => f.source === "agent" || f.source === "harness")
    .map((f) => f.message);
  return [input.stderr, ...(withStdout ? [input.stdout_tail] : []), ...own].join("\n");
}

function classifyTyped(input: SampleInput, typed: TypedEvidence): SampleQuality {
  if (input.outcome === "timeout") return classifyTypedTimeout(input, typed);
  if (!input.has_result) {
    const hard = matchHardNoise(untypedText(input, typed, true), ["runner_timeout"]);
    if (hard) return excluded(hard.rule.code, hard.rule.reason, [hard.line]);
    const api = typed.model_api;
    if (api !== null && api.unanswered > 0)
      return excluded(
        "api_unresponsive",
        "Model API did not answer before the agent stopped",
        [
          `${api.unanswered} of ${api.requests} model request(s) got no answer (scripted model log)`,
        ],
        "high",
      );
  }
  const text = untypedText(input, typed, false);
  if (input.has_result) {
    const line = matchHardNoise(text)?.line ?? matchLine(OUTER_FAILURE_RE, text);
    if (line !== null)
      return flagged(
        "completed_run_mentions_outer_failure",
        "Run completed, but stderr or the agent's failure mentions an infrastructure failure",
        [line],
        "medium",
      );
  }
  const harness = input.attribution.filter((a) => a.bucket === "harness");
  if (harness.length > 0)
    return flagged(
      "harness_trigger_suspect",
      "A failure is attributed to the harness: the target Skill may not have been triggered",
      harness.map((a) => cut(`${a.check} -> ${a.reason}`)),
      "medium",
    );
  const broken = typed.failures.find((f) => f.source === "validator" && f.code !== "check_failed");
  if (broken)
    return flagged(
      "validator_assumption",
      "A validator did not produce a verdict (crash, timeout or no JSON)",
      [cut(broken.message)],
      "medium",
    );
  if (input.has_result && (input.total_tokens === null || input.total_cost_usd === null))
    return flagged(
      "partial_observability",
      "Result event present but token or cost telemetry is missing",
      ["result event present but telemetry missing"],
      "medium",
    );
  if (!input.has_result) {
    const first = input.failed[0];
    return flagged(
      "partial_observability",
      "No result event: the run is judged only by its checks",
      [first !== undefined ? cut(first) : "no result event and no failed checks"],
      "low",
    );
  }
  return { ...VALID, evidence: [...VALID.evidence] };
}

const VALID: SampleQuality = {
  status: "included",
  reason_code: "valid_signal",
  reason: "Run completed with validator evidence",
  include_in_analysis: true,
  confidence: "high",
  evidence: ["result event present"],
};

/** Classify one run for the analysis set. */
export function classifySample(input: SampleInput): SampleQuality {
  // A run a budget stopped says nothing of the agent: invalid, cause budget, never a failure
  // (docs/budgets.md). First: its stop may look like a timeout or a cut stream to the rules below.
  if (input.outcome === "budget") {
    const why = input.budget_stop?.trim() ?? "";
    return excluded(
      "budget",
      why.length > 0 ? cut(`Stopped by the budget: ${why}`) : "Stopped by the budget",
      why.length > 0 ? [cut(why)] : [],
    );
  }
  if (input.outcome === "harness_error") {
    const msg = input.harness_error?.trim() ?? "";
    return excluded(
      "harness_error",
      msg.length > 0 ? cut(msg) : "Harness failed before the run could be evaluated",
      msg.length > 0 ? [cut(msg)] : [],
    );
  }
  if (input.api_error) return classifyApiError(input.api_error, input.typed?.model_api ?? null);
  if (input.typed) return classifyTyped(input, input.typed);
  if (!input.has_result) {
    const hard = hardNoiseWithoutResult(input);
    if (hard) return hard;
  } else {
    const timeout = timeoutEvidence(input);
    if (timeout !== null) {
      return flagged(
        "runner_timeout",
        "Runner timed out after a complete result event; the outcome is kept",
        [timeout, "result event present"],
        "medium",
      );
    }
  }
  const soft = softFlag(input);
  if (soft) return soft;
  if (!input.has_result) {
    const first = input.failed[0];
    return flagged(
      "partial_observability",
      "No result event: the run is judged only by its checks",
      [first !== undefined ? cut(first) : "no result event and no failed checks"],
      "low",
    );
  }
  return { ...VALID, evidence: [...VALID.evidence] };
}
