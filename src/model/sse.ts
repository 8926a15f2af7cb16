import type { ApiMessage } from "./build-reply.js";

/** Server-sent-event encoding of a Messages API reply, as the streaming API sends it. Pure. */

export interface SseEvent {
  event: string;
  data: Record<string, unknown>;
}

/** Split a string into at most `parts` non-empty pieces of similar length (code-point safe). */
export function splitChunks(s: string, parts = 3): string[] {
  const chars = Array.from(s);
  if (chars.length === 0) return [];
  const n = Math.max(1, Math.min(parts, chars.length));
  const size = Math.ceil(chars.length / n);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(""));
  return out;
}

export function sseEvents(msg: ApiMessage): SseEvent[] {
  const u = msg.usage;
  const events: SseEvent[] = [
    {
      event: "message_start",
      data: {
        type: "message_start",
        message: {
          id: msg.id,
          type: "message",
          role: "assistant",
          model: msg.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: {
            input_tokens: u.input_tokens,
            cache_creation_input_tokens: u.cache_creation_input_tokens,
            cache_read_input_tokens: u.cache_read_input_tokens,
            output_tokens: 1,
          },
        },
      },
    },
  ];
  msg.content.forEach((b, index) => {
    if (b.type === "text") {
      events.push({
        event: "content_block_start",
        data: { type: "content_block_start", index, content_block: { type: "text", text: "" } },
      });
      for (const text of splitChunks(b.text)) {
        events.push({
          event: "content_block_delta",
          data: { type: "content_block_delta", index, delta: { type: "text_delta", text } },
        });
      }
    } else {
      events.push({
        event: "content_block_start",
        data: {
          type: "content_block_start",
          index,
          content_block: { type: "tool_use", id: b.id, name: b.name, input: {} },
        },
      });
      for (const partial_json of splitChunks(JSON.stringify(b.input))) {
        events.push({
          event: "content_block_delta",
          data: {
            type: "content_block_delta",
            index,
            delta: { type: "input_json_delta", partial_json },
          },
        });
      }
    }
    events.push({ event: "content_block_stop", data: { type: "content_block_stop", index } });
  });
  events.push({
    event: "message_delta",
    data: {
      type: "message_delta",
      delta: { stop_reason: msg.stop_reason, stop_sequence: null },
      usage: {
        input_tokens: u.input_tokens,
        cache_creation_input_tokens: u.cache_creation_input_tokens,
        cache_read_input_tokens: u.cache_read_input_tokens,
        output_tokens: u.output_tokens,
      },
    },
  });
  events.push({ event: "message_stop", data: { type: "message_stop" } });
  return events;
}

export function encodeSseEvent(e: SseEvent): string {
  return `event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`;
}

/** Where a cut-off stream stops: after `afterEvents` events, else half-way (at least after message_start). */
export function cutPoint(total: number, afterEvents: number | null): number {
  if (afterEvents !== null) return Math.min(afterEvents, Math.max(0, total - 1));
  return Math.max(1, Math.floor(total / 2));
}
