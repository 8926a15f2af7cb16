/**
 * The agent-neutral half of a trigger probe (docs/triggers.md): one turn of a driver whose
 * stdout is shown, line by line as it arrives, to that driver's own decision watcher, stopped
 * as soon as the watcher has seen a Skill chosen, or once the agent has spent its tool-call
 * budget without choosing one. Each driver's watcher (its `trigger.ts`) knows its stream; this
 * file knows none.
 */
import { LineSplitter } from "../util/lines.js";
import { RedactingLineWriter } from "../util/redacting-writer.js";
import { runDriverTurn } from "./run-turn.js";
import type {
  AgentDriver,
  SkillDecision,
  TriggerProbeInput,
  TriggerProbeResult,
  WatchedProbe,
} from "./types.js";

/** Reads one agent's stream line by line (pure) and keeps what it saw. */
export interface DecisionWatcher {
  push(line: string): void;
  readonly state: WatchedProbe;
  /** Tool calls seen so far (each counted once), for the budget of an agent without a turn flag. */
  readonly toolCalls: number;
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

/**
 * One watched probe turn; never throws. `extraArgs` carry a CLI's own turn limit (Claude Code's
 * `--max-turns`); `toolCallBudget` is skillbench's for a CLI without one: the process is stopped
 * when a tool call beyond it starts with no Skill chosen (`budgetSpent`).
 */
export async function runWatchedProbe(
  driver: AgentDriver,
  i: TriggerProbeInput,
  watcher: DecisionWatcher,
  opts: { extraArgs?: string[]; toolCallBudget?: number },
): Promise<TriggerProbeResult> {
  const stop = new AbortController();
  let stoppedEarly = false;
  let budgetSpent = false;
  const onOuter = (): void => stop.abort();
  if (i.signal.aborted) stop.abort();
  i.signal.addEventListener("abort", onOuter, { once: true });
  const stdout = new ObservedLineWriter(i.stdoutFile, i.redact, (line) => {
    watcher.push(line);
    if (stop.signal.aborted) return;
    if (watcher.state.decision) {
      stoppedEarly = true;
      stop.abort();
    } else if (opts.toolCallBudget !== undefined && watcher.toolCalls > opts.toolCallBudget) {
      budgetSpent = true;
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
      baseArgs: i.baseArgs,
      model: i.model,
      extraArgs: opts.extraArgs,
      timeoutMs: i.timeoutMs,
      signal: stop.signal,
      stdout,
      stderr,
      launcher: i.launcher,
    });
    const outer = i.signal.aborted;
    return {
      turn,
      watched: watcher.state,
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- set while awaiting
      stoppedEarly: stoppedEarly && !outer,
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- set while awaiting
      budgetSpent: budgetSpent && !outer,
    };
  } finally {
    i.signal.removeEventListener("abort", onOuter);
    await stdout.close();
    await stderr.close();
  }
}

/** A JSON object line, else null. */
export function jsonLine(line: string): Record<string, unknown> | null {
  if (line.trim() === "") return null;
  try {
    return recordOf(JSON.parse(line));
  } catch {
    return null;
  }
}

export function recordOf(v: unknown): Record<string, unknown> | null {
  return v !== null && typeof v === "object" && !Array.isArray(v)
    ? (v as Record<string, unknown>)
    : null;
}

/**
 * The Skill whose folder a text names: `.<folder>/skills/<name>` for one of the agent's own
 * Skill folders (`agents` for `.agents/skills/`), relative or inside an absolute path. Pure.
 */
export function skillInText(text: string, folders: readonly string[]): SkillDecision | null {
  const alt = folders.map((f) => f.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|");
  const re = new RegExp(
    `(?:^|[\\s"'=/])\\.(?:${alt})\\/skills\\/([A-Za-z0-9][A-Za-z0-9._-]*)(?=$|[/\\s"'\`;|&<>)])`,
  );
  const m = re.exec(text);
  return m?.[1] ? { skill: m[1], via: "skill_files" } : null;
}

/**
 * One probe turn of a CLI without a turn-limit flag (Codex, Gemini CLI, opencode): the probe's
 * budget of `maxTurns` is counted in the watcher's tool calls. Never throws.
 */
export function runToolBudgetProbe(
  driver: AgentDriver,
  i: TriggerProbeInput,
  watcher: DecisionWatcher,
): Promise<TriggerProbeResult> {
  return runWatchedProbe(driver, i, watcher, { toolCallBudget: i.maxTurns });
}

/** How a CLI whose Skill tool takes the Skill's `name` shows a Skill chosen by one tool call. */
export interface NamedSkillTool {
  /** The tool that activates a Skill by its `name` input. */
  skillTool: string;
  /** The inputs of the CLI's other tools that hold a path or a command, in the order tried. */
  pathKeys: readonly string[];
  /** The agent's own Skill folders (`skillInText`). */
  folders: readonly string[];
}

/**
 * The Skill one tool call chooses: the Skill tool's trimmed `name`, else the first path input
 * that names a file under a Skill folder. Pure.
 */
export function skillOfNamedCall(
  tool: string,
  input: Record<string, unknown>,
  rule: NamedSkillTool,
): SkillDecision | null {
  if (tool === rule.skillTool) {
    const s = input.name;
    return typeof s === "string" && s.trim() ? { skill: s.trim(), via: "skill_tool" } : null;
  }
  for (const key of rule.pathKeys) {
    const v = input[key];
    if (typeof v !== "string") continue;
    const d = skillInText(v, rule.folders);
    if (d) return d;
  }
  return null;
}

/**
 * A watcher for a stream that shows one tool call in several events (started, completed): it
 * counts each call once by its id, only while no Skill is chosen.
 */
export abstract class DistinctCallWatcher implements DecisionWatcher {
  readonly state: WatchedProbe = { decision: null, resultSubtype: null };
  private readonly calls = new Set<string>();

  constructor(protected readonly folders: readonly string[]) {}

  get toolCalls(): number {
    return this.calls.size;
  }

  protected countCall(id: string): void {
    this.calls.add(id);
  }

  abstract push(line: string): void;
}
