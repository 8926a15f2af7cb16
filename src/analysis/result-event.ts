/**
 * Finding the agent's final `result` event in raw stream-json stdout. Pure.
 *
 * Every line is parsed defensively: blank lines, non-JSON lines, a truncated last
 * line and JSON that is not an object (a bare number, string, array or null) are
 * skipped, never a crash (a weak point of the original, facts §14).
 */
import { z } from "zod";

const ResultLineSchema = z.object({
  type: z.literal("result"),
  // A field of the wrong type is treated as absent: the line is still a result event.
  is_error: z.boolean().optional().catch(undefined),
  subtype: z.string().optional().catch(undefined),
  terminal_reason: z.string().nullable().optional().catch(undefined),
  api_error_status: z.number().nullable().optional().catch(undefined),
  result: z.unknown().optional(),
});

export interface ResultEventInfo {
  /** 1-based line number in stdout. */
  line: number;
  is_error: boolean;
  subtype: string | null;
  terminal_reason: string | null;
  api_error_status: number | null;
  /** The `result` text when it is a string. */
  result: string | null;
}

function parseLine(line: string): unknown {
  const trimmed = line.trim();
  if (!trimmed.startsWith("{")) return undefined;
  try {
    const value: unknown = JSON.parse(trimmed);
    return value;
  } catch {
    return undefined;
  }
}

function toInfo(value: unknown, line: number): ResultEventInfo | null {
  const parsed = ResultLineSchema.safeParse(value);
  if (!parsed.success) return null;
  const d = parsed.data;
  return {
    line,
    is_error: d.is_error ?? false,
    subtype: d.subtype ?? null,
    terminal_reason: d.terminal_reason ?? null,
    api_error_status: d.api_error_status ?? null,
    result: typeof d.result === "string" ? d.result : null,
  };
}

/** All `result` events in stdout (a multi-turn run has one per turn), in order. */
export function findResultEvents(stdout: string): ResultEventInfo[] {
  const out: ResultEventInfo[] = [];
  const lines = stdout.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const info = toInfo(parseLine(lines[i] ?? ""), i + 1);
    if (info) out.push(info);
  }
  return out;
}

/** The last `result` event in stdout, or null. */
export function lastResultEvent(stdout: string): ResultEventInfo | null {
  const all = findResultEvents(stdout);
  return all[all.length - 1] ?? null;
}

/** True when some stdout line parses as a JSON object whose `type` is "result". */
export function hasResultEvent(stdout: string): boolean {
  for (const line of stdout.split("\n")) {
    const value = parseLine(line);
    // toInfo validates with z.object, which rejects arrays, null and primitives.
    if (toInfo(value, 0) !== null) return true;
  }
  return false;
}

/**
 * When the run's last result event reports a model-API failure (Claude Code prints a
 * result with `terminal_reason: "api_error"` and exit code 1 after exhausting its
 * retries), its status and message; otherwise null. Feed this to `classifySample` as
 * `api_error`.
 */
export function apiErrorOf(
  result: ResultEventInfo | null,
): { status: number | null; message: string } | null {
  if (!result || result.terminal_reason !== "api_error") return null;
  return { status: result.api_error_status, message: result.result ?? "" };
}
