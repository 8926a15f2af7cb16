import { isRecord } from "../../core/json.js";
/**
 * Incremental stream-json -> Evidence builder for Claude Code
 * (`claude -p … --output-format stream-json --verbose`). Pure: lines in, Evidence out.
 * Keeps only the evidence being built, never the raw text. Never throws on bad input.
 */
import path from "node:path";
import type { ApiRetry, Evidence, ModelUsage, ResultEvent, ToolCall } from "../../core/evidence.js";
import { deriveLists, type ToolVocabulary, type WriteKind } from "../../evidence/derive.js";
import type { EvidenceOptions } from "../../evidence/default-decoder.js";
import { arrOf, boolOf, numOf, recOf, strOf, type JsonRecord } from "../../evidence/narrow.js";
import { capStrings, capText, MAX_TOOL_TEXT, toolResultText } from "../../evidence/text.js";
import {
  addModelUsage,
  addNullable,
  contextTokensOf,
  costOfModelUsage,
  readModelUsage,
  SessionTotals,
  sumModelTokens,
  TokenSum,
  usageTokens,
} from "../../evidence/usage.js";

/** Claude Code's tools. */
export const CLAUDE_TOOLS: ToolVocabulary = {
  tools: {
    Bash: { kind: "command", fields: ["command"] },
    Read: { kind: "read", fields: ["file_path"] },
    Write: { kind: "write", fields: ["file_path"] },
    Edit: { kind: "edit", fields: ["file_path"] },
    MultiEdit: { kind: "edit", fields: ["file_path"] },
    NotebookEdit: { kind: "edit", fields: ["notebook_path", "file_path"] },
    Skill: { kind: "skill" },
    Glob: { kind: "list", fields: ["path", "pattern"] },
    Grep: { kind: "list", fields: ["path", "glob"] },
    LS: { kind: "list", fields: ["path"] },
  },
};

const KNOWN_TYPES = new Set(["system", "assistant", "user", "result", "stream_event"]);
/** Key in `diagnostics.unknown_types` for object lines without a string `type`. */
const MISSING_TYPE = "(missing)";
/** At most this many tool results are held while waiting for their tool_use. */
const MAX_PENDING_RESULTS = 1000;

interface PendingResult {
  output: string | null;
  is_error: boolean;
  writeKind: WriteKind | null;
}

/**
 * Total characters of tool text (outputs and input strings) kept at full size in one
 * evidence value. Past it, each further text is cut to SMALL_TOOL_TEXT: memory stays
 * bounded whatever the transcript's size; every call is still recorded.
 */
const TOOL_TEXT_BUDGET = 32_000_000;
export const SMALL_TOOL_TEXT = 500;

export class EvidenceBuilder {
  /** Tool text kept so far (characters), against the budget. */
  private textKept = 0;
  private readonly budget: number;
  private readonly workspace: string | null;

  /** The cap for the next tool text: the normal one while the budget lasts, then a small one. */
  private textCap(): number {
    return this.textKept < this.budget ? MAX_TOOL_TEXT : SMALL_TOOL_TEXT;
  }

  private keepText(text: string): string {
    const kept = capText(text, this.textCap());
    this.textKept += kept.length;
    return kept;
  }

  private readonly preexisting: ReadonlySet<string>;

  // diagnostics
  private lines = 0;
  private readonly malformed: number[] = [];
  private readonly nonObject: number[] = [];
  private readonly unknownTypes = new Map<string, number>();
  private lastLineBad = false;

  // agent
  private version: string | null = null;
  private model: string | null = null;
  private cwd: string | null = null;
  private firstAssistantModel: string | null = null;

  // tool calls
  private readonly calls: ToolCall[] = [];
  private readonly callIndex = new Map<string, number>();
  private readonly writeKinds = new Map<number, WriteKind>();
  private readonly pending = new Map<string, PendingResult>();

