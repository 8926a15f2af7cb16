/**
 * One agent driver against the real CLI and the scripted model server: one agent-neutral
 * scenario gives the same normalised evidence on each, and model-API faults are classified
 * alike. Each agent has its own test file (test/e2e/agents-<name>.test.ts), so that vitest's
 * workers share the four CLIs' boots instead of one worker running them all in a row. The
 * streams recorded here are the golden fixtures of test/unit/agents/golden.test.ts
 * (SKILLBENCH_RECORD_GOLDEN=1 rewrites them).
 */
import { copyFile, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentDriver } from "../../src/agents/index.js";
import {
  loadModelScript,
  parseModelScriptText,
  startModelServer,
  type ModelServer,
} from "../../src/model/index.js";
import { expectedNeutral, neutralEvidence, runAgentOnce, SCENARIO_SCRIPT } from "./agents.js";
import { REPO_ROOT } from "./cli.js";

// retry-after-ms 0: opencode has no retry setting, but waits no longer than the server asks.
const FAULTS = `
version: 1
rules:
  - {when: {task: f500}, reply: {text: x, fault: {status: 500, headers: {retry-after-ms: "0"}}}}
  - {when: {task: f429}, reply: {text: x, fault: {status: 429, headers: {retry-after-ms: "0"}}}}
  - {when: {task: cut}, reply: {text: x, fault: {cut: true}}}
  - {when: {task: hang}, reply: {text: x, fault: {hang: true}}}
`;

/** The driver's tests, in the calling test file. */
export function describeAgentAgainstRealCli(name: string): void {
  let scenario: ModelServer;
  let faults: ModelServer;
  beforeAll(async () => {
    scenario = await startModelServer({ script: await loadModelScript(SCENARIO_SCRIPT) });
    faults = await startModelServer({ script: parseModelScriptText(FAULTS, "faults.yaml") });
  });
  afterAll(async () => {
    await scenario?.close();
    await faults?.close();
  });

  describe(`${name} driver against the real CLI`, () => {
    const driver = agentDriver(name)!;

    it("plays the agent-neutral scenario with the same normalised evidence", async () => {
      const run = await runAgentOnce(driver, scenario, { task: "scenario" });
      try {
        expect(run.turn.outcome).toBe("completed");
        expect(run.turn.result_text).toBe("greeted");
        expect(neutralEvidence(run.evidence, name)).toEqual(expectedNeutral(name));
        expect(run.evidence.agent.name).toBe(name);
        expect(run.evidence.session_ids).toHaveLength(1);
        // Tokens as the script declared them (5 replies of 100 in, 20 out) wherever the agent reports usage.
        expect(run.evidence.tokens?.output).toBe(100);
        if (process.env.SKILLBENCH_RECORD_GOLDEN === "1") {
          const dir = path.join(REPO_ROOT, "test/fixtures/agents/transcripts");
          await mkdir(dir, { recursive: true });
          await copyFile(run.stdoutFile, path.join(dir, `${name}.jsonl`));
          await writeFile(
            path.join(dir, `${name}.options.json`),
            `${JSON.stringify({ workspace: run.workspace }, null, 2)}\n`,
          );
        }
      } finally {
        await run.cleanup();
      }
    });

    it.each([
      ["f500", 500],
      ["f429", 429],
      ["cut", null],
    ] as const)("classifies the model fault %s as an API error", async (task, status) => {
      const run = await runAgentOnce(driver, faults, { task });
      try {
        expect(run.turn.outcome).toBe("agent_error");
        expect(run.turn.error_kind).toBe("api_error");
        const last = run.evidence.results[run.evidence.results.length - 1];
        expect(last?.terminal_reason).toBe("api_error");
        if (status !== null && last?.api_error_status !== null)
          expect(last?.api_error_status).toBe(status);
      } finally {
        await run.cleanup();
      }
    });

    it("kills an agent whose model never answers at the timeout", async () => {
      const run = await runAgentOnce(driver, faults, {
        task: "hang",
        // Long enough for the slowest CLI to boot and ask on a loaded 2-core machine (opencode
        // ~8 s); every second more is a second each CI run waits on a model that never answers.
        timeoutMs: 20_000,
      });
      try {
        expect(run.turn.outcome).toBe("timeout");
      } finally {
        await run.cleanup();
      }
    });
  });
}
