import { z } from "zod";

/** One tool call of the agent, paired with its tool_result by tool_use_id. */
const ToolCallSchema = z.object({
  id: z.string().nullable(),
  name: z.string(),
  input: z.record(z.string(), z.unknown()),
  output: z.string().nullable(),
  is_error: z.boolean().nullable(),
  /** 1-based subject turn (one per `result` event; a multi-turn run has several). */
  turn: z.number().int(),
  /**
   * The Task/Agent tool call whose subagent made this call (`parent_tool_use_id`); null
   * for the main agent's own calls. Absent in evidence written before it was recorded.
   */
  parent_tool_use_id: z.string().nullable().default(null),
});
export type ToolCall = z.infer<typeof ToolCallSchema>;

const TokensSchema = z.object({
  input: z.number(),
  output: z.number(),
  cache_read: z.number(),
  cache_creation: z.number(),
  total: z.number(),
});
export type Tokens = z.infer<typeof TokensSchema>;

const ModelUsageSchema = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  cacheReadInputTokens: z.number(),
  cacheCreationInputTokens: z.number(),
  webSearchRequests: z.number(),
  costUSD: z.number(),
  contextWindow: z.number().nullable(),
  maxOutputTokens: z.number().nullable(),
});
export type ModelUsage = z.infer<typeof ModelUsageSchema>;

/** One `result` event, kept per turn so that multi-turn runs stay inspectable. */
const ResultEventSchema = z.object({
  line: z.number().int(),
  subtype: z.string().nullable(),
  is_error: z.boolean(),
  result: z.string().nullable(),
  num_turns: z.number().nullable(),
  duration_ms: z.number().nullable(),
  terminal_reason: z.string().nullable(),
  api_error_status: z.number().nullable(),
  session_id: z.string().nullable(),
});
export type ResultEvent = z.infer<typeof ResultEventSchema>;

const ApiRetrySchema = z.object({
  line: z.number().int(),
  attempt: z.number().nullable(),
  max_retries: z.number().nullable(),
  retry_delay_ms: z.number().nullable(),
  error_status: z.number().nullable(),
  error: z.string().nullable(),
});
export type ApiRetry = z.infer<typeof ApiRetrySchema>;

const SkillFileTouchSchema = z.object({
  skill: z.string(),
  path: z.string(),
  via: z.string(),
});

const ParseDiagnosticsSchema = z.object({
  lines: z.number().int(),
  /** 1-based line numbers of lines that are not JSON. */
  malformed_lines: z.array(z.number().int()),
  /** 1-based line numbers of JSON lines that are not objects. */
  non_object_lines: z.array(z.number().int()),
  /** event type -> count, for types the parser does not know. */
  unknown_types: z.record(z.string(), z.number().int()),
  /** The stream ended without a final newline and the last line did not parse. */
  truncated_last_line: z.boolean(),
});

/**
 * Everything skillbench knows about a run's agent behaviour, derived only from the
 * agent's stream-json output. Pure data: re-derivable from stdout.jsonl at any time.
 */
export const EvidenceSchema = z.object({
  schema: z.literal("skillbench.evidence.v1"),
  agent: z.object({
    /** The driver that produced the stream (docs/agents.md); evidence stored before drivers: claude. */
    name: z.string().default("claude"),
    /** The CLI's version as its stream reports it (null when the stream does not say). */
    version: z.string().nullable().default(null),
    claude_code_version: z.string().nullable(),
    model: z.string().nullable(),
    cwd: z.string().nullable(),
  }),
  /** Every tool call, the subagents' included (docs/evidence.md). */
  tool_calls: z.array(ToolCallSchema),
  /** How many of `tool_calls` subagents made (`parent_tool_use_id` set). */
  subagent_tool_calls: z.number().int().default(0),
  commands_run: z.array(z.string()),
  files_read: z.array(z.string()),
  files_created: z.array(z.string()),
  files_modified: z.array(z.string()),
  /** Skill tool calls only, unique, first-seen order. */
  skills_invoked: z.array(z.string()),
  /** Skill files read or listed (paths under .claude/skills/<name>/): not invocations. */
  skill_files_touched: z.array(SkillFileTouchSchema),
  session_ids: z.array(z.string()),
  /** Text of the last result event (falls back to the last assistant text). */
  result_text: z.string().nullable(),
  results: z.array(ResultEventSchema),
  /** True when the last result event had is_error: true (whatever its subtype). */
  is_error: z.boolean(),
  num_turns: z.number().nullable(),
  duration_ms: z.number().nullable(),
  duration_api_ms: z.number().nullable(),
  tokens: TokensSchema.nullable(),
  total_cost_usd: z.number().nullable(),
  model_usage: z.record(z.string(), ModelUsageSchema),
  peak_context_tokens: z.number().nullable(),
  api_retries: z.array(ApiRetrySchema),
  permission_denials: z.number().int(),
  /**
   * After the stream's last event the agent was waiting for the model: its session had begun or
   * a tool's result had gone back, and no model output followed (the stream rule of
   * `api_unresponsive`, docs/statistics.md §8). null: the stream shows neither; absent in
   * evidence stored before it was recorded.
   */
  awaiting_model: z.boolean().nullable().default(null),
  diagnostics: ParseDiagnosticsSchema,
});
export type Evidence = z.infer<typeof EvidenceSchema>;
