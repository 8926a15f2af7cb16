/**
 * Budgets against a live `https://` endpoint, end to end (docs/budgets.md): the built CLI and the
 * real claude binary against the scripted model behind a local HTTPS server (a self-signed
 * certificate the CLI trusts through NODE_EXTRA_CA_CERTS, as a user would add a corporate CA).
 * Without skillbench's tap the agent would speak TLS to it and nothing could be metered.
 * - A run under `--budget-usd` is metered through the tap: report.json `metered` counts it, and
 *   the credential is in no file written.
 * - A run whose long reply crosses a small budget is stopped as `budget`.
 * - The admission uses the real estimate (earlier runs from `--estimate-from`): a budget smaller
 *   than one estimated run starts nothing and says why.
 * 2 claude spawns, 3 CLI runs.
 */
import { execFileSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import https from "node:https";
import http from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadModelScript, startModelServer, type ModelServer } from "../../src/model/index.js";
import {
  filesUnder,
  fixtureSuite,
  makeSandbox,
  readRunReport,
  reportedRunIds,
  runCli,
  type CliResult,
  type Sandbox,
} from "../helpers/cli.js";

const SUITE = fixtureSuite("budget");
const SECRET = "sk-ant-budget-https-e2e-0123456789abcdef";

let sandbox: Sandbox;
let model: ModelServer;
let front: https.Server;
let origin: string;
let caFile: string;

beforeAll(async () => {
  sandbox = await makeSandbox("e2e-budget-https");
  // A certificate for 127.0.0.1, made for this test only.
  const key = path.join(sandbox.root, "key.pem");
  caFile = path.join(sandbox.root, "cert.pem");
  execFileSync(
    "openssl",
    [
      ...["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1"],
      ...["-nodes", "-keyout", key, "-out", caFile, "-days", "1", "-subj", "/CN=127.0.0.1"],
      ...["-addext", "subjectAltName=IP:127.0.0.1"],
    ],
    { stdio: "ignore" },
  );
  model = await startModelServer({
    script: await loadModelScript(path.join(SUITE, "model-script.yaml")),
  });
  const upstream = new URL(model.url);
  // The "live endpoint": HTTPS in front of the scripted model, every request passed on as it is.
  front = https.createServer(
    { key: await readFile(key), cert: await readFile(caFile) },
    (req, res) => {
      const out = http.request(
        {
          hostname: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: upstream.host },
        },
        (r) => {
          res.writeHead(r.statusCode ?? 502, r.headers);
          r.pipe(res);
        },
      );
      out.on("error", () => res.destroy());
      res.on("close", () => out.destroy());
      req.pipe(out);
    },
  );
  await new Promise<void>((resolve) => front.listen(0, "127.0.0.1", resolve));
  const addr = front.address();
  origin = `https://127.0.0.1:${typeof addr === "object" && addr ? addr.port : 0}`;
});

afterAll(async () => {
  front?.closeAllConnections();
  await new Promise<void>((resolve) => (front ? front.close(() => resolve()) : resolve()));
  await model?.close();
  await sandbox?.remove();
});

/** `run` of one task of the budget fixture against the HTTPS endpoint (no model script). */
function runHttps(task: string, out: string, ...extra: string[]): Promise<CliResult> {
  return runCli(
    [
      ...["run", SUITE, "--task", task, "--count", "1", "--preflight", "off"],
      ...["--out", out, "--env", "CLAUDE_CODE_MAX_RETRIES=0", ...extra],
    ],
    {
      env: sandbox.env({
        // The scripted model tells runs apart by the path (docs/model-script.md).
        ANTHROPIC_BASE_URL: `${origin}/runs/${task}/CONTROL/1/subject`,
        ANTHROPIC_API_KEY: SECRET,
        NODE_EXTRA_CA_CERTS: caFile,
      }),
    },
  );
}

describe("a budget against a live https endpoint", () => {
  let cheapOut: string;
  let cheap: CliResult;
  beforeAll(async () => {
    cheapOut = sandbox.dir("cheap");
    cheap = await runHttps("cheap", cheapOut, "--budget-usd", "1");
  }, 120_000);

  it("meters the run through the tap, and saves no credential", async () => {
    expect(cheap.code, cheap.stderr).toBe(0);
    expect(cheap.stdout + cheap.stderr).toMatch(
      /budget: ANTHROPIC_BASE_URL https:\/\/127\.0\.0\.1:\d+ is metered through skillbench's tap http:\/\/127\.0\.0\.1:\d+/,
    );
    const r = await readRunReport(cheapOut, "cheap-CONTROL-r1");
    expect(r.outcome).toBe("completed");
    // Two replies of 1,000 in and 100 out at $3 / $15 per million (the scripted usage).
    expect(r.metered?.tokens.input).toBe(2000);
    expect(r.metered?.tokens.output).toBe(200);
    expect(r.metered?.usd).toBeCloseTo(0.009, 9);
    const meta = JSON.parse(await readFile(path.join(cheapOut, "metadata.json"), "utf8")) as {
      fingerprint: { endpoint_at: string };
      budget: { spent_usd: number };
    };
    // The run key and fingerprint name the endpoint, not the tap in front of it.
    expect(meta.fingerprint.endpoint_at).toBe(origin);
    expect(meta.budget.spent_usd).toBeCloseTo(0.009, 9);
    for (const f of await filesUnder(cheapOut))
      expect(await readFile(path.join(cheapOut, f), "utf8"), f).not.toContain(SECRET);
  });

  it("stops a run whose reply crosses a small budget as budget", async () => {
    const out = sandbox.dir("overspend");
    const cli = await runHttps("overspend", out, "--budget-usd", "1");
    expect(cli.code, cli.stderr).toBe(1);
    const r = await readRunReport(out, "overspend-CONTROL-r1");
    expect(r.outcome).toBe("budget");
    expect(r.sample_quality.reason_code).toBe("budget");
    expect(r.metered?.stop?.cause).toBe("budget_usd");
    expect(r.metered?.usd).toBeGreaterThan(1);
  }, 120_000);

  it("admits no run its real estimate does not fit: a budget smaller than one earlier run starts nothing and says why", async () => {
    const out = sandbox.dir("refused");
    const cli = await runHttps("cheap", out, "--estimate-from", cheapOut, "--budget-usd", "0.001");
    expect(cli.code, cli.stderr).toBe(1);
    expect(await reportedRunIds(out), cli.stdout + cli.stderr).toEqual([]);
    const meta = JSON.parse(await readFile(path.join(out, "metadata.json"), "utf8")) as {
      budget: { refused: string | null; unrun: string[] };
    };
    expect(meta.budget.unrun).toEqual(["cheap-CONTROL-r1"]);
    expect(meta.budget.refused).toMatch(
      /^the budget of \$0\.0010 has \$0\.0010 left, the run is estimated at \$0\.0\d+ \(the largest of 1 earlier run\(s\) of cheap\/CONTROL \(history, metered\)\)$/,
    );
    expect(cli.stderr).toMatch(/budget: no more runs start: .*\(history, metered\)/);
  }, 60_000);
});
