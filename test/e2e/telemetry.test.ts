/**
 * Telemetry end to end (docs/telemetry.md): the built CLI, the real claude binary and the scripted
 * model, exporting to a local OTLP receiver that decodes real OTLP (protobuf and JSON) and plays
 * Langfuse's and LangSmith's APIs.
 *
 * One multi-turn run of examples/workflow-suite (ask-then-build, WITH_SKILL) is exported live
 * over OTLP/protobuf and pins the span tree, its attributes, the evaluation events and the
 * agent's own spans nested under the run span; the same folder is then exported again with
 * `skillbench export` (JSON, Langfuse, LangSmith). A probe run prints a declared secret and checks
 * it never leaves; an unreachable endpoint never fails a run unless the export is required.
 */
import { readFile } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EvidenceSchema, type Evidence } from "../../src/core/evidence.js";
import type { RunReport } from "../../src/core/report.js";
import { experimentSpanId, runSpanId, traceIdFor } from "../../src/telemetry/ids.js";
import {
  REPO_ROOT,
  fixtureSuite,
  makeSandbox,
  readRunReport,
  runArgs,
  runCli,
  type CliResult,
  type Sandbox,
} from "../helpers/cli.js";
import { startReceiver, type ReceivedSpan, type Receiver } from "../helpers/otlp-receiver.js";

const SUITE = path.join(REPO_ROOT, "examples", "workflow-suite");
const RUN_ID = "ask-then-build-WITH_SKILL-r1";
const SECRET = "sk-probe-telemetry-5d1f0c9a7e";
const LANGFUSE = { pk: "pk-lf-test-1234", sk: "sk-lf-test-secret-5678" };
const LANGSMITH_KEY = "lsv2_test_key_abcdef123456";

let sandbox: Sandbox;
let receiver: Receiver;
let out: string;
let live: CliResult;
let report: RunReport;
let evidence: Evidence;

function ours(spans: ReceivedSpan[]): ReceivedSpan[] {
  return spans.filter((s) => s.scope === "skillbench");
}

function byName(spans: ReceivedSpan[], prefix: string): ReceivedSpan[] {
  return spans.filter((s) => s.name.startsWith(prefix));
}

beforeAll(async () => {
  sandbox = await makeSandbox("telemetry");
  receiver = await startReceiver({
    langfuseAuth: `Basic ${Buffer.from(`${LANGFUSE.pk}:${LANGFUSE.sk}`).toString("base64")}`,
    langsmithKey: LANGSMITH_KEY,
  });
  out = sandbox.dir("out");
  live = await runCli(
    [
      "run",
      SUITE,
      "--model-script",
      path.join(SUITE, "model-script.yaml"),
      "--task",
      "ask-then-build",
      "--treatment",
      "WITH_SKILL",
      "--count",
      "1",
      "--sandbox",
      "local",
      "--out",
      out,
      "--otel-endpoint",
      receiver.url,
    ],
    { env: sandbox.env() },
  );
  report = await readRunReport(out, RUN_ID);
  evidence = EvidenceSchema.parse(
    JSON.parse(await readFile(path.join(out, "runs", RUN_ID, "events.json"), "utf8")),
  );
}, 240_000);

afterAll(async () => {
  await receiver?.close();
  await sandbox?.remove();
});

