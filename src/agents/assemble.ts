/**
 * The common half of every non-Claude decoder: each driver's decoder reads its own event
 * stream and reports what it saw here (tool calls and their results, assistant text, the end of
 * a turn, tokens, cost); this builds the same `Evidence` the Claude decoder builds, with the
 * same lists derived by the agent's tool vocabulary. Pure. Fields an agent's stream does not
 * report stay null (docs/agents.md, "What evidence means on each agent").
 */
import path from "node:path";
import type { ApiRetry, Evidence, ResultEvent, Tokens, ToolCall } from "../core/evidence.js";
import { deriveLists, type ToolVocabulary } from "../evidence/derive.js";
import { isRecord } from "../core/json.js";
import type { JsonRecord } from "../evidence/narrow.js";
import { capStrings, capText, MAX_TOOL_TEXT } from "../evidence/text.js";
import type { DecodeOptions, StreamDecoder } from "./types.js";

const SMALL_TOOL_TEXT = 500;
const DEFAULT_BUDGET = 32_000_000;

export interface TurnEnd {
  is_error: boolean;
  subtype: string;
  /** Default: the turn's last assistant text. */
  result?: string | null;
  terminal_reason: string;
  api_error_status?: number | null;
  num_turns?: number | null;
  duration_ms?: number | null;
}

export abstract class AssembledDecoder implements StreamDecoder {
  private lines = 0;
  private readonly malformed: number[] = [];
  private readonly nonObject: number[] = [];
  private readonly unknownTypes = new Map<string, number>();
  private lastLineBad = false;
  private textKept = 0;
  private readonly budget: number;
  private readonly workspace: string | null;
  private readonly preexisting: ReadonlySet<string>;

  protected version: string | null = null;
  protected model: string | null = null;
  protected cwd: string | null = null;
  private readonly calls: ToolCall[] = [];
  private readonly callIndex = new Map<string, number>();
  private readonly sessionIds = new Set<string>();
  private readonly results: ResultEvent[] = [];
  private turnTexts: string[] = [];
  private lastText: string | null = null;
  private tokens: Tokens | null = null;
  private cost: number | null = null;
  private numTurns: number | null = null;
  private durationMs: number | null = null;
  private readonly apiRetries: ApiRetry[] = [];
  /** The line being decoded (1-based). */
  protected lineNo = 0;

  constructor(
    private readonly agentName: string,
    private readonly vocabulary: ToolVocabulary,
    opts: DecodeOptions = {},
  ) {
    this.workspace = opts.workspace ?? null;
    // These streams do not name their cwd: the workspace is recorded as it, so that a stored
    // stream re-decoded later (rescore) makes the same paths relative.
    this.cwd = this.workspace;
    this.budget = opts.toolTextBudget ?? DEFAULT_BUDGET;
    this.preexisting = new Set(
      [...(opts.preexisting ?? [])].map((p) => path.posix.normalize(p).replace(/\/$/, "")),
    );
  }

  /** One parsed event of the agent's stream. */
  protected abstract onEvent(ev: JsonRecord): void;

  pushLine(line: string): void {
    this.lines += 1;
    this.lineNo = this.lines;
    const text = line.trim();
    if (text === "") {
      this.lastLineBad = false;
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.malformed.push(this.lineNo);
      this.lastLineBad = true;
      return;
    }
    this.lastLineBad = false;
    if (!isRecord(value)) {
      this.nonObject.push(this.lineNo);
      return;
    }
    try {
      this.onEvent(value);
    } catch {
      this.malformed.push(this.lineNo);
    }
  }

  protected unknown(type: string | null): void {
    const key = type ?? "(missing)";
    this.unknownTypes.set(key, (this.unknownTypes.get(key) ?? 0) + 1);
  }

  /** waiting for the model after the last event (Evidence.awaiting_model) */
  private awaitingModel: boolean | null = null;

  protected session(id: string | null): void {
    if (id) this.sessionIds.add(id);
    // A session has begun (some agents name it on every event: only the first counts).
    this.awaitingModel ??= true;
  }

  private cap(): number {
    return this.textKept < this.budget ? MAX_TOOL_TEXT : SMALL_TOOL_TEXT;
  }

  protected text(t: string): void {
    this.awaitingModel = false;
    if (t === "") return;
    this.turnTexts.push(t);
    this.lastText = t;
  }

