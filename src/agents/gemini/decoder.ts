/**
 * `gemini -p … --output-format stream-json` events -> Evidence. Pure. Skills are invoked with the
 * `activate_skill` tool. The stream does not report a shell command's exit code (a command
 * that exits 1 is still `status: "success"`), so such a call's `is_error` is null, never a guess.
 */
import type { ToolVocabulary } from "../../evidence/derive.js";
import { numOf, recOf, strOf, type JsonRecord } from "../../evidence/narrow.js";
import { AssembledDecoder, statusIn } from "../assemble.js";
import type { DecodeOptions } from "../types.js";

export const GEMINI_TOOLS: ToolVocabulary = {
  tools: {
    run_shell_command: { kind: "command", fields: ["command"] },
    read_file: { kind: "read", fields: ["file_path", "absolute_path", "path"] },
    write_file: { kind: "write", fields: ["file_path", "absolute_path"] },
    replace: { kind: "edit", fields: ["file_path", "absolute_path"] },
    activate_skill: { kind: "skill" },
    list_directory: { kind: "list", fields: ["dir_path", "path"] },
    glob: { kind: "list", fields: ["dir_path", "path", "pattern"] },
    grep_search: { kind: "list", fields: ["dir_path", "path"] },
  },
};

/** Tools whose success status says nothing about the command's own exit code. */
const EXIT_UNREPORTED = new Set(["run_shell_command"]);

export class GeminiDecoder extends AssembledDecoder {
  private buffer = "";
  private readonly toolNames = new Map<string, string>();

  constructor(opts?: DecodeOptions) {
    super("gemini", GEMINI_TOOLS, opts);
  }

  private flush(): void {
    if (this.buffer !== "") this.text(this.buffer);
    this.buffer = "";
  }

  protected onEvent(ev: JsonRecord): void {
    const type = strOf(ev.type);
    switch (type) {
      case "init":
        this.session(strOf(ev.session_id));
        this.model ??= strOf(ev.model);
        break;
      case "message":
        if (strOf(ev.role) === "assistant") {
          const c = strOf(ev.content) ?? "";
          if (ev.delta === true) this.buffer += c;
          else {
            this.flush();
            this.buffer = c;
          }
        }
        break;
      case "tool_use": {
        this.flush();
        const id = strOf(ev.tool_id);
        const name = strOf(ev.tool_name) ?? "";
        if (id !== null) this.toolNames.set(id, name);
        this.toolCall(id, name, recOf(ev.parameters) ?? {});
        break;
      }
      case "tool_result": {
        const id = strOf(ev.tool_id);
        const status = strOf(ev.status);
        const err = recOf(ev.error);
        const name = id === null ? "" : (this.toolNames.get(id) ?? "");
        this.toolResult(
          id,
          strOf(ev.output) ?? strOf(err?.message),
          status === "error"
            ? true
            : EXIT_UNREPORTED.has(name)
              ? null
              : status === "success"
                ? false
                : null,
        );
        break;
      }
      case "error":
        break; // non-fatal warnings
      case "result": {
        this.flush();
        const stats = recOf(ev.stats);
        if (stats !== null) {
          const input = numOf(stats.input_tokens);
          const cached = numOf(stats.cached) ?? 0;
          this.addTokens({
            input: numOf(stats.input) ?? (input === null ? 0 : input - cached),
            output: numOf(stats.output_tokens) ?? 0,
            cache_read: cached,
          });
        }
        const err = recOf(ev.error);
        const ok = strOf(ev.status) === "success";
        const message = strOf(err?.message) ?? "";
        const errType = strOf(err?.type) ?? "";
        this.turnEnd(
          ok
            ? {
                is_error: false,
                subtype: "success",
                terminal_reason: "completed",
                duration_ms: numOf(stats?.duration_ms),
              }
            : {
                is_error: true,
                subtype: "error",
                result: message || errType || "error",
                terminal_reason: /TurnLimit/i.test(errType)
                  ? "max_turns"
                  : /API Error|fetch failed|status/i.test(message)
                    ? "api_error"
                    : "error",
                api_error_status: statusIn(message),
                duration_ms: numOf(stats?.duration_ms),
              },
        );
        break;
      }
      default:
        this.unknown(type);
    }
  }
}
