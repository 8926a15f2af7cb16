/**
 * Claude Code (`@anthropic-ai/claude-code`): `claude -p … --output-format stream-json --verbose`
 * against the Anthropic Messages API. State: CLAUDE_CONFIG_DIR and CLAUDE_CODE_TMPDIR per run.
 * Skills: `.claude/skills/<name>/SKILL.md`, invoked through its `Skill` tool. Memory: CLAUDE.md.
 */
import { versionOf } from "../version.js";
import { runDriverTurn } from "../run-turn.js";
import type { AgentDriver, AgentEnvRequest, PreparedAgent, TurnRequest } from "../types.js";
import { resolveClaudeBinary } from "./binary.js";
import { CLAUDE_TOOLS, EvidenceBuilder } from "./decoder.js";
import { buildAgentEnv } from "./env.js";
import { installHooks } from "./hooks.js";
import { claudeTools } from "./tools.js";
import { runClaudeProbe } from "./trigger.js";

/** Tools the simulated user may not use (the `permissions.deny` setting holds even with skipped permissions). */
const CLAUDE_TALK_ONLY_DENIED = [
  "Bash",
  "Edit",
  "Write",
  "Read",
  "Glob",
  "Grep",
  "NotebookEdit",
  "Skill",
  "Agent",
  "WebFetch",
  "WebSearch",
];

/** The arguments of one `claude -p` turn (first or resumed). */
function claudeArgs(
  r: Pick<TurnRequest, "prompt" | "resume" | "model" | "appendSystemPrompt" | "extraArgs">,
): string[] {
  const args = [
    "-p",
    r.prompt,
    "--output-format",
    "stream-json",
    "--verbose",
    "--dangerously-skip-permissions",
  ];
  if (r.model) args.push("--model", r.model);
  if (r.resume) args.push("--resume", r.resume);
  if (r.appendSystemPrompt) args.push("--append-system-prompt", r.appendSystemPrompt);
  args.push(...(r.extraArgs ?? []));
  return args;
}

function prepare(r: AgentEnvRequest): Promise<PreparedAgent> {
  const env = buildAgentEnv({
    hostEnv: r.hostEnv,
    home: r.dirs.home,
    configDir: r.dirs.config,
    tmpDir: r.dirs.tmp,
    baseUrl: r.endpoint.baseUrl,
    apiKey: r.endpoint.apiKey,
    authToken: r.endpoint.authToken,
    model: r.model,
    declared: {
      ...(r.maxRetries !== undefined ? { CLAUDE_CODE_MAX_RETRIES: String(r.maxRetries) } : {}),
      ...(r.declared ?? {}),
    },
    passEnv: r.passEnv,
  });
  const baseArgs =
    r.tools === "none"
      ? ["--tools", "", "--no-session-persistence"]
      : r.tools === "talk-only"
        ? [
            "--no-session-persistence",
            "--settings",
            JSON.stringify({ permissions: { deny: CLAUDE_TALK_ONLY_DENIED } }),
          ]
        : [];
  return Promise.resolve({ env, baseArgs });
}

export const claudeDriver: AgentDriver = {
  name: "claude",
  // Runs before there were drivers named it by its report name.
  aliases: ["claude-code"],
  reportName: "claude-code",
  displayName: "Claude Code",
  packageName: "@anthropic-ai/claude-code",
  api: "anthropic",
  skillsDir: ".claude/skills",
  skillFolders: ["claude"],
  memoryFile: "CLAUDE.md",
  installHooks: (workspace, hooks) => installHooks(workspace, ".claude/settings.json", hooks),
  telemetryProvider: "anthropic",
  spanEnv: { CLAUDE_CODE_ENABLE_TELEMETRY: "1", CLAUDE_CODE_ENHANCED_TELEMETRY_BETA: "1" },
  // `--max-budget-usd` ends with a result of this subtype (terminal_reason budget_exhausted).
  ownBudgetStop: "error_max_budget_usd",
  scriptedTools: claudeTools,
  toolVocabulary: CLAUDE_TOOLS,
  // A small coding task of about ten turns: the system prompt and tools (~20k tokens) are
  // written to the prompt cache once and read back each turn; little fresh input.
  typicalRun: {
    input: 5_000,
    output: 3_000,
    cache_read: 200_000,
    cache_write: 25_000,
    seconds: 90,
  },
  retryKnobs: ["CLAUDE_CODE_MAX_RETRIES", "API_TIMEOUT_MS"],
  resolveBinary: resolveClaudeBinary,
  version: (bin, env, cwd) => versionOf(bin, ["--version"], env, cwd),
  prepare,
  command: (r) => ({ args: claudeArgs(r) }),
  decoder: (opts) => new EvidenceBuilder(opts),
  cwdInStream: true,
  runTurn: (r) => runDriverTurn(claudeDriver, r),
  // (the probe runs this driver's turn; handed in, so trigger.ts needs no import of this file)
  probeTrigger: (i) => runClaudeProbe(claudeDriver, i),
};
