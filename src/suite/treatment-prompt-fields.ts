/**
 * The treatment fields that change what the agent is told or runs besides its Skills:
 * `native` / `native_clarification_mode` (the Native prompt prefix) and `hooks` (Claude Code
 * hooks). See docs/manifest.md, "Treatments". Pure.
 */
import { isRecord } from "../core/json.js";
import { nativeTreatment } from "../scoring/registry.js";
import type { Table } from "./fields.js";
import { AgentHooksSchema, type AgentHooks } from "../core/hooks.js";
import { NATIVE_CLARIFICATION_MODES, type NativeTreatment } from "./types.js";

/**
 * `native: true|false` and `native_clarification_mode`, defaulting to the names the profile that
 * defines the Native treatment lists (`RubricProfile.native`).
 */
export function readNative(t: Table, name: string): NativeTreatment | undefined {
  const flag = t.boolean("native");
  const mode = t.enumOf("native_clarification_mode", NATIVE_CLARIFICATION_MODES);
  const names = nativeTreatment()?.treatments;
  // Own names only: `constructor` or `toString` is no built-in Native treatment.
  const builtIn = names && Object.hasOwn(names, name) ? names[name] : undefined;
  if (flag === false) {
    if (mode !== undefined)
      t.error(
        t.field("native_clarification_mode"),
        "is only for Native treatments (this one says native: false)",
      );
    return undefined;
  }
  if (flag === undefined && builtIn === undefined) {
    if (mode !== undefined)
      t.error(
        t.field("native_clarification_mode"),
        "is only for Native treatments: add native: true",
      );
    return undefined;
  }
  return { clarification_mode: mode ?? builtIn?.clarification_mode ?? null };
}

const EVENT_NAME = /^[A-Z][A-Za-z]*$/;

/** `hooks:` in Claude Code's own settings shape: `{ <Event>: [{ matcher?, hooks: [{ type: command, command, timeout? }] }] }`. */
export function readHooks(t: Table): AgentHooks | undefined {
  const raw = t.raw("hooks");
  if (raw === undefined) return undefined;
  const field = t.field("hooks");
  if (!isRecord(raw)) {
    t.expected(field, "a mapping of hook events (PreToolUse, PostToolUse, Stop ...)", raw);
    return undefined;
  }
  for (const event of Object.keys(raw)) {
    if (!EVENT_NAME.test(event)) {
      t.error(t.field("hooks", event), `${JSON.stringify(event)} is not a hook event name`);
      return undefined;
    }
  }
  const parsed = AgentHooksSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const at = issue
      ? t.field("hooks", ...issue.path.map((p) => (typeof p === "symbol" ? String(p) : p)))
      : field;
    t.error(
      at,
      `${issue?.message ?? "invalid"}; expected { <Event>: [{ matcher: "...", hooks: [{ type: command, command: "..." }] }] }`,
    );
    return undefined;
  }
  return parsed.data;
}
