/**
 * Escape attempts per sandbox (real claude binary, scripted model). The agent's Bash tries to
 * write into the results folder (via /tmp/..) and into the host's home folder, to read a file
 * planted in the host's home folder, to read another run's workspace, and to reach the network
 * beyond the model endpoint: an HTTP service on another host loopback port (with node's fetch and
 * with bash's /dev/tcp) and an external address. bwrap and docker must block each one (their
 * default network policy is "model endpoint only"; the turn completing shows the model endpoint
 * itself is reached through the relay); `local` does NOT (asserted, so that docs/sandbox.md stays
 * honest).
 */
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { homedir, tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseModelScriptText, startModelServer, type ModelServer } from "../../src/model/index.js";
import { probeSandboxes, type SandboxKind } from "../../src/sandbox/index.js";
import { capture } from "../../src/sandbox/exec.js";
import { createRunDirs } from "../../src/workspace/prepare.js";
import { runInSandbox, toolOutputs } from "../fixtures/suites/e2e-sandbox/harness.js";

const probe = await probeSandboxes();
const baseImage = probe.dockerDaemon
  ? (await capture("docker", ["image", "inspect", "skillbench-base:bookworm"])).code === 0
  : false;
// Outside CI a machine without bwrap or Docker tests what it has; under CI (.ci/run sets both up)
// every kind is tested, so a missing one fails instead of vanishing.
const inCi = process.env.CI === "true";
const kinds: SandboxKind[] = [
  "local",
  ...(probe.bwrap || inCi ? (["bwrap"] as const) : []),
  ...(baseImage || inCi ? (["docker"] as const) : []),
];

const tag = randomBytes(4).toString("hex");
const PLANTED_SECRET = `planted-home-secret-${tag}`;
const SIBLING_SECRET = `sibling-run-secret-${tag}`;
const LOOPBACK_SECRET = `loopback-service-secret-${tag}`;
let loopback: Server;
let loopbackPort = 0;
let base: string;
let resultsDir: string;
let planted: string;
let siblingFile: string;
let server: ModelServer;
const outputs = new Map<SandboxKind, string>();
const policies = new Map<SandboxKind, string>();

function homeEscape(kind: SandboxKind): string {
  return path.join(homedir(), `skillbench-escape-${kind}-${tag}`);
}
function resultsEscape(kind: SandboxKind): string {
  return path.join(resultsDir, `escaped-${kind}.txt`);
}

function attempt(kind: SandboxKind): string {
  return [
    `echo x > /tmp/..${resultsEscape(kind)}; echo "W_RESULTS:$?"`,
    `echo x > ${homeEscape(kind)}; echo "W_HOME:$?"`,
    `cat ${planted}; echo "R_HOME:$?"`,
    `cat ${siblingFile}; echo "R_SIBLING:$?"`,
    // Another service on the host's loopback: node's fetch, then bash's /dev/tcp.
    `node -e "fetch('http://127.0.0.1:${loopbackPort}/').then((r) => r.text()).then((t) => console.log('N_FETCH:0 ' + t), (e) => console.log('N_FETCH:1 ' + (e.cause && e.cause.code)))"`,
    `(exec 3<>/dev/tcp/127.0.0.1/${loopbackPort} && printf 'GET / HTTP/1.0\\r\\n\\r\\n' >&3 && cat <&3); echo "N_TCP:$?"`,
    // An external address (TEST-NET-1: never routed; bounded so an offline host network cannot hang).
    `timeout 3 bash -c 'exec 3<>/dev/tcp/192.0.2.1/80'; echo "N_EXT:$?"`,
  ].join("; ");
}

