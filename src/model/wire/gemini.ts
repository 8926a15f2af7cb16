/**
 * The Gemini API (`POST /v1beta/models/<model>:generateContent` and
 * `:streamGenerateContent?alt=sse`), as Gemini CLI speaks it. Pure.
 */
import type { ApiMessage } from "../build-reply.js";
import type { RequestFacts } from "../request-facts.js";
import { isRecord, listedSkills, REMINDER } from "./common.js";

type Rec = Record<string, unknown>;

function partsOf(c: Rec): Rec[] {
  return Array.isArray(c.parts) ? c.parts.filter(isRecord) : [];
}

function responseText(r: unknown): string {
  if (typeof r === "string") return r;
  if (isRecord(r)) {
    if (typeof r.output === "string") return r.output;
    if (typeof r.error === "string") return r.error;
  }
  return JSON.stringify(r ?? null);
}

/** The skill names in the `activate_skill` declaration's enum. */
function activatable(tools: unknown): string[] {
  const out: string[] = [];
  if (!Array.isArray(tools)) return out;
  for (const t of tools.filter(isRecord))
    for (const d of Array.isArray(t.functionDeclarations) ? t.functionDeclarations : []) {
      if (!isRecord(d) || d.name !== "activate_skill") continue;
      const schema = isRecord(d.parametersJsonSchema) ? d.parametersJsonSchema : d.parameters;
      const props = isRecord(schema) && isRecord(schema.properties) ? schema.properties : {};
      const name = isRecord(props.name) ? props.name : {};
      if (Array.isArray(name.enum))
        for (const n of name.enum) if (typeof n === "string" && !out.includes(n)) out.push(n);
    }
  return out;
}

export function geminiFacts(
  body: unknown,
  stream: boolean,
  pathModel: string | null,
): RequestFacts {
  const b = isRecord(body) ? body : {};
  const contents = Array.isArray(b.contents) ? b.contents.filter(isRecord) : [];
  let position = 0;
  let turnPosition = 0;
  let userText: string | null = null;
  let toolResult: string | null = null;
  let toolResultIsError: boolean | null = null;
  for (const c of contents) {
    if (c.role === "model") {
      position++;
      turnPosition++;
      continue;
    }
    const parts = partsOf(c);
    const responses = parts.filter((p) => isRecord(p.functionResponse));
    if (responses.length > 0) {
      const last = responses[responses.length - 1]!.functionResponse as Rec;
      toolResult = responseText(last.response);
      const code = /Exit Code: (-?\d+)/.exec(toolResult);
      toolResultIsError =
        (isRecord(last.response) && last.response.error !== undefined) ||
        (code?.[1] !== undefined && Number(code[1]) !== 0);
      continue;
    }
    const t = parts
      .map((p) => (typeof p.text === "string" ? p.text : ""))
      .filter((x) => x !== "" && !REMINDER.test(x) && !/^\s*<session_context>/.test(x))
      .join("\n");
    if (t !== "") {
      userText = t;
      turnPosition = 0;
    }
  }
  const sys = isRecord(b.systemInstruction)
    ? partsOf(b.systemInstruction)
        .map((p) => (typeof p.text === "string" ? p.text : ""))
        .join("\n")
    : "";
  const tools: string[] = [];
  if (Array.isArray(b.tools))
    for (const t of b.tools.filter(isRecord))
      for (const d of Array.isArray(t.functionDeclarations) ? t.functionDeclarations : [])
        if (isRecord(d) && typeof d.name === "string") tools.push(d.name);
  const listed = listedSkills(sys);
  const skills = [...new Set([...activatable(b.tools), ...listed.names])];
  return {
    model: pathModel,
    stream,
    position,
    turnPosition,
    userText,
    toolResult,
    toolResultIsError,
    systemText: sys,
    tools,
    skills,
    skillFiles: listed.files,
    messageCount: contents.length,
  };
}

function usageMetadata(reply: ApiMessage): Rec {
  const u = reply.usage;
  const prompt = u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens;
  return {
    promptTokenCount: prompt,
    candidatesTokenCount: u.output_tokens,
    totalTokenCount: prompt + u.output_tokens,
    cachedContentTokenCount: u.cache_read_input_tokens,
  };
}

function parts(reply: ApiMessage): Rec[] {
  return reply.content.map((b) =>
    b.type === "text"
      ? { text: b.text }
      : {
          functionCall: {
            name: b.name,
            args: b.custom !== undefined ? { input: b.custom } : b.input,
            id: b.id,
          },
        },
  );
}

function finish(reply: ApiMessage): string {
  return reply.stop_reason === "max_tokens" ? "MAX_TOKENS" : "STOP";
}

export function geminiJson(reply: ApiMessage): Rec {
  return {
    candidates: [
      { content: { role: "model", parts: parts(reply) }, finishReason: finish(reply), index: 0 },
    ],
    usageMetadata: usageMetadata(reply),
    modelVersion: reply.model,
    responseId: reply.id,
  };
}

/** One SSE chunk per part; the last carries the finish reason and the usage. */
export function geminiEvents(reply: ApiMessage): string[] {
  const ps = parts(reply);
  if (ps.length === 0) ps.push({ text: "" });
  return ps.map((p, i) => {
    const last = i === ps.length - 1;
    const data = {
      candidates: [
        {
          content: { role: "model", parts: [p] },
          ...(last ? { finishReason: finish(reply) } : {}),
          index: 0,
        },
      ],
      ...(last ? { usageMetadata: usageMetadata(reply) } : {}),
      modelVersion: reply.model,
      responseId: reply.id,
    };
    return `data: ${JSON.stringify(data)}\n\n`;
  });
}

const GOOGLE_STATUS: Record<number, string> = {
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  429: "RESOURCE_EXHAUSTED",
  500: "INTERNAL",
  503: "UNAVAILABLE",
  504: "DEADLINE_EXCEEDED",
};

export function geminiErrorBody(status: number, message: string): Rec {
  return { error: { code: status, message, status: GOOGLE_STATUS[status] ?? "UNKNOWN" } };
}