  // results and totals
  private readonly sessionIds = new Set<string>();
  private readonly results: ResultEvent[] = [];
  private numTurns: number | null = null;
  private durationMs: number | null = null;
  private durationApiMs: number | null = null;
  private cost: number | null = null;
  private readonly tokens = new TokenSum();
  private readonly modelUsage = new Map<string, ModelUsage>();
  private readonly sessionTotals = new SessionTotals();
  private peakContext: number | null = null;
  private readonly apiRetries: ApiRetry[] = [];
  private permissionDenials = 0;
  /** waiting for the model after the last event (Evidence.awaiting_model) */
  private awaitingModel: boolean | null = null;
  private deniedEventsThisTurn = 0;

  // fallback result text: the text blocks of the last assistant message that had text
  private lastTextMessageId: string | null = null;
  private lastTextParts: string[] = [];

  constructor(opts: EvidenceOptions = {}) {
    this.workspace = opts.workspace ?? null;
    this.budget = opts.toolTextBudget ?? TOOL_TEXT_BUDGET;
    this.preexisting = new Set(
      [...(opts.preexisting ?? [])].map((p) => path.posix.normalize(p).replace(/\/$/, "")),
    );
  }

  /** Feed one line (without its newline; a trailing `\r` is tolerated). */
  pushLine(line: string): void {
    this.lines += 1;
    const lineNo = this.lines;
    // trim() only when needed: it copies, and lines can be megabytes long
    const text =
      line.length > 0 && (line.charCodeAt(0) <= 32 || line.charCodeAt(line.length - 1) <= 32)
        ? line.trim()
        : line;
    if (text === "") {
      this.lastLineBad = false;
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.malformed.push(lineNo);
      this.lastLineBad = true;
      return;
    }
    this.lastLineBad = false;
    if (!isRecord(value)) {
      this.nonObject.push(lineNo);
      return;
    }
    try {
      this.onEvent(value, lineNo);
    } catch {
      // Defensive: narrowing should make this unreachable; a bad event must not kill the parse.
      this.malformed.push(lineNo);
    }
  }

  private onEvent(ev: JsonRecord, lineNo: number): void {
    const sid = strOf(ev.session_id);
    if (sid !== null && sid !== "") this.sessionIds.add(sid);
    const type = strOf(ev.type);
    if (type === null || !KNOWN_TYPES.has(type)) {
      const key = type ?? MISSING_TYPE;
      this.unknownTypes.set(key, (this.unknownTypes.get(key) ?? 0) + 1);
      return;
    }
    switch (type) {
      case "system":
        this.onSystem(ev, lineNo);
        break;
      case "assistant":
        this.awaitingModel = false;
        this.onAssistant(ev);
        break;
      case "user":
        this.onUser(ev);
        break;
      case "result":
        this.awaitingModel = false;
        this.onResult(ev, lineNo);
        break;
      default:
        // stream_event: partial deltas (the complete assistant events carry the same content),
        // but model output all the same
        this.awaitingModel = false;
        break;
    }
  }

  private onSystem(ev: JsonRecord, lineNo: number): void {
    switch (strOf(ev.subtype)) {
      case "init":
        // The session has begun: its first model request is under way.
        this.awaitingModel = true;
        this.version ??= strOf(ev.claude_code_version);
        this.model ??= strOf(ev.model);
        this.cwd ??= strOf(ev.cwd);
        break;
      case "api_retry":
        this.apiRetries.push({
          line: lineNo,
          attempt: numOf(ev.attempt),
          max_retries: numOf(ev.max_retries),
          retry_delay_ms: numOf(ev.retry_delay_ms),
          error_status: numOf(ev.error_status),
          error: strOf(ev.error),
        });
        break;
      case "permission_denied":
        this.deniedEventsThisTurn += 1;
        break;
      default:
        break;
    }
  }