beforeAll(async () => {
  loopback = createServer((_req, res) => res.end(LOOPBACK_SECRET));
  await new Promise<void>((resolve) => loopback.listen(0, "127.0.0.1", resolve));
  const addr: AddressInfo | string | null = loopback.address();
  if (addr === null || typeof addr === "string") throw new Error("no loopback port");
  loopbackPort = addr.port;
  base = await mkdtemp(path.join(tmpdir(), "skillbench-sbx-escape-"));
  resultsDir = path.join(base, "results");
  await mkdir(resultsDir, { recursive: true });
  planted = path.join(homedir(), `skillbench-planted-${tag}.txt`);
  await writeFile(planted, `${PLANTED_SECRET}\n`);
  const sibling = await createRunDirs("sibling-run", path.join(base, "runs"));
  siblingFile = path.join(sibling.workspace, "secret.txt");
  await writeFile(siblingFile, `${SIBLING_SECRET}\n`);
  const rules = kinds
    .map(
      (k) => `
  - name: escape-${k}
    when: {task: escape-${k}}
    steps:
      - tool_use: {name: Bash, input: {command: ${JSON.stringify(attempt(k))}, description: escape}}
      - text: "Tried."`,
    )
    .join("");
  server = await startModelServer({
    script: parseModelScriptText(`version: 1\nrules:${rules}\n`, "escape.yaml"),
  });
  for (const kind of kinds) {
    const r = await runInSandbox({
      kind,
      scriptTask: `escape-${kind}`,
      serverUrl: server.url,
      base,
      runName: `escape-${kind}`,
      noEnvironment: true,
    });
    expect(r.turn.outcome).toBe("completed");
    outputs.set(kind, (await toolOutputs(r.stdoutFile)).join("\n"));
    policies.set(kind, r.record.network_policy);
  }
});

afterAll(async () => {
  await server.close();
  await new Promise<void>((resolve) => loopback.close(() => resolve()));
  for (const k of kinds) await rm(homeEscape(k), { force: true });
  await rm(planted, { force: true });
  await rm(base, { recursive: true, force: true });
});

function status(out: string, name: string): number {
  const m = new RegExp(`${name}:(\\d+)`).exec(out);
  if (!m?.[1]) throw new Error(`${name} not printed in: ${out}`);
  return Number(m[1]);
}

describe("escape attempts", () => {
  it.each(kinds.filter((k) => k !== "local"))("%s blocks every attempt", (kind) => {
    const out = outputs.get(kind) ?? "";
    expect(status(out, "W_RESULTS")).not.toBe(0);
    expect(existsSync(resultsEscape(kind))).toBe(false);
    // bwrap: the hidden home is read-only; docker: the write lands in the container's own /root.
    if (kind === "bwrap") expect(status(out, "W_HOME")).not.toBe(0);
    expect(existsSync(homeEscape(kind))).toBe(false);
    expect(status(out, "R_HOME")).not.toBe(0);
    expect(out).not.toContain(PLANTED_SECRET);
    expect(status(out, "R_SIBLING")).not.toBe(0);
    expect(out).not.toContain(SIBLING_SECRET);
  });

  it.each(kinds.filter((k) => k !== "local"))(
    "%s reaches only the model endpoint: other loopback services and external addresses fail",
    (kind) => {
      const out = outputs.get(kind) ?? "";
      expect(policies.get(kind)).toMatch(
        /^model endpoint only \(loopback relay\); no other network/,
      );
      expect(out).toMatch(/N_FETCH:1 ECONNREFUSED/);
      expect(status(out, "N_TCP")).not.toBe(0);
      expect(status(out, "N_EXT")).not.toBe(0);
      expect(out).not.toContain(LOOPBACK_SECRET);
    },
  );

  it("local does NOT block them (documented as unprotected)", () => {
    const out = outputs.get("local") ?? "";
    expect(status(out, "W_RESULTS")).toBe(0);
    expect(existsSync(resultsEscape("local"))).toBe(true);
    expect(status(out, "W_HOME")).toBe(0);
    expect(existsSync(homeEscape("local"))).toBe(true);
    expect(out).toContain(PLANTED_SECRET);
    expect(out).toContain(SIBLING_SECRET);
    // The network is the host's: the other loopback service answers both attempts.
    expect(policies.get("local")).toMatch(/^host network, unrestricted/);
    expect(out).toMatch(new RegExp(`N_FETCH:0 ${LOOPBACK_SECRET}`));
    expect(status(out, "N_TCP")).toBe(0);
    expect(out.split(LOOPBACK_SECRET).length - 1).toBe(2);
  });
});
