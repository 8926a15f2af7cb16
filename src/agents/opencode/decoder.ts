/**
 * `opencode run --format json` events -> Evidence. Pure. Skills are invoked with the `skill`
 * tool. There is no final event: a turn ends with a `step_finish` whose reason is not
 * `tool-calls`, or with an `error` event.
 */
import type { ToolVocabulary } from "../../evidence/derive.js";
import { numOf, recOf, strOf, type JsonRecord } from "../../evidence/narrow.js";
import { AssembledDecoder } from "../assemble.js";
import type { DecodeOptions } from "../types.js";

export const OPENCODE_TOOLS: ToolVocabulary = {
  tools: {
    bash: { kind: "command", fields: ["command"] },
    read: { kind: "read", fields: ["filePath", "file_path"] },
    write: { kind: "write", fields: ["filePath", "file_path"] },
    edit: { kind: "edit", fields: ["filePath", "file_path"] },
    patch: { kind: "edit", fields: ["filePath", "file_path"] },
    skill: { kind: "skill" },
    glob: { kind: "list", fields: ["path", "pattern"] },
    grep: { kind: "list", fields: ["path", "include"] },
    list: { kind: "list", fields: ["path"] },
  },
};

export class OpencodeDecoder extends AssembledDecoder {
  constructor(opts?: DecodeOptions) {
    super("opencode", OPENCODE_TOOLS, opts);
  }

  protected onEvent(ev: JsonRecord): void {
    const type = strOf(ev.type);
    this.session(strOf(ev.sessionID));
    const part = recOf(ev.part);
    switch (type) {
      case "step_start":
        break;
      case "text": {
        const t = strOf(part?.text);
        if (t !== null) this.text(t);
        break;
      }
      case "tool_use": {
        const id = strOf(part?.callID) ?? strOf(part?.id);
        const state = recOf(part?.state);
        this.toolCall(id, strOf(part?.tool) ?? "", recOf(state?.input) ?? {});
        const status = strOf(state?.status);
        if (status === "completed" || status === "error") {
          const exit = numOf(recOf(state?.metadata)?.exit);
          this.toolResult(
            id,
            strOf(state?.output) ?? strOf(state?.error),
            status === "error" ? true : exit !== null ? exit !== 0 : false,
          );
        }
        break;
      }
      case "step_finish": {
        const tokens = recOf(part?.tokens);
        if (tokens !== null) {
          const cache = recOf(tokens.cache);
          this.addTokens({
            input: numOf(tokens.input) ?? 0,
            output: numOf(tokens.output) ?? 0,
            cache_read: numOf(cache?.read) ?? 0,
            cache_creation: numOf(cache?.write) ?? 0,
          });
        }
        this.addCost(numOf(part?.cost));
        const reason = strOf(part?.reason);
        if (reason !== "tool-calls")
          this.turnEnd({
            is_error: reason === "error",
            subtype: reason === "error" ? "error" : "success",
            terminal_reason:
              reason === "length" ? "max_tokens" : reason === "error" ? "error" : "completed",
          });
        break;
      }
      case "error": {
        const err = recOf(ev.error);
        const data = recOf(err?.data);
        const name = strOf(err?.name) ?? "";
        const message = strOf(data?.message) ?? (name || "error");
        this.turnEnd({
          is_error: true,
          subtype: "error",
          result: message,
          terminal_reason: name === "APIError" ? "api_error" : "error",
          api_error_status: numOf(data?.statusCode),
        });
        break;
      }
      default:
        this.unknown(type);
    }
  }
}
