/**
 * Noise by cause, end to end (docs/statistics.md §8): the built CLI, the real claude binary and
 * the scripted model. A tool call that hangs past timeout_sec while the model answered every
 * request is a failure of the run (kept); a model that never answers is noise (excluded); an
 * HTTP 400 is a failure of the run (kept). 3 claude spawns, 2 at a time.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunReport } from "../../src/core/report.js";
import { makeSandbox, readRunReport, runArgs, runCli, type Sandbox } from "../helpers/cli.js";

let sandbox: Sandbox;
const reports = new Map<string, RunReport>();
const get = (task: string): RunReport => {
  const r = reports.get(task);
  if (!r) throw new Error(`no report for ${task}`);
  return r;
};

beforeAll(async () => {
  sandbox = await makeSandbox("e2e-noise");
  const out = sandbox.dir("out");
  const cli = await runCli(runArgs("e2e-noise", out), { env: sandbox.env() });
  if (cli.code !== 1) throw new Error(`exit ${cli.code}: ${cli.stderr}`);
  for (const t of ["tool-hangs", "model-hangs", "bad-request"])
    reports.set(t, await readRunReport(out, `${t}-CONTROL-r1`));
}, 180_000);

afterAll(async () => {
  await sandbox?.remove();
});

describe("noise by cause", () => {
  it("a tool that hangs past timeout_sec while the model answered: a failure, kept, attributed to the model", () => {
    const r = get("tool-hangs");
    expect(r.outcome).toBe("timeout");
    expect(r.passed).toBe(false);
    expect(r.model_api).toMatchObject({ requests: 1, answered: 1, unanswered: 0 });
    expect(r.failures).toEqual([
      expect.objectContaining({ source: "agent", code: "agent_timeout", phase: "agent" }),
    ]);
    expect(r.sample_quality).toMatchObject({
      reason_code: "agent_timeout",
      include_in_analysis: true,
      confidence: "high",
    });
    expect(r.failure_attribution.map((a) => a.bucket)).toEqual(["model"]);
  });

  it("a model that never answers: excluded as api_unresponsive, attributed to the harness", () => {
    const r = get("model-hangs");
    expect(r.outcome).toBe("timeout");
    expect(r.model_api).toMatchObject({ requests: 1, answered: 0, unanswered: 1 });
    expect(r.sample_quality).toMatchObject({
      status: "excluded",
      reason_code: "api_unresponsive",
      include_in_analysis: false,
    });
    expect(r.failure_attribution.map((a) => a.bucket)).toEqual(["harness"]);
  });

  it("an HTTP 400: a failure of the run, kept, with its status on the typed record", () => {
    const r = get("bad-request");
    expect(r.outcome).toBe("agent_error");
    expect(r.model_api?.errors).toEqual({ "400": 1 });
    expect(r.failures).toEqual([
      expect.objectContaining({ source: "agent", code: "api_invalid_request", status: 400 }),
    ]);
    expect(r.sample_quality).toMatchObject({
      reason_code: "agent_invalid_request",
      include_in_analysis: true,
    });
    expect(r.failure_attribution.map((a) => a.bucket)).toEqual(["model"]);
    // The CLI reported total_cost_usd 0 and made no answered call.
    expect(r.events_summary?.total_cost_usd).toBe(0);
    expect(r.events_summary?.peak_context_tokens).toBeNull();
  });
});