describe("live export of a multi-turn run (OTLP/protobuf)", () => {
  it("runs as without telemetry and says what it sent", () => {
    expect(live.code, live.stderr).toBe(0);
    expect(live.stderr).toMatch(/telemetry: otlp: \d+ sent\n/);
    expect(receiver.problems).toEqual([]);
    expect(receiver.requests.some((r) => r.contentType.includes("protobuf"))).toBe(true);
  });

  it("one trace: the experiment span at the root, the run span under it", () => {
    const mine = ours(receiver.spans);
    const trace = traceIdFor(report.experiment_id);
    expect(new Set(receiver.spans.map((s) => s.traceId))).toEqual(new Set([trace]));
    const roots = mine.filter((s) => s.parentSpanId === "");
    expect(roots.map((s) => s.name)).toEqual(["invoke_workflow skillbench"]);
    expect(roots[0]?.spanId).toBe(experimentSpanId(report.experiment_id));
    const run = byName(mine, "invoke_agent ");
    expect(run).toHaveLength(1);
    expect(run[0]?.spanId).toBe(runSpanId(report.experiment_id, RUN_ID));
    expect(run[0]?.parentSpanId).toBe(roots[0]?.spanId);
  });

  it("the run span carries the GenAI agent attributes and the run's outcome", () => {
    const run = byName(ours(receiver.spans), "invoke_agent ")[0];
    const s = report.events_summary;
    expect(run?.attributes).toMatchObject({
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.name": "claude-code",
      "skillbench.task": "ask-then-build",
      "skillbench.treatment": "WITH_SKILL",
      "skillbench.rep": 1,
      "skillbench.passed": report.passed,
      "skillbench.outcome": report.outcome,
      "skillbench.scripted_model": true,
      "skillbench.timing_source": "stream",
      "gen_ai.usage.input_tokens": s?.input_tokens,
      "gen_ai.usage.output_tokens": s?.output_tokens,
      "gen_ai.conversation.id": s?.session_ids[0],
    });
    expect(run?.start).toBe(Date.parse(report.timing.started_at));
    expect(run?.end).toBe(Date.parse(report.timing.finished_at));
  });

  it("a turn span per subject turn, and a tool span per tool call under its turn", () => {
    const mine = ours(receiver.spans);
    const run = byName(mine, "invoke_agent ")[0];
    const turns = byName(mine, "turn ").sort((a, b) => a.start - b.start);
    expect(report.interaction?.actual_turns).toBeGreaterThan(1);
    expect(turns).toHaveLength(evidence.results.length);
    for (const t of turns) {
      expect(t.parentSpanId).toBe(run?.spanId);
      expect(t.start).toBeGreaterThanOrEqual(run?.start ?? 0);
      expect(t.end).toBeLessThanOrEqual(run?.end ?? 0);
    }
    const tools = byName(mine, "execute_tool ").sort((a, b) => a.start - b.start);
    expect(tools.map((t) => t.attributes["gen_ai.tool.name"])).toEqual(
      evidence.tool_calls.map((c) => c.name),
    );
    for (const [i, tool] of tools.entries()) {
      const call = evidence.tool_calls[i];
      const turn = turns[(call?.turn ?? 0) - 1];
      expect(tool.parentSpanId).toBe(turn?.spanId);
      expect(tool.attributes["gen_ai.tool.call.id"]).toBe(call?.id);
      expect(tool.start).toBeLessThanOrEqual(tool.end);
    }
  });

  it("validator spans, and every rubric dimension as a gen_ai.evaluation.result event", () => {
    const mine = ours(receiver.spans);
    const run = byName(mine, "invoke_agent ")[0];
    const validators = byName(mine, "validate ");
    expect(validators.length).toBeGreaterThan(0);
    for (const v of validators) expect(v.parentSpanId).toBe(run?.spanId);
    const evals = new Map(
      (run?.events ?? [])
        .filter((e) => e.name === "gen_ai.evaluation.result")
        .map((e) => [e.attributes["gen_ai.evaluation.name"], e.attributes]),
    );
    expect(evals.get("passed")?.["gen_ai.evaluation.score.value"]).toBe(report.passed ? 1 : 0);
    expect(evals.get("weighted_score")?.["gen_ai.evaluation.score.value"]).toBeCloseTo(
      report.rubric?.weighted_score ?? -1,
      10,
    );
    for (const d of report.rubric?.dimensions ?? []) {
      const e = evals.get(`rubric.${d.name}`);
      expect(e, d.name).toBeDefined();
      if (d.score !== null) expect(e?.["gen_ai.evaluation.score.value"]).toBeCloseTo(d.score, 10);
    }
    const root = mine.find((s) => s.parentSpanId === "");
    const rootEvals = root?.events.map((e) => e.attributes["gen_ai.evaluation.name"]);
    expect(rootEvals).toEqual(expect.arrayContaining(["pass_rate", "pass_at_k", "pass_power_k"]));
  });

  it("Claude Code's own spans nest under the run span", () => {
    const runSpan = runSpanId(report.experiment_id, RUN_ID);
    const agent = receiver.spans.filter((s) => s.scope !== "skillbench");
    const interactions = agent.filter((s) => s.name === "claude_code.interaction");
    expect(interactions.length).toBe(report.interaction?.actual_turns);
    for (const s of interactions) expect(s.parentSpanId).toBe(runSpan);
    // Every other agent span hangs below one of those interactions, in the same trace.
    const ids = new Set(agent.map((s) => s.spanId));
    for (const s of agent.filter((x) => x.name !== "claude_code.interaction"))
      expect(ids.has(s.parentSpanId), s.name).toBe(true);
  });

  it("content leaves as hash and length by default", () => {
    const prompt = String(report.interaction?.turns[0]?.["prompt"] ?? "");
    expect(prompt.length).toBeGreaterThan(20);
    const all = JSON.stringify(receiver.spans);
    expect(all).not.toContain(prompt.slice(0, 40));
    const turn1 = byName(ours(receiver.spans), "turn 1")[0];
    expect(String(turn1?.attributes["gen_ai.input.text"])).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(turn1?.attributes["gen_ai.input.text.length"]).toBe(prompt.length);
  });
});

