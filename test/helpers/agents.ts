/**
 * Driving any agent driver against the scripted model server, and the agent-neutral view of
 * its evidence used by the golden tests (test/helpers/agents-suite.ts, test/unit/agents/).
 */
import { cp, mkdir, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { AgentDriver, TurnResult } from "../../src/agents/index.js";
import type { Evidence } from "../../src/core/evidence.js";
import { parseEvidenceFile } from "../../src/evidence/index.js";
import { findSkillPaths } from "../../src/evidence/paths.js";
import { runBaseUrl, type ModelServer } from "../../src/model/index.js";
import { RedactingLineWriter } from "../../src/util/redacting-writer.js";
import { REPO_ROOT } from "./cli.js";

export const SCENARIO_SCRIPT = path.join(REPO_ROOT, "test/fixtures/agents/scenario.yaml");
const HELLO_SKILL = path.join(REPO_ROOT, "test/fixtures/agents/skills/hello");
const SCENARIO_PROMPT = "Please greet me using the hello skill, then write notes.md.";

export interface AgentRun {
  turn: TurnResult;
  evidence: Evidence;
  workspace: string;
  stdoutFile: string;
  cleanup: () => Promise<void>;
}

/** One turn of `driver` in a fresh workspace with the hello Skill installed where it looks. */
export async function runAgentOnce(
  driver: AgentDriver,
  server: ModelServer,
  o: { task: string; timeoutMs?: number; prompt?: string },
): Promise<AgentRun> {
  const bin = driver.resolveBinary({});
  if ("error" in bin) throw new Error(bin.error);
  const root = await mkdtemp(path.join(os.tmpdir(), `skillbench-agent-${driver.name}-`));
  const dirs = {
    home: path.join(root, "home"),
    config: path.join(root, "config"),
    tmp: path.join(root, "tmp"),
  };
  const workspace = path.join(root, "workspace");
  for (const d of [...Object.values(dirs), workspace]) await mkdir(d, { recursive: true });
  await cp(HELLO_SKILL, path.join(workspace, driver.skillsDir, "hello"), { recursive: true });
  const prepared = await driver.prepare({
    hostEnv: process.env,
    dirs,
    endpoint: {
      baseUrl: runBaseUrl(server.url, {
        task: o.task,
        treatment: driver.name,
        rep: 1,
        role: "subject",
      }),
      apiKey: "sk-skillbench-test",
    },
    maxRetries: 0,
  });
  const stdoutFile = path.join(root, "stdout.jsonl");
  const stdout = new RedactingLineWriter(stdoutFile, (s) => s);
  const stderr = new RedactingLineWriter(path.join(root, "stderr.txt"), (s) => s);
  const turn = await driver.runTurn({
    bin: bin.path,
    workspace,
    prompt: o.prompt ?? SCENARIO_PROMPT,
    env: prepared.env,
    baseArgs: prepared.baseArgs,
    timeoutMs: o.timeoutMs ?? 240_000,
    stdout,
    stderr,
  });
  await stdout.close();
  await stderr.close();
  const opts = { workspace };
  const evidence = await parseEvidenceFile(stdoutFile, opts, driver.decoder(opts));
  return {
    turn,
    evidence,
    workspace,
    stdoutFile,
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}

/** Does this command only open a Skill's SKILL.md (how Codex invokes a Skill)? */
function opensSkill(command: string): boolean {
  return findSkillPaths(command).some((m) => m.path.endsWith("/SKILL.md"));
}

/**
 * What the scenario must show on every agent: Skills invoked, the commands the task asked for
 * (a Codex command that opens a SKILL.md is its Skill invocation, counted there), files
 * created and modified, whether each command failed (null: the agent does not report it), the
 * final answer.
 */
export function neutralEvidence(e: Evidence, agent: string) {
  const commandCalls = e.tool_calls.filter((c) => c.name === COMMAND_TOOL[agent]);
  return {
    skills_invoked: e.skills_invoked,
    commands_run: e.commands_run.filter((c) => !opensSkill(c)),
    command_failed: commandCalls
      .map((c) => ({ command: String(c.input.command ?? ""), failed: c.is_error }))
      .filter((c) => !opensSkill(c.command)),
    files_created: e.files_created,
    files_modified: e.files_modified,
    result_text: e.result_text,
    is_error: e.is_error,
  };
}

/** The command tool of each agent. */
const COMMAND_TOOL: Record<string, string> = {
  claude: "Bash",
  codex: "command_execution",
  gemini: "run_shell_command",
  opencode: "bash",
};

/** The scenario as every agent must report it (Gemini CLI does not report a command's exit code). */
export function expectedNeutral(agent: string) {
  const failed = agent === "gemini" ? null : true;
  const ok = agent === "gemini" ? null : false;
  return {
    skills_invoked: ["hello"],
    commands_run: ["echo hello-from-skill > hello.txt && cat hello.txt", "cat does-not-exist.txt"],
    command_failed: [
      { command: "echo hello-from-skill > hello.txt && cat hello.txt", failed: ok },
      { command: "cat does-not-exist.txt", failed },
    ],
    files_created: ["notes.md"],
    files_modified: [],
    result_text: "greeted",
    is_error: false,
  };
}