  /** A tool call; a second call with the same id updates its input (started, then completed). */
  protected toolCall(id: string | null, name: string, input: JsonRecord): void {
    // The turn's answer is what the agent says after its last tool call.
    this.turnTexts = [];
    this.awaitingModel = false;
    const capped = capStrings(input, this.cap());
    const kept = isRecord(capped) ? capped : {};
    this.textKept += JSON.stringify(kept).length;
    if (id !== null) {
      const i = this.callIndex.get(id);
      const existing = i === undefined ? undefined : this.calls[i];
      if (existing !== undefined) {
        existing.input = kept;
        return;
      }
    }
    const index =
      this.calls.push({
        id,
        name,
        input: kept,
        output: null,
        is_error: null,
        turn: this.results.length + 1,
        // Subagent calls are not reported apart by these streams.
        parent_tool_use_id: null,
      }) - 1;
    if (id !== null) this.callIndex.set(id, index);
  }

  /** The result of a call; `isError` null when the agent does not say whether it failed. */
  protected toolResult(id: string | null, output: string | null, isError: boolean | null): void {
    // The result goes back to the model: the next request is under way.
    this.awaitingModel = true;
    if (id === null) return;
    const i = this.callIndex.get(id);
    const call = i === undefined ? undefined : this.calls[i];
    if (call === undefined) return;
    if (output !== null) {
      call.output = capText(output, this.cap());
      this.textKept += call.output.length;
    }
    call.is_error = isError;
  }

  protected addTokens(t: Partial<Omit<Tokens, "total">>): void {
    const cur = this.tokens ?? { input: 0, output: 0, cache_read: 0, cache_creation: 0, total: 0 };
    cur.input += t.input ?? 0;
    cur.output += t.output ?? 0;
    cur.cache_read += t.cache_read ?? 0;
    cur.cache_creation += t.cache_creation ?? 0;
    cur.total = cur.input + cur.output + cur.cache_read + cur.cache_creation;
    this.tokens = cur;
  }

  protected addCost(c: number | null): void {
    if (c !== null) this.cost = (this.cost ?? 0) + c;
  }

  protected retry(r: Omit<ApiRetry, "line">): void {
    this.apiRetries.push({ line: this.lineNo, ...r });
  }

  protected turnEnd(t: TurnEnd): void {
    this.awaitingModel = false;
    const text = this.turnTexts.length > 0 ? this.turnTexts.join("\n") : null;
    this.results.push({
      line: this.lineNo,
      subtype: t.subtype,
      is_error: t.is_error,
      result: t.result === undefined ? text : t.result,
      num_turns: t.num_turns ?? null,
      duration_ms: t.duration_ms ?? null,
      terminal_reason: t.terminal_reason,
      api_error_status: t.api_error_status ?? null,
      session_id: [...this.sessionIds].pop() ?? null,
    });
    if (t.num_turns != null) this.numTurns = (this.numTurns ?? 0) + t.num_turns;
    if (t.duration_ms != null) this.durationMs = (this.durationMs ?? 0) + t.duration_ms;
    this.turnTexts = [];
  }

  /** Called by finish() before the evidence is built: a stream without a final event ends here. */
  protected onFinish(): void {
    /* most streams have a final event */
  }

  finish(opts: { truncated?: boolean } = {}): Evidence {
    this.onFinish();
    const calls = this.calls.map((c) => ({ ...c, input: { ...c.input } }));
    const roots = [this.workspace, this.cwd].filter((r): r is string => r !== null);
    const lists = deriveLists(calls, {
      roots,
      preexisting: this.preexisting,
      writeKinds: new Map(),
      tools: this.vocabulary,
    });
    const last = this.results[this.results.length - 1];
    return {
      schema: "skillbench.evidence.v1",
      agent: {
        name: this.agentName,
        version: this.version,
        claude_code_version: null,
        model: this.model,
        cwd: this.cwd,
      },
      tool_calls: calls,
      subagent_tool_calls: 0,
      ...lists,
      session_ids: [...this.sessionIds],
      result_text: last?.result ?? this.lastText,
      results: this.results.map((r) => ({ ...r })),
      is_error: last === undefined ? true : last.is_error,
      num_turns: this.numTurns,
      duration_ms: this.durationMs,
      duration_api_ms: null,
      tokens: this.tokens === null ? null : { ...this.tokens },
      total_cost_usd: this.cost,
      model_usage: {},
      peak_context_tokens: null,
      api_retries: this.apiRetries.map((r) => ({ ...r })),
      permission_denials: 0,
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

/** An HTTP status named in an error message ("status 429", "last status: 500", `"code": 503`). */
export function statusIn(message: string): number | null {
  const m =
    /\bstatus(?: code)?:?\s*(\d{3})\b/i.exec(message) ??
    /"code"\s*:\s*(\d{3})\b/.exec(message) ??
    /\b(\d{3}) (?:Internal Server Error|Too Many Requests|Service Unavailable|Bad Gateway|Unauthorized|Bad Request|Forbidden)\b/.exec(
      message,
    );
  return m?.[1] ? Number(m[1]) : null;
}