describe("skillbench export of the stored folder", () => {
  let before: number;
  let exported: CliResult;
  beforeAll(async () => {
    before = receiver.spans.length;
    exported = await runCli(
      [
        "export",
        out,
        "--otel-endpoint",
        receiver.url,
        "--otel-protocol",
        "http/json",
        "--langfuse",
        "--langsmith",
        "skillbench-e2e",
      ],
      {
        env: sandbox.env({
          LANGFUSE_PUBLIC_KEY: LANGFUSE.pk,
          LANGFUSE_SECRET_KEY: LANGFUSE.sk,
          LANGFUSE_BASE_URL: receiver.url,
          LANGSMITH_API_KEY: LANGSMITH_KEY,
          LANGSMITH_ENDPOINT: receiver.url,
        }),
      },
    );
  }, 60_000);

  it("sends the same spans again over OTLP/JSON, with the same ids", () => {
    expect(exported.code, exported.stderr + exported.stdout).toBe(0);
    expect(receiver.problems).toEqual([]);
    const again = ours(receiver.spans.slice(before));
    const first = ours(receiver.spans.slice(0, before));
    const key = (s: ReceivedSpan): string => `${s.spanId} ${s.parentSpanId} ${s.name}`;
    const json = new Set(again.filter((s) => s.resource["service.name"] === "skillbench").map(key));
    for (const s of first) expect(json.has(key(s)), s.name).toBe(true);
  });

  it("Langfuse: spans through its OTLP endpoint and the original's score names", () => {
    const otlp = receiver.requests.filter((r) => r.path === "/api/public/otel/v1/traces");
    expect(otlp.length).toBeGreaterThan(0);
    expect(otlp[0]?.headers["x-langfuse-ingestion-version"]).toBe("4");
    const scores = receiver.requests
      .filter((r) => r.path === "/api/public/scores")
      .map((r) => r.json as { name: string; value: number; dataType: string; traceId: string });
    const names = new Set(scores.map((s) => s.name));
    expect(names).toEqual(
      new Set([
        "comet.passed",
        "comet.checks_pass_rate",
        ...(report.rubric?.dimensions ?? [])
          .filter((d) => d.score !== null)
          .map((d) => `comet.rubric.${d.name}`),
        "comet.pass_at_k",
        "comet.pass_power_k",
      ]),
    );
    const passed = scores.find((s) => s.name === "comet.passed");
    expect(passed).toMatchObject({ dataType: "BOOLEAN", value: report.passed ? 1 : 0 });
    expect(passed?.traceId).toBe(traceIdFor(report.experiment_id));
  });

  it("LangSmith: a dataset example per task and treatment, the run, and its feedback", () => {
    const runs = receiver.requests.filter((r) => r.path === "/runs").map((r) => r.json);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({
      run_type: "chain",
      session_name: "skillbench-e2e",
      inputs: { task: "ask-then-build", treatment: "WITH_SKILL" },
      outputs: { run_id: RUN_ID, passed: report.passed },
    });
    const feedback = receiver.requests
      .filter((r) => r.path === "/feedback")
      .map((r) => (r.json as { key: string }).key);
    expect(feedback).toEqual(expect.arrayContaining(["passed", "checks_pass_rate"]));
    expect(receiver.requests.filter((r) => r.path === "/examples")).toHaveLength(1);
  });

  it("no credential appears in anything sent", () => {
    const all = receiver.requests.map((r) => r.raw.toString("latin1")).join("\n");
    expect(all).not.toContain(LANGFUSE.sk);
    expect(all).not.toContain(LANGSMITH_KEY);
  });
});

