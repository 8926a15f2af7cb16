/**
 * The OpenAI Chat Completions API (`POST /v1/chat/completions`). Pure: request facts from
 * `messages`, and the reply as `chat.completion.chunk` SSE lines (then `[DONE]`) or one
 * `chat.completion`.
 */
import type { ApiMessage } from "../build-reply.js";
import type { RequestFacts } from "../request-facts.js";
import { splitChunks } from "../sse.js";
import { isRecord, listedSkills, REMINDER } from "./common.js";

type Rec = Record<string, unknown>;

function text(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter(isRecord)
    .map((p) => (typeof p.text === "string" ? p.text : ""))
    .join("\n");
}

export function chatFacts(body: unknown): RequestFacts {
  const b = isRecord(body) ? body : {};
  const messages = Array.isArray(b.messages) ? b.messages.filter(isRecord) : [];
  let position = 0;
  let turnPosition = 0;
  let userText: string | null = null;
  let toolResult: string | null = null;
  let toolResultIsError: boolean | null = null;
  const system: string[] = [];
  for (const m of messages) {
    if (m.role === "assistant") {
      position++;
      turnPosition++;
    } else if (m.role === "system" || m.role === "developer") system.push(text(m.content));
    else if (m.role === "tool") {
      toolResult = text(m.content);
      const code = /(?:exit(?:ed with)? code|Exit Code):? (-?\d+)/i.exec(toolResult);
      toolResultIsError = code?.[1] ? Number(code[1]) !== 0 : false;
    } else if (m.role === "user") {
      const t = text(m.content);
      if (t !== "" && !REMINDER.test(t)) {
        userText = t;
        turnPosition = 0;
      }
    }
  }
  const tools: string[] = [];
  if (Array.isArray(b.tools))
    for (const t of b.tools)
      if (isRecord(t) && isRecord(t.function) && typeof t.function.name === "string")
        tools.push(t.function.name);
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
    messageCount: messages.length,
  };
}

function toolCalls(reply: ApiMessage): Rec[] {
  return reply.content.flatMap((b) =>
    b.type === "tool_use"
      ? [
          {
            id: b.id,
            type: "function",
            function: {
              name: b.name,
              arguments:
                b.custom !== undefined
                  ? JSON.stringify({ input: b.custom })
                  : JSON.stringify(b.input),
            },
          },
        ]
      : [],
  );
}

function usage(reply: ApiMessage): Rec {
  const u = reply.usage;
  const prompt = u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens;
  return {
    prompt_tokens: prompt,
    completion_tokens: u.output_tokens,
    total_tokens: prompt + u.output_tokens,
    prompt_tokens_details: { cached_tokens: u.cache_read_input_tokens },
  };
}

function finishReason(reply: ApiMessage): string {
  return reply.content.some((b) => b.type === "tool_use") ? "tool_calls" : "stop";
}

export function chatJson(reply: ApiMessage): Rec {
  const texts = reply.content.flatMap((b) => (b.type === "text" ? [b.text] : []));
  const calls = toolCalls(reply);
  return {
    id: reply.id,
    object: "chat.completion",
    created: 0,
    model: reply.model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: texts.length > 0 ? texts.join("\n") : null,
          ...(calls.length > 0 ? { tool_calls: calls } : {}),
        },
        finish_reason: finishReason(reply),
      },
    ],
    usage: usage(reply),
  };
}

export function chatEvents(reply: ApiMessage): string[] {
  const chunk = (delta: Rec, finish: string | null, extra: Rec = {}): string =>
    `data: ${JSON.stringify({
      id: reply.id,
      object: "chat.completion.chunk",
      created: 0,
      model: reply.model,
      choices: [{ index: 0, delta, finish_reason: finish }],
      ...extra,
    })}\n\n`;
  const out = [chunk({ role: "assistant", content: "" }, null)];
  const texts = reply.content.flatMap((b) => (b.type === "text" ? [b.text] : []));
  for (const piece of splitChunks(texts.join("\n"))) out.push(chunk({ content: piece }, null));
  toolCalls(reply).forEach((c, index) => out.push(chunk({ tool_calls: [{ index, ...c }] }, null)));
  out.push(chunk({}, finishReason(reply), { usage: usage(reply) }));
  out.push("data: [DONE]\n\n");
  return out;
}
