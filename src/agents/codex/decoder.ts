/**
 * `codex exec --json` events -> Evidence. Pure. Codex has no Skill tool: it lists Skills with
 * the path of their SKILL.md and the model opens the file itself, so opening
 * `<skills dir>/<name>/SKILL.md` is what counts as invoking a Skill (docs/agents.md).
 */
import type { ToolVocabulary } from "../../evidence/derive.js";
import { numOf, recOf, strOf, arrOf, type JsonRecord } from "../../evidence/narrow.js";
import { AssembledDecoder, statusIn } from "../assemble.js";
import { unwrapShell } from "../shell-words.js";
import type { DecodeOptions } from "../types.js";

export const CODEX_TOOLS: ToolVocabulary = {
  tools: {
    command_execution: { kind: "command", fields: ["command"] },
    file_change: { kind: "patch" },
  },
  skillByReading: true,
};

/**
 * Messages of a failed turn that come from the model API. Codex words a 5xx as "We're currently
 * experiencing high demand…" without the status, so that one has no `api_error_status`.
 */
const API_FAILURE =
  /status|stream disconnected|error sending request|retry limit|connection|timed out|timeout|rate limit|high demand|temporary errors|overloaded|unavailable/i;

export class CodexDecoder extends AssembledDecoder {
  private openTurn = false;
  private lastError: string | null = null;
  /** Usage is cumulative per thread after a resume: only the growth is added. */
  private readonly usageSeen = new Map<string, { input: number; output: number; cached: number }>();
  private thread: string | null = null;

  constructor(opts?: DecodeOptions) {
    super("codex", CODEX_TOOLS, opts);
  }

  protected onEvent(ev: JsonRecord): void {
    const type = strOf(ev.type);
    switch (type) {
      case "thread.started":
        this.thread = strOf(ev.thread_id);
        this.session(this.thread);
        break;
      case "turn.started":
        this.openTurn = true;
        this.lastError = null;
        break;
      case "item.started":
      case "item.completed":
        this.onItem(recOf(ev.item), type === "item.completed");
        break;
      case "turn.completed":
        this.onUsage(recOf(ev.usage));
        this.openTurn = false;
        this.turnEnd({ is_error: false, subtype: "success", terminal_reason: "completed" });
        break;
      case "turn.failed": {
        const message = strOf(recOf(ev.error)?.message) ?? this.lastError ?? "turn failed";
        this.failTurn(message);
        break;
      }
      case "error": {
        const message = strOf(ev.message) ?? "";
        const m = /Reconnecting\.\.\.\s*(\d+)\/(\d+)/.exec(message);
        if (m)
          this.retry({
            attempt: Number(m[1]),
            max_retries: Number(m[2]),
            retry_delay_ms: null,
            error_status: statusIn(message),
            error: message,
          });
        else this.lastError = message;
        break;
      }
      default:
        this.unknown(type);
    }
  }

  private failTurn(message: string): void {
    this.openTurn = false;
    const api = API_FAILURE.test(message);
    this.turnEnd({
      is_error: true,
      subtype: "error",
      result: message,
      terminal_reason: api ? "api_error" : "error",
      api_error_status: statusIn(message),
    });
  }

  private onItem(item: JsonRecord | null, done: boolean): void {
    if (item === null) return;
    const id = strOf(item.id);
    switch (strOf(item.type)) {
      case "agent_message": {
        const t = strOf(item.text);
        if (done && t !== null) this.text(t);
        break;
      }
      case "command_execution": {
        const raw = strOf(item.command) ?? "";
        this.toolCall(id, "command_execution", { command: unwrapShell(raw), raw });
        if (done) {
          const exit = numOf(item.exit_code);
          const status = strOf(item.status);
          this.toolResult(
            id,
            strOf(item.aggregated_output),
            exit !== null ? exit !== 0 : status === "failed" ? true : null,
          );
        }
        break;
      }
      case "file_change": {
        this.toolCall(id, "file_change", { changes: arrOf(item.changes) ?? [] });
        if (done) this.toolResult(id, null, strOf(item.status) === "failed");
        break;
      }
      case "mcp_tool_call":
      case "web_search": {
        const { id: _id, type, ...input } = item;
        this.toolCall(id, String(type), input);
        if (done) this.toolResult(id, null, strOf(item.status) === "failed" ? true : null);
        break;
      }
      default:
        break; // reasoning, todo_list, error (warnings): not evidence
    }
  }

  private onUsage(u: JsonRecord | null): void {
    if (u === null) return;
    const now = {
      input: numOf(u.input_tokens) ?? 0,
      output: numOf(u.output_tokens) ?? 0,
      cached: numOf(u.cached_input_tokens) ?? 0,
    };
    const key = this.thread ?? "";
    const before = this.usageSeen.get(key) ?? { input: 0, output: 0, cached: 0 };
    // Cumulative when it did not shrink; a fresh count otherwise.
    const cumulative =
      now.input >= before.input && now.output >= before.output && now.cached >= before.cached;
    const d = cumulative
      ? {
          input: now.input - before.input,
          output: now.output - before.output,
          cached: now.cached - before.cached,
        }
      : now;
    this.usageSeen.set(key, now);
    // Codex counts cached input inside input_tokens; Evidence counts them apart.
    this.addTokens({ input: d.input - d.cached, output: d.output, cache_read: d.cached });
  }

  protected override onFinish(): void {
    if (this.openTurn && this.lastError !== null) this.failTurn(this.lastError);
  }
}
