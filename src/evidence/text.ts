import { isRecord } from "../core/json.js";
/** Text helpers for tool inputs and outputs. Pure. */

/** Longest tool output (and longest string inside a tool input) kept, in UTF-16 code units. */
export const MAX_TOOL_TEXT = 20_000;

/** Cut `s` to at most `max` characters, appending a marker that says how much was dropped. */
export function capText(s: string, max: number = MAX_TOOL_TEXT): string {
  if (s.length <= max) return s;
  let end = max;
  const code = s.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1; // do not split a surrogate pair
  // Copy the kept prefix: V8 keeps a slice's parent string alive, and the parent may be megabytes.
  // (A JSON round trip copies exactly, lone surrogates included.)
  const copy: unknown = JSON.parse(JSON.stringify(s.slice(0, end)));
  const kept = typeof copy === "string" ? copy : s.slice(0, end);
  return `${kept}\n[skillbench: truncated ${s.length - end} characters]`;
}

/**
 * The text of a `tool_result` content: a string as is; a list of blocks joined
 * with "\n" from their `text` fields (a non-text block becomes `[<type>]`, e.g.
 * `[image]`). Anything else is null.
 */
export function toolResultText(content: unknown): string | null {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return null;
  const parts: string[] = [];
  for (const block of content) {
    if (typeof block === "string") parts.push(block);
    else if (isRecord(block)) {
      if (typeof block.text === "string") parts.push(block.text);
      else if (typeof block.type === "string") parts.push(`[${block.type}]`);
    }
  }
  return parts.join("\n");
}

/** A copy of a JSON value whose long strings are capped (depth-limited; deeper values are dropped). */
export function capStrings(value: unknown, max: number = MAX_TOOL_TEXT, depth = 0): unknown {
  if (typeof value === "string") return capText(value, max);
  if (depth > 32) return null;
  if (Array.isArray(value)) return value.map((v) => capStrings(v, max, depth + 1));
  if (isRecord(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = capStrings(v, max, depth + 1);
    return out;
  }
  return value;
}
