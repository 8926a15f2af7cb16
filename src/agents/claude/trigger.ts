/**
 * Claude Code's trigger detection (the driver's `probeTrigger`): reading its stream-json as it
 * arrives to see which Skill it chose (pure: `SkillDecisionWatcher`), and running one probe turn
 * that stops as soon as the decision is known (`runClaudeProbe`). Another agent gets its own in
 * its folder; nothing in src/triggers knows the stream format.
 */
import { LineSplitter } from "../../util/lines.js";
import { RedactingLineWriter } from "../../util/redacting-writer.js";
import type {
  AgentDriver,
  SkillDecision,
  TriggerProbeInput,
  TriggerProbeResult,
  WatchedProbe,
} from "../types.js";
import { runDriverTurn } from "../run-turn.js";

export type { SkillDecision, WatchedProbe };

function rec(v: unknown): Record<string, unknown> | null {
  return v !== null && typeof v === "object" && !Array.isArray(v)
    ? (v as Record<string, unknown>)
    : null;
}

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
export class SkillDecisionWatcher {
  readonly state: WatchedProbe = { decision: null, resultSubtype: null };

  push(line: string): void {
    if (line.trim() === "") return;
    let ev: Record<string, unknown> | null;
    try {
      ev = rec(JSON.parse(line));
    } catch {
      return;
    }
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

/** A RedactingLineWriter that also shows every raw line to `observe`, as it arrives. */
class ObservedLineWriter extends RedactingLineWriter {
  private readonly tap = new LineSplitter();
  constructor(
    file: string,
    redact: (s: string) => string,
    private readonly observe: (line: string) => void,
  ) {
    super(file, redact);
  }
  override write(chunk: Uint8Array | string): void {
    super.write(chunk);
    this.tap.push(chunk, (line) => this.observe(line));
  }
  override endTurn(): string {
    const rest = super.endTurn();
    const tail = this.tap.flush();
    if (tail) this.observe(tail);
    return rest;
  }
}

/** One `claude -p QUERY` turn, stopped as soon as a Skill is chosen. Never throws. */
export async function runClaudeProbe(
  driver: AgentDriver,
  i: TriggerProbeInput,
): Promise<TriggerProbeResult> {
  const watcher = new SkillDecisionWatcher();
  const stop = new AbortController();
  let stoppedEarly = false;
  const onOuter = (): void => stop.abort();
  if (i.signal.aborted) stop.abort();
  i.signal.addEventListener("abort", onOuter, { once: true });
  const stdout = new ObservedLineWriter(i.stdoutFile, i.redact, (line) => {
    watcher.push(line);
    if (watcher.state.decision && !stop.signal.aborted) {
      stoppedEarly = true;
      stop.abort();
    }
  });
  const stderr = new RedactingLineWriter(i.stderrFile, i.redact);
  try {
    const turn = await runDriverTurn(driver, {
      bin: i.bin,
      workspace: i.workspace,
      prompt: i.prompt,
      env: i.env,
      model: i.model,
      extraArgs: ["--max-turns", String(i.maxTurns)],
      timeoutMs: i.timeoutMs,
      signal: stop.signal,
      stdout,
      stderr,
      launcher: i.launcher,
    });
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- set while awaiting
    return { turn, watched: watcher.state, stoppedEarly: stoppedEarly && !i.signal.aborted };
  } finally {
    i.signal.removeEventListener("abort", onOuter);
    await stdout.close();
    await stderr.close();
  }
}
