/**
 * The OpenAI Responses API (`POST /v1/responses`), as Codex CLI speaks it. Pure: request facts
 * from the `input` items, and the reply as `response.*` SSE events or one JSON response.
 */
import type { ApiMessage } from "../build-reply.js";
import type { RequestFacts } from "../request-facts.js";
import { splitChunks } from "../sse.js";
import { isRecord, listedSkills, REMINDER } from "./common.js";

type Rec = Record<string, unknown>;

function itemText(item: Rec): string {
  const c = item.content;
  if (typeof c === "string") return c;
  if (!Array.isArray(c)) return "";
  return c
    .filter(isRecord)
    .map((p) => (typeof p.text === "string" ? p.text : ""))
    .filter((t) => t !== "")
    .join("\n");
}

/** User messages Codex adds itself (instructions and environment), not the user's turn. */
const CONTEXT =
  /^\s*(<environment_context>|<user_instructions>|# AGENTS\.md instructions|<permissions instructions>|<skills_instructions>)/;

const ASSISTANT_ITEMS = new Set([
  "function_call",
  "custom_tool_call",
  "local_shell_call",
  "reasoning",
  "web_search_call",
]);

/** A Codex tool output's text and whether the command failed ("Process exited with code N"). */
function toolOutput(raw: unknown): { text: string; isError: boolean } {
  let text = typeof raw === "string" ? raw : isRecord(raw) ? JSON.stringify(raw) : "";
  let code: number | null = null;
  try {
    const j: unknown = JSON.parse(text);
    if (isRecord(j) && typeof j.output === "string") {
      text = j.output;
      const meta = j.metadata;
      if (isRecord(meta) && typeof meta.exit_code === "number") code = meta.exit_code;
    }
  } catch {
    /* plain text */
  }
  const m = /Process exited with code (-?\d+)/.exec(text) ?? /Exit code:? (-?\d+)/.exec(text);
  if (code === null && m?.[1]) code = Number(m[1]);
  return { text, isError: code !== null && code !== 0 };
}

export function responsesFacts(body: unknown): RequestFacts {
  const b = isRecord(body) ? body : {};
  const input = Array.isArray(b.input) ? b.input.filter(isRecord) : [];
  let position = 0;
  let turnPosition = 0;
  let inAssistant = false;
  let userText: string | null = null;
  let toolResult: string | null = null;
  let toolResultIsError: boolean | null = null;
  const system: string[] = typeof b.instructions === "string" ? [b.instructions] : [];
  for (const item of input) {
    const type = typeof item.type === "string" ? item.type : "message";
    const role = item.role;
    const assistantSide = (type === "message" && role === "assistant") || ASSISTANT_ITEMS.has(type);
    if (assistantSide) {
      if (!inAssistant) {
        position++;
        turnPosition++;
      }
      inAssistant = true;
      continue;
    }
    inAssistant = false;
    if (type === "message" && (role === "developer" || role === "system")) {
      system.push(itemText(item));
    } else if (type === "message" && role === "user") {
      const t = itemText(item);
      if (CONTEXT.test(t)) system.push(t);
      else if (!REMINDER.test(t) && t !== "") {
        userText = t;
        turnPosition = 0;
      }
    } else if (type === "function_call_output" || type === "custom_tool_call_output") {
      const o = toolOutput(item.output);
      toolResult = o.text;
      toolResultIsError = o.isError;
    }
  }
  const tools: string[] = [];
  if (Array.isArray(b.tools))
    for (const t of b.tools)
      if (isRecord(t)) {
        if (typeof t.name === "string") tools.push(t.name);
        else if (typeof t.type === "string") tools.push(t.type);
      }
  const systemText = system.filter((s) => s !== "").join("\n");
  const skills = listedSkills(systemText);
  return {
    model: typeof b.model === "string" ? b.model : null,
    stream: b.stream === true,
    position,
    turnPosition,
    userText,
    toolResult,
    toolResultIsError,
    systemText,
    tools,
    skills: skills.names,
    skillFiles: skills.files,
    messageCount: input.length,
  };
}

function outputItems(reply: ApiMessage): Rec[] {
  const items: Rec[] = [];
  let i = 0;
  for (const b of reply.content) {
    const id = `${reply.id}_${i++}`;
    if (b.type === "text")
      items.push({
        type: "message",
        id,
        status: "completed",
        role: "assistant",
        content: [{ type: "output_text", text: b.text, annotations: [] }],
      });
    else if (b.custom !== undefined)
      items.push({
        type: "custom_tool_call",
        id,
        status: "completed",
        call_id: b.id,
        name: b.name,
        input: b.custom,
      });
    else
      items.push({
        type: "function_call",
        id,
        status: "completed",
        call_id: b.id,
        name: b.name,
        arguments: JSON.stringify(b.input),
      });
  }
  return items;
}

function usage(reply: ApiMessage): Rec {
  const u = reply.usage;
  const input = u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: u.cache_read_input_tokens },
    output_tokens: u.output_tokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: input + u.output_tokens,
  };
}

export function responsesJson(reply: ApiMessage): Rec {
  return {
    id: reply.id,
    object: "response",
    created_at: 0,
    status: "completed",
    model: reply.model,
    output: outputItems(reply),
    usage: usage(reply),
  };
}

/** The SSE text of each event, in order. */
export function responsesEvents(reply: ApiMessage): string[] {
  const events: Rec[] = [];
  const base = { id: reply.id, object: "response", created_at: 0, model: reply.model };
  events.push({
    type: "response.created",
    response: { ...base, status: "in_progress", output: [] },
  });
  outputItems(reply).forEach((item, output_index) => {
    if (item.type === "message") {
      const text = String((item.content as Rec[])[0]?.text ?? "");
      events.push({
        type: "response.output_item.added",
        output_index,
        item: { ...item, status: "in_progress", content: [] },
      });
      events.push({
        type: "response.content_part.added",
        item_id: item.id,
        output_index,
        content_index: 0,
        part: { type: "output_text", text: "", annotations: [] },
      });
      for (const delta of splitChunks(text))
        events.push({
          type: "response.output_text.delta",
          item_id: item.id,
          output_index,
          content_index: 0,
          delta,
        });
      events.push({
        type: "response.output_text.done",
        item_id: item.id,
        output_index,
        content_index: 0,
        text,
      });
    } else {
      events.push({ type: "response.output_item.added", output_index, item });
    }
    events.push({ type: "response.output_item.done", output_index, item });
  });
  events.push({
    type: "response.completed",
    response: { ...responsesJson(reply) },
  });
  return events.map(
    (e, i) => `event: ${String(e.type)}\ndata: ${JSON.stringify({ ...e, sequence_number: i })}\n\n`,
  );
}

export function openaiErrorBody(status: number, errorType: string, message: string): Rec {
  return { error: { message, type: errorType, code: String(status), param: null } };
}
