/**
 * `skillbench triggers` without `--sandbox` (issue 39.2): the probes' agent is sandboxed as a
 * `run`'s is (auto: bwrap here). A probe's Bash tries what a red team did under the old `local`
 * default: read a key in a home folder, write a file outside its workspace, fetch from a host
 * loopback service. None of it reaches the host or any saved file; `--sandbox local` says so
 * with the run's warning.
 */
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { probeSandboxes } from "../../src/sandbox/index.js";
import { filesUnder, makeSandbox, REPO_ROOT, runCli, type Sandbox } from "../helpers/cli.js";

const SKILL = path.join(REPO_ROOT, "examples", "trigger-eval", "changelog-writer");
const tag = randomBytes(4).toString("hex");
const KEY_SECRET = `planted-ssh-key-${tag}`;
const LOOPBACK_SECRET = `loopback-secret-${tag}`;

let box: Sandbox;
let loopback: Server;
let port = 0;
let key: string;
let outside: string;

beforeAll(async () => {
  box = await makeSandbox("triggers-sandbox");
  loopback = createServer((_req, res) => res.end(LOOPBACK_SECRET));
  await new Promise<void>((resolve) => loopback.listen(0, "127.0.0.1", resolve));
  port = (loopback.address() as AddressInfo).port;
  key = path.join(box.home, ".ssh", "id_ed25519");
  await mkdir(path.dirname(key), { recursive: true });
  await writeFile(key, `${KEY_SECRET}\n`);
  outside = path.join(box.root, `escaped-${tag}.txt`);
});

afterAll(async () => {
  await new Promise((resolve) => loopback.close(resolve));
  await box.remove();
});

async function evaluate(name: string, ...extra: string[]) {
  const out = box.dir(name);
  const attempt = [
    `cat ${key}; echo "R_KEY:$?"`,
    `echo x > ${outside}; echo "W_OUT:$?"`,
    `node -e "fetch('http://127.0.0.1:${port}/').then((r) => r.text()).then((t) => console.log('N_FETCH:0 ' + t), (e) => console.log('N_FETCH:1'))"`,
  ].join("; ");
  const script = path.join(box.root, `${name}-script.yaml`);
  await writeFile(
    script,
    [
      "version: 1",
      "rules:",
      "  - steps:",
      `      - tool_use: {name: Bash, input: {command: ${JSON.stringify(attempt)}}}`,
      "      - tool_use: {name: Skill, input: {skill: changelog-writer}}",
      "      - fault: {hang: true}",
      "",
    ].join("\n"),
  );
  const queries = path.join(box.root, `${name}-queries.yaml`);
  await writeFile(queries, "- query: Add a changelog entry\n  should_trigger: true\n");
  const res = await runCli(
    [
      "triggers",
      SKILL,
      "--queries",
      queries,
      "--model-script",
      script,
      "--out",
      out,
      "--no-decoys",
      "-n",
      "1",
      "--max-attempts",
      "1",
      "--env",
      "CLAUDE_CODE_MAX_RETRIES=0",
      "--timeout",
      "60",
      ...extra,
    ],
    { env: box.env() },
  );
  // Everything the evaluation saved, as one text.
  let saved = "";
  for (const f of await filesUnder(out)) saved += await readFile(path.join(out, f), "utf8");
  return { res, saved };
}

describe("triggers' default sandbox", () => {
  it("contains a probe's reads, writes and loopback fetches", async () => {
    expect((await probeSandboxes()).bwrap, "this test needs bubblewrap").toBe(true);
    const { res, saved } = await evaluate("default");
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toMatch(/sandbox for probes: bwrap \(auto: /);
    expect(res.stderr).not.toMatch(/warning: sandbox/);
    // The Bash step ran (its markers are in the transcript) and every attempt failed.
    expect(saved).toContain("R_KEY:1");
    expect(saved).toContain("N_FETCH:1");
    expect(saved).not.toContain(KEY_SECRET);
    expect(saved).not.toContain(LOOPBACK_SECRET);
    expect(existsSync(outside)).toBe(false);
  });

  it("--sandbox local is said with the run's warning", async () => {
    const { res, saved } = await evaluate("local", "--sandbox", "local");
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain(
      "warning: sandbox for probes: requested; local: the agent can read and change your files and environment",
    );
    // What the default prevents is what local allows (kept honest, as docs/sandbox.md says).
    expect(saved).toContain("R_KEY:0");
    expect(existsSync(outside)).toBe(true);
  });
});