  private onAssistant(ev: JsonRecord): void {
    const msg = recOf(ev.message);
    if (msg === null) return;
    const isSubagent = strOf(ev.parent_tool_use_id) !== null;
    const msgModel = strOf(msg.model);
    if (msgModel !== null && msgModel !== "<synthetic>") this.firstAssistantModel ??= msgModel;
    // A `<synthetic>` message (printed for an API error) made no API call: its zero usage is
    // not a context size, so a run with no answered call keeps peak_context_tokens null.
    if (!isSubagent && msgModel !== "<synthetic>") {
      const ctx = contextTokensOf(msg.usage);
      if (ctx !== null) this.peakContext = Math.max(this.peakContext ?? 0, ctx);
    }
    const msgId = strOf(msg.id);
    const content =
      typeof msg.content === "string" ? [{ type: "text", text: msg.content }] : arrOf(msg.content);
    for (const block of content ?? []) {
      if (!isRecord(block)) continue;
      if (block.type === "text") {
        const text = strOf(block.text);
        if (text === null || isSubagent) continue;
        if (msgId !== null && msgId === this.lastTextMessageId) this.lastTextParts.push(text);
        else {
          this.lastTextMessageId = msgId;
          this.lastTextParts = [text];
        }
      } else if (block.type === "tool_use") {
        this.onToolUse(block, strOf(ev.parent_tool_use_id));
      }
    }
  }

  private onToolUse(block: JsonRecord, parent: string | null): void {
    const id = strOf(block.id);
    if (id !== null && this.callIndex.has(id)) return; // the same block repeated
    const input = capStrings(block.input, this.textCap());
    this.textKept += JSON.stringify(input ?? null).length;
    const call: ToolCall = {
      id,
      name: strOf(block.name) ?? "",
      input: isRecord(input) ? input : {},
      output: null,
      is_error: null,
      turn: this.results.length + 1,
      parent_tool_use_id: parent,
    };
    const index = this.calls.push(call) - 1;
    if (id === null) return;
    this.callIndex.set(id, index);
    const early = this.pending.get(id);
    if (early !== undefined) {
      this.pending.delete(id);
      this.applyResult(index, early);
    }
  }

  private onUser(ev: JsonRecord): void {
    const msg = recOf(ev.message);
    const content = msg === null ? null : arrOf(msg.content);
    if (content === null) return;
    const results = content.filter((b): b is JsonRecord => isRecord(b) && b.type === "tool_result");
    // A tool's result goes back to the model: the next request is under way.
    if (results.length > 0) this.awaitingModel = true;
    // Claude's own view of the tool's effect; only attributable when the event has one result.
    const meta = recOf(ev.tool_use_result);
    const metaType = meta === null ? null : strOf(meta.type);
    const writeKind: WriteKind | null =
      results.length === 1 && (metaType === "create" || metaType === "update") ? metaType : null;
    for (const block of results) {
      const id = strOf(block.tool_use_id);
      if (id === null) continue;
      const text = toolResultText(block.content);
      const result: PendingResult = {
        output: text === null ? null : this.keepText(text),
        is_error: boolOf(block.is_error) === true,
        writeKind,
      };
      const index = this.callIndex.get(id);
      if (index !== undefined) this.applyResult(index, result);
      else if (!this.pending.has(id) && this.pending.size < MAX_PENDING_RESULTS)
        this.pending.set(id, result);
    }
  }

  /** First result wins: a tool_use_id answered twice keeps its first answer. */
  private applyResult(index: number, r: PendingResult): void {
    const call = this.calls[index];
    if (call === undefined || call.is_error !== null) return;
    call.output = r.output;
    call.is_error = r.is_error;
    if (r.writeKind !== null) this.writeKinds.set(index, r.writeKind);
  }

