/**
 * `run --baseline-from` end to end through the built CLI, the real claude binary and the scripted
 * model (e2e-verdicts suite, task greet), on the fingerprint of issue 32 (points 4 and 5):
 * - a baseline run with default settings (sandbox unset: auto) is accepted by a run with the
 *   same default settings (it was refused: "sandbox frozen bwrap, now local");
 * - a scripted-model baseline offered to a run against a live endpoint, and a live baseline
 *   offered to a scripted run, are refused (exit 2) with the endpoint difference named; so is a
 *   Claude Code baseline offered to a run on Codex (the agent that would run the baseline now);
 * - a frozen run whose report.json was edited by hand (its verdict flipped) is refused (exit 2)
 *   with the run named, because its stored evidence says otherwise; the frozen folder is untouched.
 */
import { cp, readFile, writeFile } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  fixtureSuite,
  makeSandbox,
  reportedRunIds,
  runArgs,
  runCli,
  type Sandbox,
} from "../helpers/cli.js";

const SUITE = "e2e-verdicts";
const TIMEOUT = 420_000;
let sandbox: Sandbox;
/** The results of one default-settings run of greet (CONTROL and CANDIDATE), the baseline. */
let base: string;

beforeAll(async () => {
  sandbox = await makeSandbox("e2e-baseline-fp");
  base = sandbox.dir("base");
  const r = await runCli(runArgs(SUITE, base, "--task", "greet"), { env: sandbox.env() });
  expect(r.stderr).not.toMatch(/error/i);
  expect(r.code).not.toBe(2);
}, TIMEOUT);

afterAll(async () => {
  await sandbox?.remove();
});

const readJson = async (file: string): Promise<Record<string, unknown>> =>
  JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;

describe("run --baseline-from: fingerprints", () => {
  it(
    "accepts its own default-settings baseline (the sandbox compared as resolved)",
    async () => {
      // auto resolved to a sandbox (bubblewrap here): not the `local` an unset sandbox was taken for
      const frozen = await readJson(path.join(base, "runs", "greet-CONTROL-r1", "report.json"));
      expect((frozen.sandbox as { kind: string }).kind).not.toBe("local");
      const out = sandbox.dir("reuse");
      const r = await runCli(runArgs(SUITE, out, "--task", "greet", "--baseline-from", base), {
        env: sandbox.env(),
      });
      expect(r.stderr).toContain("1 frozen run(s) reused");
      expect(r.stderr).toContain("(fingerprints match)");
      expect(r.code).not.toBe(2);
      expect(await reportedRunIds(out)).toEqual(["greet-CANDIDATE-r1", "greet-CONTROL-r1"]);
      // What the runs were run with beyond each run's record is in metadata.json.
      const meta = await readJson(path.join(out, "metadata.json"));
      expect(meta.fingerprint).toMatchObject({
        endpoint: "scripted",
        endpoint_at: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) as unknown,
        judge: "off",
      });
    },
    TIMEOUT,
  );

  it(
    "refuses a scripted baseline for a live endpoint, naming the difference (exit 2)",
    async () => {
      // A live-looking endpoint: nothing is asked of it, the refusal comes first.
      const server = net.createServer((c) => c.destroy());
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      const port = (server.address() as net.AddressInfo).port;
      try {
        const out = sandbox.dir("live");
        const r = await runCli(
          ["run", fixtureSuite(SUITE), "--out", out, "--task", "greet", "--baseline-from", base],
          {
            env: sandbox.env({
              ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}`,
              ANTHROPIC_API_KEY: "sk-live-looking",
            }),
          },
        );
        expect(r.code).toBe(2);
        expect(r.stderr).toMatch(
          new RegExp(
            `endpoint: frozen scripted model sha256:[0-9a-f]{12}, now live endpoint http://127\\.0\\.0\\.1:${port}`,
          ),
        );
        expect(await reportedRunIds(out)).toEqual([]);
      } finally {
        server.close();
      }
    },
    TIMEOUT,
  );

  it(
    "refuses a live baseline for the scripted model, naming the difference (exit 2)",
    async () => {
      // The same runs, recorded as run against a live endpoint.
      const liveBase = sandbox.dir("live-base");
      await cp(base, liveBase, { recursive: true });
      const metaFile = path.join(liveBase, "metadata.json");
      const meta = await readJson(metaFile);
      await writeFile(
        metaFile,
        JSON.stringify({
          ...meta,
          model_script: null,
          fingerprint: { endpoint: "live", endpoint_at: "https://api.example.com", judge: "off" },
        }),
      );
      const out = sandbox.dir("scripted-now");
      const r = await runCli(runArgs(SUITE, out, "--task", "greet", "--baseline-from", liveBase), {
        env: sandbox.env(),
      });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(
        /endpoint: frozen live endpoint https:\/\/api\.example\.com, now scripted model sha256:[0-9a-f]{12}/,
      );
      expect(await reportedRunIds(out)).toEqual([]);
    },
    TIMEOUT,
  );
});

describe("run --baseline-from: the agent that would run the baseline now", () => {
  it(
    "refuses Claude Code's baseline for a run on Codex, naming the agent (exit 2)",
    async () => {
      const out = sandbox.dir("codex-now");
      const r = await runCli(
        runArgs(SUITE, out, "--task", "greet", "--agent", "codex", "--baseline-from", base),
        { env: sandbox.env() },
      );
      expect(r.code).toBe(2);
      expect(r.stderr).toContain("agent: frozen claude-code, now codex");
      expect(await reportedRunIds(out)).toEqual([]);
    },
    TIMEOUT,
  );
});

describe("run --baseline-from: frozen runs re-derived from their evidence", () => {
  it(
    "refuses a hand-edited report.json, naming the run (exit 2), and leaves the folder as it was",
    async () => {
      const edited = sandbox.dir("edited");
      await cp(base, edited, { recursive: true });
      const file = path.join(edited, "runs", "greet-CONTROL-r1", "report.json");
      const report = await readJson(file);
      const flipped = !(report.passed as boolean);
      await writeFile(
        file,
        JSON.stringify({ ...report, passed: flipped, status: flipped ? "passed" : "failed" }),
      );
      const before = await readFile(file, "utf8");
      const out = sandbox.dir("from-edited");
      const r = await runCli(runArgs(SUITE, out, "--task", "greet", "--baseline-from", edited), {
        env: sandbox.env(),
      });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain("disagrees with the run's stored evidence");
      expect(r.stderr).toMatch(/greet-CONTROL-r1: passed: report\.json (true|false), evidence/);
      expect(await reportedRunIds(out)).toEqual([]);
      expect(await readFile(file, "utf8")).toBe(before);
    },
    TIMEOUT,
  );
});
