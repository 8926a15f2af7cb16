import { isRecord } from "../../core/json.js";
/**
 * The transcript of a run as a timeline for the run page: from Claude Code's stream-json
 * (stdout.jsonl, step by step), or from the common evidence any agent's decoder writes
 * (events.json: Codex, Gemini CLI, opencode, or a Claude run without its stdout). Pure.
 */
import type { Evidence } from "../../core/evidence.js";
import { arrOf, numOf, recOf, strOf, type JsonRecord } from "../../evidence/narrow.js";
import { capText, toolResultText } from "../../evidence/text.js";
import type {
  StepUsage,
  Timeline,
  TimelineResult,
  TimelineStep,
  TimelineTool,
  TimelineTurn,
} from "./wire.js";

export interface TimelineOptions {
  /** longest text kept per field (default 20,000 characters) */
  maxText?: number;
  /** report.interaction.turns: prompts and simulated replies per turn, parsed defensively */
  interactionTurns?: ReadonlyArray<Record<string, unknown>>;
}

const PROMPT_KEYS = [
  "prompt",
  "simulated_reply",
  "reply",
  "user_message",
  "user",
  "message",
  "input",
  "text",
  "content",
];

/** The prompt text of one interaction.turns record, whatever its field is called. */
export function turnPrompt(rec: Record<string, unknown>): { text: string; source: string } | null {
  for (const key of PROMPT_KEYS) {
    const v = rec[key];
    if (typeof v === "string" && v.trim() !== "") {
      const src = strOf(rec.source) ?? strOf(rec.role) ?? strOf(rec.kind) ?? key;
      return { text: v, source: src };
    }
  }
  return null;
}

function usageOf(v: unknown): StepUsage | null {
  const u = recOf(v);
  if (!u) return null;
  return {
    input: numOf(u.input_tokens) ?? 0,
    output: numOf(u.output_tokens) ?? 0,
    cache_read: numOf(u.cache_read_input_tokens) ?? 0,
    cache_creation: numOf(u.cache_creation_input_tokens) ?? 0,
  };
}

function pretty(v: unknown, max: number): string {
  let s: string;
  try {
    // JSON.stringify returns undefined for undefined and functions, whatever its type says
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition
    s = JSON.stringify(v, null, 2) ?? "null";
  } catch {
    s = String(v);
  }
  return capText(s, max);
}

/** A short description of a tool call for its collapsed line. */
export function toolLabel(name: string, input: JsonRecord): string {
  const pick = (...keys: string[]): string | null => {
    for (const k of keys) {
      const v = strOf(input[k]);
      if (v !== null && v !== "") return v;
    }
    return null;
  };
  const raw =
    name === "Skill"
      ? pick("skill", "name")
      : pick("command", "file_path", "path", "pattern", "url", "query", "description", "prompt");
  if (raw === null) return "";
  const first = raw.split("\n")[0] ?? "";
  return first.length > 120 ? `${first.slice(0, 117)}…` : first;
}

function makeTool(block: JsonRecord, max: number): TimelineTool {
  const name = strOf(block.name) ?? "(unnamed tool)";
  const input = recOf(block.input) ?? {};
  return {
    id: strOf(block.id),
    name,
    input: pretty(input, max),
    label: toolLabel(name, input),
    output: null,
    is_error: false,
    skill: name === "Skill" ? (strOf(input.skill) ?? strOf(input.name)) : null,
  };
}

function resultOf(ev: JsonRecord, line: number, max: number): TimelineResult {
  const u = usageOf(ev.usage);
  const text = strOf(ev.result);
  return {
    line,
    subtype: strOf(ev.subtype),
    is_error: ev.is_error === true,
    text: text === null ? null : capText(text, max),
    num_turns: numOf(ev.num_turns),
    duration_ms: numOf(ev.duration_ms),
    cost_usd: numOf(ev.total_cost_usd),
    tokens: u ? { ...u, total: u.input + u.output + u.cache_read + u.cache_creation } : null,
    terminal_reason: strOf(ev.terminal_reason),
  };
}

