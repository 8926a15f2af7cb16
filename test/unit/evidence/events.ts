/** Builders for synthetic stream-json lines, shaped like Claude Code 2.1.328's output. */
export const WS = "/ws";

export function line(value: unknown): string {
  return JSON.stringify(value);
}

export function init(cwd = WS, extra: Record<string, unknown> = {}): string {
  return line({
    type: "system",
    subtype: "init",
    cwd,
    session_id: "s1",
    model: "m1",
    claude_code_version: "9.9.9",
    ...extra,
  });
}

export function text(t: string, msgId = "msg_t", extra: Record<string, unknown> = {}): string {
  return line({
    type: "assistant",
    message: { id: msgId, model: "m1", role: "assistant", content: [{ type: "text", text: t }] },
    session_id: "s1",
    parent_tool_use_id: null,
    ...extra,
  });
}

export function toolUse(
  id: string,
  name: string,
  input: Record<string, unknown>,
  msgId = `msg_${id}`,
  usage?: Record<string, number>,
): string {
  return line({
    type: "assistant",
    message: {
      id: msgId,
      model: "m1",
      role: "assistant",
      content: [{ type: "tool_use", id, name, input }],
      ...(usage ? { usage } : {}),
    },
    session_id: "s1",
    parent_tool_use_id: null,
  });
}

export function toolResult(
  id: string,
  content: unknown,
  isError?: boolean,
  toolUseResult?: unknown,
): string {
  return line({
    type: "user",
    message: {
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: id,
          content,
          ...(isError === undefined ? {} : { is_error: isError }),
        },
      ],
    },
    session_id: "s1",
    ...(toolUseResult === undefined ? {} : { tool_use_result: toolUseResult }),
  });
}

export function result(extra: Record<string, unknown> = {}): string {
  return line({
    type: "result",
    subtype: "success",
    is_error: false,
    result: "done",
    session_id: "s1",
    ...extra,
  });
}

export function lines(...ls: string[]): string {
  return `${ls.join("\n")}\n`;
}