describe("secrets and content", () => {
  it("with --otel-include-content the text leaves, a declared secret never does", async () => {
    const probe = await startReceiver();
    try {
      const dir = sandbox.dir("probe");
      const res = await runCli(
        [
          ...runArgs("e2e-telemetry", dir, "--count", "1", "--sandbox", "local"),
          "--pass-env",
          "SB_PROBE_API_KEY",
          "--otel-endpoint",
          probe.url,
          "--otel-protocol",
          "http/json",
          "--otel-include-content",
        ],
        { env: sandbox.env({ SB_PROBE_API_KEY: SECRET }) },
      );
      expect(res.code, res.stderr).toBe(0);
      const sent = probe.requests.map((r) => r.raw.toString("utf8")).join("\n");
      expect(sent).toContain("done.txt"); // content is included…
      expect(sent).not.toContain(SECRET); // …the secret is not, in any form we know
      expect(sent).not.toContain(JSON.stringify(SECRET).slice(1, -1));
      // The agent did print it: the tool result was there to leak.
      const stored = await readFile(
        path.join(dir, "runs", "probe-CONTROL-r1", "stdout.jsonl"),
        "utf8",
      );
      expect(stored).toContain("Bash");
      expect(stored).not.toContain(SECRET);
      const b64 = Buffer.from(SECRET).toString("base64");
      expect(sent).not.toContain(b64);
      expect(stored).not.toContain(b64);
    } finally {
      await probe.close();
    }
  }, 120_000);
});

describe("an endpoint that does not answer", () => {
  it("never fails a run; --export-required makes it the command's failure", async () => {
    const port = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, "127.0.0.1", () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    const dir = sandbox.dir("unreachable");
    const res = await runCli(
      [
        ...runArgs("e2e-telemetry", dir, "--count", "1", "--sandbox", "local"),
        "--otel-endpoint",
        `http://127.0.0.1:${port}`,
      ],
      { env: sandbox.env() },
    );
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr.match(/telemetry: export to otlp failed/g)).toHaveLength(1);
    const required = await runCli(["export", dir, "--otel-endpoint", `http://127.0.0.1:${port}`], {
      env: sandbox.env(),
    });
    expect(required.code).toBe(1);
    expect(required.stdout).toMatch(/telemetry: otlp: 0 sent, \d+ failed/);
  }, 120_000);

  it("bad telemetry settings are bad input: exit 2, the setting named, no run", async () => {
    const dir = sandbox.dir("bad");
    const bad = await runCli([...runArgs("e2e-telemetry", dir), "--otel-endpoint", "not a url"], {
      env: sandbox.env(),
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--otel-endpoint");
    const keys = await runCli([...runArgs("e2e-telemetry", dir), "--langfuse"], {
      env: sandbox.env(),
    });
    expect(keys.code).toBe(2);
    expect(keys.stderr).toContain("LANGFUSE_SECRET_KEY");
  });
});

// The fixture suite is part of the test: fail clearly if it moves.
void fixtureSuite("e2e-telemetry");
