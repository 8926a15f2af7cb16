/**
 * What the rules can look at in a Messages API request body. Pure: the body is
 * `unknown` (parsed JSON) and is narrowed field by field.
 */

export interface RequestFacts {
  model: string | null;
  stream: boolean;
  /** Number of assistant messages already in `messages` (the conversation position). */
  position: number;
  /** Number of assistant messages after the latest user turn (see `userText`). */
  turnPosition: number;
  /**
   * Text of the latest user turn: the last user message that has text and no
   * tool_result, without `<system-reminder>` blocks. Null if there is none.
   */
  userText: string | null;
  /** Content of the last tool_result block in the conversation, as text. */
  toolResult: string | null;
  toolResultIsError: boolean | null;
  /** Top-level `system` plus every `role: "system"` message, joined by newlines. */
  systemText: string;
  /** Names of the offered tools. */
  tools: string[];
  /** Skill names the agent lists to the model (Claude Code's listing, Codex's skills_instructions, Gemini CLI's activate_skill enum). */
  skills: string[];
  /** Skill name -> the SKILL.md path the listing names (Codex); empty when it names none. */
  skillFiles?: Record<string, string>;
  messageCount: number;
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function blocksOf(content: unknown): unknown[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  return Array.isArray(content) ? content : [];
}

function blockText(b: unknown): string | null {
  return isRecord(b) && b.type === "text" && typeof b.text === "string" ? b.text : null;
}

/** Text of a content value (string or blocks), text blocks joined with newlines. */
export function contentText(content: unknown): string {
  const parts: string[] = [];
  for (const b of blocksOf(content)) {
    const t = blockText(b);
    if (t !== null) parts.push(t);
  }
  return parts.join("\n");
}

const REMINDER = /^\s*<system-reminder>/;

function userTurnText(m: Record<string, unknown>): string | null {
  const blocks = blocksOf(m.content);
  if (blocks.some((b) => isRecord(b) && b.type === "tool_result")) return null;
  const texts: string[] = [];
  for (const b of blocks) {
    const t = blockText(b);
    if (t !== null && !REMINDER.test(t)) texts.push(t);
  }
  return texts.length > 0 ? texts.join("\n") : null;
}

const SKILL_HEADER = "The following skills are available for use with the Skill tool:";

/** Skill names in the CLI's skill listing (`- name: description` lines after the header). */
export function parseSkillListing(text: string): string[] {
  const out: string[] = [];
  let from = 0;
  for (;;) {
    const i = text.indexOf(SKILL_HEADER, from);
    if (i < 0) break;
    from = i + SKILL_HEADER.length;
    const rest = text.slice(from).replace(/^\s*\n/, "");
    const end = rest.search(/\n\s*\n/);
    const section = end < 0 ? rest : rest.slice(0, end);
    for (const line of section.split("\n")) {
      const m = /^- (\S+):(?:\s|$)/.exec(line);
      if (m?.[1] && !out.includes(m[1])) out.push(m[1]);
    }
  }
  return out;
}

export function requestFacts(body: unknown): RequestFacts {
  const b = isRecord(body) ? body : {};
  const messages = Array.isArray(b.messages) ? b.messages.filter(isRecord) : [];
  let position = 0;
  let turnPosition = 0;
  let userText: string | null = null;
  let toolResult: string | null = null;
  let toolResultIsError: boolean | null = null;
  const systemParts: string[] = [];
  const allText: string[] = [];
  if (typeof b.system === "string") systemParts.push(b.system);
  else systemParts.push(contentText(b.system));

  for (const m of messages) {
    if (m.role === "assistant") {
      position++;
      turnPosition++;
      continue;
    }
    if (m.role === "system") {
      systemParts.push(contentText(m.content));
      continue;
    }
    if (m.role !== "user") continue;
    const turn = userTurnText(m);
    if (turn !== null) {
      userText = turn;
      turnPosition = 0;
    }
    for (const blk of blocksOf(m.content)) {
      const t = blockText(blk);
      if (t !== null) allText.push(t);
      if (isRecord(blk) && blk.type === "tool_result") {
        toolResult = typeof blk.content === "string" ? blk.content : contentText(blk.content);
        toolResultIsError = typeof blk.is_error === "boolean" ? blk.is_error : false;
      }
    }
  }
  const systemText = systemParts.filter((s) => s.length > 0).join("\n");
  const tools: string[] = [];
  if (Array.isArray(b.tools)) {
    for (const t of b.tools) if (isRecord(t) && typeof t.name === "string") tools.push(t.name);
  }
  return {
    model: typeof b.model === "string" ? b.model : null,
    stream: b.stream === true,
    position,
    turnPosition,
    userText,
    toolResult,
    toolResultIsError,
    systemText,
    tools,
    skills: parseSkillListing([systemText, ...allText].join("\n\n")),
    messageCount: messages.length,
  };
}