class Builder {
  readonly turns: TimelineTurn[] = [];
  private readonly tools = new Map<string, TimelineTool>();
  private lastMessageId: string | null = null;
  lines = 0;
  malformed = 0;
  toolCount = 0;
  errors = 0;

  constructor(
    private readonly max: number,
    private readonly prompts: Array<{ text: string; source: string } | null>,
  ) {}

  private current(): TimelineTurn {
    let t = this.turns[this.turns.length - 1];
    if (!t || t.result !== null) {
      const index = this.turns.length + 1;
      const p = this.prompts[index - 1] ?? null;
      t = {
        index,
        prompt: p ? capText(p.text, this.max) : null,
        prompt_source: p?.source ?? null,
        steps: [],
        result: null,
      };
      this.turns.push(t);
      this.lastMessageId = null;
    }
    return t;
  }

  private assistantStep(
    turn: TimelineTurn,
    line: number,
    id: string | null,
    usage: StepUsage | null,
  ): TimelineStep {
    const last = turn.steps[turn.steps.length - 1];
    if (last && last.kind === "assistant" && id !== null && id === this.lastMessageId) {
      if (usage) last.usage = usage;
      return last;
    }
    const step: TimelineStep = { kind: "assistant", line, text: [], tools: [], usage };
    turn.steps.push(step);
    this.lastMessageId = id;
    return step;
  }

  push(raw: string, line: number): void {
    this.lines = line;
    if (raw.trim() === "") return;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      this.malformed += 1;
      this.errors += 1;
      this.current().steps.push({
        kind: "notice",
        line,
        text: `line ${line} is not JSON: ${capText(raw, 300)}`,
        error: true,
      });
      return;
    }
    if (!isRecord(json)) return;
    const type = strOf(json.type);
    if (type === "assistant") this.assistant(json, line);
    else if (type === "user") this.user(json, line);
    else if (type === "result") {
      const r = resultOf(json, line, this.max);
      if (r.is_error) this.errors += 1;
      this.current().result = r;
    } else if (type === "system") {
      const sub = strOf(json.subtype);
      if (sub === "api_retry") {
        this.errors += 1;
        const status = numOf(json.error_status);
        const err = strOf(json.error) ?? "";
        this.current().steps.push({
          kind: "notice",
          line,
          text: `API retry (status ${status ?? "?"}) ${err}`.trim(),
          error: true,
        });
      }
    }
  }

  private assistant(ev: JsonRecord, line: number): void {
    const msg = recOf(ev.message);
    if (!msg) return;
    const content = arrOf(msg.content) ?? [];
    const turn = this.current();
    const step = this.assistantStep(turn, line, strOf(msg.id), usageOf(msg.usage));
    if (step.kind !== "assistant") return;
    for (const b of content) {
      const block = recOf(b);
      if (!block) continue;
      const bt = strOf(block.type);
      if (bt === "text") {
        const text = strOf(block.text);
        if (text !== null && text.trim() !== "") step.text.push(capText(text, this.max));
      } else if (bt === "tool_use") {
        const tool = makeTool(block, this.max);
        step.tools.push(tool);
        this.toolCount += 1;
        if (tool.id !== null) this.tools.set(tool.id, tool);
      }
    }
  }

  private user(ev: JsonRecord, line: number): void {
    const msg = recOf(ev.message);
    if (!msg) return;
    const turn = this.current();
    const content = msg.content;
    if (typeof content === "string") {
      if (content.trim() !== "")
        turn.steps.push({
          kind: "user",
          line,
          text: capText(content, this.max),
          synthetic: ev.isSynthetic === true,
        });
      return;
    }
    for (const b of arrOf(content) ?? []) {
      const block = recOf(b);
      if (!block) continue;
      const bt = strOf(block.type);
      if (bt === "tool_result") {
        const id = strOf(block.tool_use_id);
        const tool = id === null ? undefined : this.tools.get(id);
        const text = toolResultText(block.content);
        const isError = block.is_error === true;
        if (isError) this.errors += 1;
        if (tool) {
          tool.output = text === null ? null : capText(text, this.max);
          tool.is_error = isError;
        } else {
          turn.steps.push({
            kind: "notice",
            line,
            text: `tool result without a call (${id ?? "no id"}): ${capText(text ?? "", 300)}`,
            error: isError,
          });
        }
      } else if (bt === "text") {
        const text = strOf(block.text);
        if (text !== null && text.trim() !== "")
          turn.steps.push({
            kind: "user",
            line,
            text: capText(text, this.max),
            synthetic: ev.isSynthetic === true,
          });
      }
    }
    this.lastMessageId = null;
  }
}

