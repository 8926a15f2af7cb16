/**
 * Claude Code's trigger detection (the driver's `probeTrigger`): reading its stream-json as it
 * arrives to see which Skill it chose (pure: `SkillDecisionWatcher`), and running one probe turn
 * that stops as soon as the decision is known (`runClaudeProbe`, through the agent-neutral
 * `runWatchedProbe`). Each agent has its own in its folder; nothing in src/triggers knows the
 * stream format.
 */
import type {
  AgentDriver,
  SkillDecision,
  TriggerProbeInput,
  TriggerProbeResult,
  WatchedProbe,
} from "../types.js";
import { jsonLine, recordOf as rec, runWatchedProbe, type DecisionWatcher } from "../probe-turn.js";

export type { SkillDecision, WatchedProbe };

const SKILL_PATH = /(?:^|[\s"'=/])\.claude\/skills\/([A-Za-z0-9][A-Za-z0-9._-]*)(?:\/|$|[\s"'])/;
const BASE_DIR = /^Base directory for this skill: (.+)$/m;

/** The Skill a tool call loads: the Skill tool, or reading a file under .claude/skills/<name>/. */
export function skillOfToolUse(name: string, input: Record<string, unknown>): SkillDecision | null {
  if (name === "Skill") {
    const s = typeof input.skill === "string" ? input.skill : input.command;
    if (typeof s === "string" && s.trim())
      return { skill: s.trim().replace(/^\//, ""), via: "skill_tool" };
    return null;
  }
  for (const key of ["file_path", "path", "notebook_path", "pattern", "command"]) {
    const v = input[key];
    if (typeof v !== "string") continue;
    const m = SKILL_PATH.exec(v.startsWith(".claude/") ? ` ${v}` : v);
    if (m?.[1]) return { skill: m[1], via: "skill_files" };
  }
  return null;
}

/**
 * Follows a Claude Code stream-json transcript line by line and records the first Skill the
 * agent chose: a `Skill` tool call, a tool call that reads a Skill's files, or a Skill the CLI
 * expanded itself from a slash command in the prompt. Pure.
 */
export class SkillDecisionWatcher implements DecisionWatcher {
  readonly state: WatchedProbe = { decision: null, resultSubtype: null };
  /** Not counted: `--max-turns` is Claude Code's own budget. */
  readonly toolCalls = 0;

  push(line: string): void {
    const ev = jsonLine(line);
    if (!ev) return;
    if (ev.type === "result") {
      this.state.resultSubtype = typeof ev.subtype === "string" ? ev.subtype : null;
      return;
    }
    if (this.state.decision) return;
    const msg = rec(ev.message);
    const content = msg && Array.isArray(msg.content) ? msg.content : [];
    for (const raw of content) {
      const b = rec(raw);
      if (!b) continue;
      if (ev.type === "assistant" && b.type === "tool_use" && typeof b.name === "string") {
        const d = skillOfToolUse(b.name, rec(b.input) ?? {});
        if (d) {
          this.state.decision = d;
          return;
        }
      }
      if (ev.type === "user" && b.type === "text" && typeof b.text === "string") {
        const m = BASE_DIR.exec(b.text);
        const dir = m?.[1]?.trim().replace(/\/+$/, "");
        if (dir) {
          const skill = dir.split("/").pop();
          if (skill) {
            this.state.decision = { skill, via: "slash_command" };
            return;
          }
        }
      }
    }
  }
}

/** One `claude -p QUERY` turn, stopped as soon as a Skill is chosen. Never throws. */
export function runClaudeProbe(
  driver: AgentDriver,
  i: TriggerProbeInput,
): Promise<TriggerProbeResult> {
  // Claude Code has its own turn limit: the budget is its `--max-turns`.
  return runWatchedProbe(driver, i, new SkillDecisionWatcher(), {
    extraArgs: ["--max-turns", String(i.maxTurns)],
  });
}
