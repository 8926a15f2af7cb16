import type { Evidence } from "../core/evidence.js";
import type { EventsSummary } from "../core/report.js";

const SCRIPT_RE = /(?:^|[\s/])([\w.-]+\.(?:py|sh|js|mjs|cjs|ts))\b/g;

/** The report's view of the evidence (`events_summary`, docs/report-schema.md). Pure. */
export function summarizeEvents(e: Evidence, profile: string): EventsSummary {
  const scripts = new Set<string>();
  for (const c of e.commands_run)
    for (const m of c.matchAll(SCRIPT_RE)) if (m[1]) scripts.add(m[1]);
  return {
    duration_seconds: e.duration_ms === null ? null : e.duration_ms / 1000,
    duration_api_seconds: e.duration_api_ms === null ? null : e.duration_api_ms / 1000,
    num_turns: e.num_turns,
    tool_calls: e.tool_calls.length,
    subagent_tool_calls: e.subagent_tool_calls,
    input_tokens: e.tokens?.input ?? null,
    output_tokens: e.tokens?.output ?? null,
    cache_read_input_tokens: e.tokens?.cache_read ?? null,
    cache_creation_input_tokens: e.tokens?.cache_creation ?? null,
    total_tokens: e.tokens?.total ?? null,
    total_cost_usd: e.total_cost_usd,
    model_usage: e.model_usage,
    files_created: e.files_created,
    files_modified: e.files_modified,
    commands_run: e.commands_run.length,
    skills_invoked: e.skills_invoked,
    skill_files_touched: [...new Set(e.skill_files_touched.map((t) => t.skill))],
    scripts_used: [...scripts],
    session_ids: e.session_ids,
    api_retries: e.api_retries.length,
    peak_context_tokens: e.peak_context_tokens,
    profile,
    final_response: e.result_text,
  };
}