/** The timeline of a stream-json transcript. */
export function buildTimeline(stdout: string, opts: TimelineOptions = {}): Timeline {
  const max = opts.maxText ?? 20_000;
  const prompts = (opts.interactionTurns ?? []).map((t) => turnPrompt(t));
  const b = new Builder(max, prompts);
  const lines = stdout.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  lines.forEach((l, i) => b.push(l, i + 1));
  // Turns recorded by the interaction but absent from the transcript still show their prompt.
  for (let i = b.turns.length; i < prompts.length; i += 1) {
    const p = prompts[i];
    if (p)
      b.turns.push({
        index: i + 1,
        prompt: capText(p.text, max),
        prompt_source: p.source,
        steps: [],
        result: null,
      });
  }
  return {
    source: b.lines === 0 && b.turns.length === 0 ? "none" : "stdout",
    turns: b.turns,
    lines: b.lines,
    malformed_lines: b.malformed,
    tool_calls: b.toolCount,
    errors: b.errors,
  };
}

/**
 * The timeline from the common evidence (events.json) of any agent: tool calls grouped by turn,
 * with each turn's result and the final text. Coarser than Claude's stream (no per-step text or usage).
 */
export function timelineFromEvidence(ev: Evidence, opts: TimelineOptions = {}): Timeline {
  const max = opts.maxText ?? 20_000;
  const prompts = (opts.interactionTurns ?? []).map((t) => turnPrompt(t));
  const nTurns = Math.max(
    ev.results.length,
    prompts.length,
    ...ev.tool_calls.map((t) => t.turn),
    0,
  );
  const turns: TimelineTurn[] = [];
  let errors = 0;
  for (let i = 1; i <= nTurns; i += 1) {
    const tools: TimelineTool[] = ev.tool_calls
      .filter((t) => t.turn === i)
      .map((t) => {
        if (t.is_error === true) errors += 1;
        return {
          id: t.id,
          name: t.name,
          input: pretty(t.input, max),
          label: toolLabel(t.name, t.input),
          output: t.output === null ? null : capText(t.output, max),
          is_error: t.is_error === true,
          skill: t.name === "Skill" ? (strOf(t.input.skill) ?? strOf(t.input.name)) : null,
        };
      });
    const r = ev.results[i - 1];
    if (r?.is_error) errors += 1;
    const p = prompts[i - 1] ?? null;
    turns.push({
      index: i,
      prompt: p ? capText(p.text, max) : null,
      prompt_source: p?.source ?? null,
      steps: tools.length > 0 ? [{ kind: "assistant", line: 0, text: [], tools, usage: null }] : [],
      result: r
        ? {
            line: r.line,
            subtype: r.subtype,
            is_error: r.is_error,
            text:
              r.result !== null
                ? capText(r.result, max)
                : i === ev.results.length && ev.result_text !== null
                  ? capText(ev.result_text, max)
                  : null,
            num_turns: r.num_turns,
            duration_ms: r.duration_ms,
            cost_usd: i === ev.results.length ? ev.total_cost_usd : null,
            tokens: i === ev.results.length && ev.tokens ? ev.tokens : null,
            terminal_reason: r.terminal_reason,
          }
        : null,
    });
  }
  return {
    source: "evidence",
    turns,
    lines: ev.diagnostics.lines,
    malformed_lines: ev.diagnostics.malformed_lines.length,
    tool_calls: ev.tool_calls.length,
    errors,
  };
}
