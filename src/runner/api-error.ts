import type { Evidence } from "../core/evidence.js";
import type { ModelApiRecord } from "../core/report.js";

/** The model API failure a run ended with (its HTTP status when known), else null. */
export function runApiError(
  e: Evidence | null,
  served: ModelApiRecord | null,
): { status: number | null; message: string } | null {
  return withServerStatus(apiErrorOf(e), served);
}

/** Claude Code prints a result event even when the model API failed: its status decides noise or failure. */
function apiErrorOf(e: Evidence | null): { status: number | null; message: string } | null {
  const last = e?.results[e.results.length - 1];
  // terminal_reason "api_error", or any error result carrying the API's HTTP status (Claude Code
  // reports a 400 "prompt is too long" as terminal_reason "prompt_too_long", status 400).
  if (!last) return null;
  const apiFailed =
    last.terminal_reason === "api_error" || (last.is_error && last.api_error_status !== null);
  if (!apiFailed) return null;
  return { status: last.api_error_status, message: last.result ?? "" };
}

/**
 * An API failure whose status the agent's stream does not carry (Codex words a 5xx without it)
 * takes it from the scripted model server's own record of what it answered, when that record
 * holds exactly one HTTP status: the same failure then gets the same record on every agent.
 */
function withServerStatus(
  api: { status: number | null; message: string } | null,
  served: ModelApiRecord | null,
): { status: number | null; message: string } | null {
  if (api === null || api.status !== null || served === null) return api;
  const statuses = Object.keys(served.errors).filter((k) => /^\d{3}$/.test(k));
  const only = statuses.length === 1 ? statuses[0] : undefined;
  return only === undefined ? api : { ...api, status: Number(only) };
}