  private onResult(ev: JsonRecord, lineNo: number): void {
    const subtype = strOf(ev.subtype);
    const flag = boolOf(ev.is_error);
    this.results.push({
      line: lineNo,
      subtype,
      is_error: flag ?? subtype !== "success",
      result: strOf(ev.result),
      num_turns: numOf(ev.num_turns),
      duration_ms: numOf(ev.duration_ms),
      terminal_reason: strOf(ev.terminal_reason),
      api_error_status: numOf(ev.api_error_status),
      session_id: strOf(ev.session_id),
    });
    this.numTurns = addNullable(this.numTurns, numOf(ev.num_turns));
    this.durationMs = addNullable(this.durationMs, numOf(ev.duration_ms));
    this.tokens.add(ev.usage);
    // Cost, modelUsage and API time are counters of the session: differences are taken
    // per session id (SessionTotals, docs/evidence.md). `model_usage_since_last_result`,
    // when present, already is this turn's share.
    const since = recOf(ev.model_usage_since_last_result);
    const sinceModels = since === null ? null : readModelUsage(since);
    const mu = recOf(ev.modelUsage);
    const inc = this.sessionTotals.take(strOf(ev.session_id), {
      cost: numOf(ev.total_cost_usd),
      apiMs: numOf(ev.duration_api_ms),
      models: mu === null ? null : readModelUsage(mu),
      turnTokens: sinceModels === null ? usageTokens(ev.usage) : sumModelTokens(sinceModels),
    });
    this.durationApiMs = addNullable(this.durationApiMs, inc.apiMs);
    if (since !== null && sinceModels !== null) {
      addModelUsage(this.modelUsage, sinceModels);
      // An empty since-map next to a reported total means nothing was spent since the last
      // result: 0, not "telemetry missing".
      const reported = numOf(ev.total_cost_usd) !== null;
      this.cost = addNullable(this.cost, costOfModelUsage(since) ?? (reported ? 0 : null));
    } else {
      if (inc.models !== null) addModelUsage(this.modelUsage, inc.models);
      this.cost = addNullable(this.cost, inc.cost);
    }
    const listed = arrOf(ev.permission_denials)?.length ?? 0;
    this.permissionDenials += Math.max(listed, this.deniedEventsThisTurn);
    this.deniedEventsThisTurn = 0;
  }

  /**
   * The evidence so far. `truncated`: the input ended without a final newline, so a
   * last line that did not parse was cut off. May be called more than once.
   */
  finish(opts: { truncated?: boolean } = {}): Evidence {
    const calls = this.calls.map((c) => ({ ...c }));
    const roots = [this.workspace, this.cwd].filter((r): r is string => r !== null);
    const lists = deriveLists(calls, {
      roots,
      preexisting: this.preexisting,
      writeKinds: this.writeKinds,
      tools: CLAUDE_TOOLS,
    });
    const last = this.results[this.results.length - 1];
    const fallbackText = this.lastTextParts.length > 0 ? this.lastTextParts.join("\n") : null;
    return {
      schema: "skillbench.evidence.v1",
      agent: {
        name: "claude",
        version: this.version,
        claude_code_version: this.version,
        model: this.model ?? this.firstAssistantModel,
        cwd: this.cwd,
      },
      tool_calls: calls,
      subagent_tool_calls: calls.filter((c) => c.parent_tool_use_id !== null).length,
      ...lists,
      session_ids: [...this.sessionIds],
      result_text: last?.result ?? fallbackText,
      results: this.results.map((r) => ({ ...r })),
      is_error: last === undefined ? true : last.is_error,
      num_turns: this.numTurns,
      duration_ms: this.durationMs,
      duration_api_ms: this.durationApiMs,
      tokens: this.tokens.value(),
      total_cost_usd: this.cost,
      model_usage: Object.fromEntries([...this.modelUsage].map(([k, v]) => [k, { ...v }])),
      peak_context_tokens: this.peakContext,
      api_retries: this.apiRetries.map((r) => ({ ...r })),
      permission_denials: this.permissionDenials + this.deniedEventsThisTurn,
      awaiting_model: this.awaitingModel,
      diagnostics: {
        lines: this.lines,
        malformed_lines: [...this.malformed],
        non_object_lines: [...this.nonObject],
        unknown_types: Object.fromEntries(this.unknownTypes),
        truncated_last_line: opts.truncated === true && this.lastLineBad,
      },
    };
  }
}
