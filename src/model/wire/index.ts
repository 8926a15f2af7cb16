/**
 * The wire APIs the scripted model server speaks, each a pure module: how to read the facts
 * rules match on from a request, and how to encode a scripted reply (SSE events or JSON) and
 * an error. docs/model-script.md, section 7.
 */
import { errorBody, FALLBACK_MODEL, type ApiMessage } from "../build-reply.js";
import type { WireApi } from "../dialect.js";
import { requestFacts, type RequestFacts } from "../request-facts.js";
import type { RunRef } from "../run-path.js";
import { encodeSseEvent, sseEvents } from "../sse.js";
import { chatEvents, chatFacts, chatJson } from "./chat.js";
import { isRecord } from "./common.js";
import { geminiErrorBody, geminiEvents, geminiFacts, geminiJson } from "./gemini.js";
import { openaiErrorBody, responsesEvents, responsesFacts, responsesJson } from "./responses.js";

export interface Wire {
  api: WireApi;
  facts(body: unknown, url: URL): RequestFacts;
  /** The SSE text of each event of a streamed reply, in order. */
  events(reply: ApiMessage): string[];
  json(reply: ApiMessage): unknown;
}

const ANTHROPIC: Wire = {
  api: "anthropic",
  facts: (b) => requestFacts(b),
  events: (r) => sseEvents(r).map(encodeSseEvent),
  json: (r) => r,
};
const RESPONSES: Wire = {
  api: "openai-responses",
  facts: (b) => responsesFacts(b),
  events: responsesEvents,
  json: responsesJson,
};
const CHAT: Wire = {
  api: "openai-chat",
  facts: (b) => chatFacts(b),
  events: chatEvents,
  json: chatJson,
};

const GEMINI_PATH =
  /^\/(?:v1beta|v1|v1alpha)\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;

/** The API a request path (after the `/runs/...` prefix) belongs to; null for other paths. */
export function wireFor(rest: string): Wire | null {
  if (rest === "/v1/messages") return ANTHROPIC;
  if (rest === "/v1/responses" || rest === "/responses") return RESPONSES;
  if (rest === "/v1/chat/completions" || rest === "/chat/completions") return CHAT;
  const g = GEMINI_PATH.exec(rest);
  if (g) {
    const model = decodeURIComponent(g[1] ?? "");
    const stream = g[2] === "streamGenerateContent";
    return {
      api: "gemini",
      facts: (b) => geminiFacts(b, stream, model || null),
      events: geminiEvents,
      json: geminiJson,
    };
  }
  return null;
}

export function errorBodyFor(
  api: WireApi,
  status: number,
  errorType: string,
  message: string,
): unknown {
  if (api === "gemini") return geminiErrorBody(status, message);
  if (api === "anthropic") return errorBody(errorType, message);
  return openaiErrorBody(status, errorType, message);
}

/**
 * A subject's request that offers no tools is the agent's own bookkeeping (Gemini CLI's checks,
 * opencode's session title), not a step of the conversation. Claude Code sends none, and the
 * Anthropic-API subjects that do (opencode) say so in their system prompt.
 */
export function isSideRequest(
  api: WireApi,
  run: RunRef,
  facts: RequestFacts,
  body: unknown,
): boolean {
  if (run.role !== "subject" || facts.tools.length > 0) return false;
  if (api !== "anthropic") return true;
  return /\btitle\b/i.test(facts.systemText) && isRecord(body) && !Array.isArray(body.tools);
}

/** Does a Gemini request ask for a JSON answer (`generationConfig.responseMimeType`)? */
export function wireJsonWantsJson(body: unknown): boolean {
  const g = isRecord(body) && isRecord(body.generationConfig) ? body.generationConfig : null;
  return g !== null && g.responseMimeType === "application/json";
}

/** The plain answer to a side request. */
export function sideReply(model: string | null, json: boolean): ApiMessage {
  const text = json ? '{"next_speaker":"user","reasoning":"scripted"}' : "ok";
  return {
    id: "msg_skillbench_side",
    type: "message",
    role: "assistant",
    model: model ?? FALLBACK_MODEL,
    content: [{ type: "text", text }],
    stop_reason: "end_turn",
    stop_sequence: null,
    usage: {
      input_tokens: 1,
      output_tokens: 1,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
    },
  };
}
