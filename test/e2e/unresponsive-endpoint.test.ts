/**
 * A model endpoint that accepts the connection and never answers (issue 32, point 6), end to end
 * through the built CLI and the real claude binary, on an endpoint that is not skillbench's
 * scripted model: a TCP listener on 127.0.0.1 in this process that takes every connection and
 * sends nothing back. Under `--sandbox bwrap` the requests pass through skillbench's relay, under
 * `--sandbox local` through its loopback tap; either times the requests, and the run killed at
 * its short timeout (12 s: the agent takes a few seconds to start before its first request) while its last request had no byte back is excluded as `api_unresponsive`
 * with that evidence, not kept as the agent's own `agent_timeout`. An https endpoint (the same
 * listener: the TLS handshake is never answered) cannot be timed: the stream rule says it.
 */
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunReport } from "../../src/core/report.js";
import { fixtureSuite, makeSandbox, readRunReport, runCli, type Sandbox } from "../helpers/cli.js";

const TIMEOUT = 180_000;
let sandbox: Sandbox;
let server: net.Server;
let port = 0;
/** Every connection the silent endpoint accepted (held open, never answered). */
const held: net.Socket[] = [];
/** Bytes the silent endpoint received: the agent did send its request. */
let received = 0;

beforeAll(async () => {
  sandbox = await makeSandbox("e2e-unresponsive");
  server = net.createServer((c) => {
    held.push(c);
    c.on("data", (b) => (received += b.length));
    c.on("error", () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as net.AddressInfo).port;
});

afterAll(async () => {
  for (const c of held) c.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await sandbox?.remove();
});

async function runAgainstSilentEndpoint(
  kind: "bwrap" | "local",
  scheme: "http" | "https" = "http",
): Promise<RunReport> {
  const out = sandbox.dir(`out-${kind}-${scheme}`);
  const before = received;
  const cli = await runCli(
    [
      "run",
      fixtureSuite("e2e-noise"),
      "--task",
      "model-hangs",
      "--out",
      out,
      "--sandbox",
      kind,
      "--timeout",
      "12",
      "--env",
      "CLAUDE_CODE_MAX_RETRIES=0",
    ],
    {
      env: sandbox.env({
        ANTHROPIC_BASE_URL: `${scheme}://127.0.0.1:${port}`,
        ANTHROPIC_API_KEY: "sk-live-looking",
      }),
    },
  );
  expect(cli.code, cli.stderr).not.toBe(2);
  expect(received).toBeGreaterThan(before);
  return readRunReport(out, "model-hangs-CONTROL-r1");
}

function expectUnresponsive(r: RunReport, via: "relay" | "tap"): void {
  expect(r.outcome).toBe("timeout");
  // Not skillbench's scripted model: its log is absent; the relay's or tap's timing is there.
  expect(r.model_api).toBeNull();
  expect(r.sandbox?.model_requests).toMatchObject({ via, answered: 0 });
  expect(r.sandbox?.model_requests?.last).toMatchObject({ answered: false });
  expect(r.sandbox?.model_requests?.last?.waited_ms).toBeGreaterThanOrEqual(6000);
  expect(r.sample_quality).toMatchObject({
    status: "excluded",
    reason_code: "api_unresponsive",
    include_in_analysis: false,
    confidence: "high",
  });
  expect(r.sample_quality.evidence.join("\n")).toMatch(
    new RegExp(
      `waited \\d+\\.\\d s of the 12\\.0 s timeout with no byte back \\(skillbench's ${via === "tap" ? "loopback tap" : "relay"}`,
    ),
  );
  expect(r.failure_attribution.map((a) => a.bucket)).toEqual(["harness"]);
}

describe("an endpoint that accepts and never answers", () => {
  it(
    "an https endpoint (no relay or tap can time it): the stream rule, excluded as api_unresponsive",
    async () => {
      const r = await runAgainstSilentEndpoint("local", "https");
      expect(r.outcome).toBe("timeout");
      expect(r.model_api).toBeNull();
      expect(r.sandbox?.model_requests).toBeUndefined();
      expect(r.sample_quality).toMatchObject({
        status: "excluded",
        reason_code: "api_unresponsive",
        include_in_analysis: false,
        confidence: "medium",
      });
      expect(r.sample_quality.evidence.join("\n")).toMatch(
        /the agent's stream ends waiting for the model: no model output after its last request began/,
      );
    },
    TIMEOUT,
  );

  it(
    "under --sandbox bwrap: the relay times the request; excluded as api_unresponsive",
    async () => {
      expectUnresponsive(await runAgainstSilentEndpoint("bwrap"), "relay");
    },
    TIMEOUT,
  );

  it(
    "under --sandbox local: the loopback tap times the request; excluded as api_unresponsive",
    async () => {
      expectUnresponsive(await runAgainstSilentEndpoint("local"), "tap");
    },
    TIMEOUT,
  );
});
