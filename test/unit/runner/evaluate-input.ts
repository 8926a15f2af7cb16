/** An `evaluateRun` input of a finished run that passed its one check; `over` replaces fields. */
import type { EvaluateInput } from "../../../src/runner/evaluate.js";

export function evaluateInput(over: Partial<EvaluateInput>): EvaluateInput {
  return {
    spec: { run_id: "t-A-r1", task: "t", treatment: "A", rep: 1 },
    experimentId: "x",
    runUuid: "u",
    task: undefined,
    treatment: undefined,
    profileName: "generic",
    agent: { outcome: "completed", exit_code: 0, detail: "", interaction: null },
    evidence: null,
    validation: { artifacts: [], scripts: [], passed: ["ok"], failed: [] },
    rubric: null,
    judge: null,
    sandbox: null,
    harnessError: null,
    stdoutTail: "",
    stderrTail: "",
    model: null,
    agentInfo: { name: "claude-code", bin: "claude", version: null },
    suiteHash: "h",
    timing: { started_at: "s", finished_at: "f", wall_ms: 1 },
    artifacts: {
      stdout: "stdout.jsonl",
      stderr: "stderr.txt",
      events: null,
      validation: null,
      workspace: null,
    },
    ...over,
  };
}
