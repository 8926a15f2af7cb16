/**
 * Model faults end to end on every agent (docs/agents.md, "Outcomes, the same on every agent"):
 * the built CLI runs one task per fault (500, 429, cut stream, hang) on each real agent binary
 * against the scripted model (test/fixtures/suites/e2e-agent-faults; 16 runs, two at a time,
 * no CLI retries), and each fault gets the same typed failure record and sample-quality code
 * on every agent. test/e2e/agents-<name>.test.ts check the same faults one turn at a time.
 * The one difference is the agent's own: opencode retries a cut stream with a back-off that
 * outlasts the tasks' 35 s timeout, so its run times out; it is excluded as an unresponsive model
 * all the same.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunReport } from "../../src/core/report.js";
import { readReports } from "../../src/store/read.js";
import { assertBuilt, fixtureSuite, makeSandbox, runCli, type Sandbox } from "../helpers/cli.js";

const AGENTS = ["claude", "codex", "gemini", "opencode"] as const;

let box: Sandbox;
let reports: RunReport[];
beforeAll(async () => {
  assertBuilt();
  box = await makeSandbox("agent-faults");
  const suite = fixtureSuite("e2e-agent-faults");
  const out = box.dir("out");
  const r = await runCli(
    [
      "run",
      suite,
      "--model-script",
      `${suite}/model-script.yaml`,
      "--agent",
      AGENTS.join(","),
      "--agent-retries",
      "0",
      "--sandbox",
      "local",
      "--out",
      out,
      "--exit-zero",
    ],
    { env: box.env() },
  );
  expect(r.code, r.stderr).toBe(0);
  reports = (await readReports(out)).reports;
}, 900_000);
afterAll(async () => {
  await box?.remove();
});

/** What must be the same on every agent for each fault. */
const EXPECTED = {
  f500: {
    outcome: "agent_error",
    failure: { source: "agent", code: "api_error", status: 500 },
    sample: ["excluded", "api_error"],
    model_api: "500",
  },
  f429: {
    outcome: "agent_error",
    failure: { source: "agent", code: "api_error", status: 429 },
    sample: ["excluded", "rate_limited"],
    model_api: "429",
  },
  cut: {
    outcome: "agent_error",
    failure: { source: "agent", code: "api_error", status: null },
    sample: ["excluded", "network_failure"],
    model_api: "cut",
  },
  hang: {
    outcome: "timeout",
    failure: { source: "agent", code: "agent_timeout", status: null },
    sample: ["excluded", "api_unresponsive"],
    model_api: null,
  },
} as const;

/** opencode's retries of a cut stream outlast the timeout (docs/agents.md): its run times out instead. */
const OPENCODE_CUT = {
  outcome: "timeout",
  failure: { source: "agent", code: "agent_timeout", status: null },
  sample: ["excluded", "api_unresponsive"],
  model_api: "cut",
} as const;

describe.each(AGENTS)("%s", (agent) => {
  it.each(Object.keys(EXPECTED) as Array<keyof typeof EXPECTED>)(
    "classifies the fault %s like every other agent",
    (task) => {
      const want = agent === "opencode" && task === "cut" ? OPENCODE_CUT : EXPECTED[task];
      const r = reports.find((x) => x.task === task && x.run_id.includes(`@${agent}-`));
      expect(r, `${task} on ${agent}`).toBeDefined();
      if (!r) return;
      expect(r.outcome).toBe(want.outcome);
      const f = r.failures[0];
      expect({ source: f?.source, code: f?.code, status: f?.status }).toEqual(want.failure);
      expect([r.sample_quality.status, r.sample_quality.reason_code]).toEqual(want.sample);
      // Each agent's retries differ (opencode's cannot be turned off): the kind, not the count.
      if (want.model_api) expect(Object.keys(r.model_api?.errors ?? {})).toEqual([want.model_api]);
      if (task === "hang") expect(r.model_api?.unanswered).toBeGreaterThan(0);
    },
  );
});
