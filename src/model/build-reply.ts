import { defaultAgent } from "../agents/registry.js";
import { sha256 } from "../util/hash.js";
import { actionToTool, type Dialect, type DialectFacts } from "./dialect.js";
import type { ModelScript, StopReason, Step } from "./script.js";

/** Build the Messages API reply for a scripted step. Pure and deterministic. */

type ApiBlock =
  | { type: "text"; text: string }
  | {
      type: "tool_use";
      id: string;
      name: string;
      input: Record<string, unknown>;
      /** Free-text input of a custom tool (Codex's apply_patch); only the Responses API carries it. */
      custom?: string;
    };

interface ApiUsage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
}

export interface ApiMessage {
  id: string;
  type: "message";
  role: "assistant";
  model: string;
  content: ApiBlock[];
  stop_reason: StopReason;
  stop_sequence: null;
  usage: ApiUsage;
}

export const FALLBACK_MODEL = "skillbench-mock";

/**
 * @param seed identifies the exchange (run, role, rule, step, position); ids are
 *   derived from it, so a retried request gets the same ids.
 */
export function buildReply(
  script: ModelScript,
  step: Step,
  requestModel: string | null,
  seed: string,
  agent: { dialect: Dialect; facts: DialectFacts } = {
    dialect: defaultAgent().name,
    facts: { tools: [], skillFiles: {} },
  },
): ApiMessage {
  const content = step.content.map((b, i): ApiBlock => {
    if (b.type === "text") return { type: "text", text: b.text };
    const id = b.id ?? `toolu_${sha256(`${seed}|${i}`).slice(0, 24)}`;
    if (b.type === "tool_use") return { type: "tool_use", id, name: b.name, input: b.input };
    const call = actionToTool(b, agent.dialect, agent.facts);
    return { type: "tool_use", id, ...call };
  });
  const d = script.defaults.usage;
  const outputTokens =
    step.usage.output_tokens ??
    d.output_tokens ??
    Math.max(1, Math.ceil(JSON.stringify(content).length / 4));
  return {
    id: `msg_${sha256(seed).slice(0, 24)}`,
    type: "message",
    role: "assistant",
    model: step.model ?? script.defaults.model ?? requestModel ?? FALLBACK_MODEL,
    content,
    stop_reason:
      step.stopReason ?? (content.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn"),
    stop_sequence: null,
    usage: {
      input_tokens: step.usage.input_tokens ?? d.input_tokens,
      output_tokens: outputTokens,
      cache_read_input_tokens: step.usage.cache_read_input_tokens ?? d.cache_read_input_tokens,
      cache_creation_input_tokens:
        step.usage.cache_creation_input_tokens ?? d.cache_creation_input_tokens,
    },
  };
}

/** Anthropic-style error body: `{type: "error", error: {type, message}}`. */
export function errorBody(
  errorType: string,
  message: string,
): { type: "error"; error: { type: string; message: string } } {
  return { type: "error", error: { type: errorType, message } };
}
