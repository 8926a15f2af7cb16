/**
 * The same fixture task under local, bwrap and docker (real claude binary, scripted model): the
 * evidence (tool calls, commands, files) and the validator results must be the same. Docker runs
 * when a daemon answers and the base image exists (.ci/setup-sandbox.sh); bwrap when it works.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseModelScriptText, startModelServer, type ModelServer } from "../../src/model/index.js";
import { probeSandboxes, type SandboxKind } from "../../src/sandbox/index.js";
import { capture } from "../../src/sandbox/exec.js";
import { runInSandbox, type SandboxRunResult } from "../fixtures/suites/e2e-sandbox/harness.js";

const SCRIPT = `
version: 1
rules:
  - name: parity
    when: {task: parity}
    steps:
      - tool_use: {name: Bash, input: {command: "cp seed.txt made-by-bash.txt && echo copied", description: copy}}
      - tool_use: {name: Write, input: {file_path: out.txt, content: "hello sandbox"}}
      - tool_use: {name: Read, input: {file_path: made-by-bash.txt}}
      - text: "Done."
`;

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

let base: string;
let server: ModelServer;
const results = new Map<SandboxKind, SandboxRunResult>();

beforeAll(async () => {
  base = await mkdtemp(path.join(tmpdir(), "skillbench-sbx-parity-"));
  server = await startModelServer({ script: parseModelScriptText(SCRIPT, "parity.yaml") });
  // One after another: 2 cores.
  for (const kind of kinds) {
    results.set(
      kind,
      await runInSandbox({
        kind,
        scriptTask: "parity",
        serverUrl: server.url,
        base,
        runName: `parity-${kind}`,
        validate: true,
      }),
    );
  }
});

afterAll(async () => {
  await server.close();
  await rm(base, { recursive: true, force: true });
});

function comparable(r: SandboxRunResult) {
  const e = r.evidence;
  return {
    tools: e.tool_calls.map((t) => ({
      name: t.name,
      input: t.input,
      output: t.output,
      is_error: t.is_error,
    })),
    commands: e.commands_run,
    files_created: e.files_created,
    files_modified: e.files_modified,
    files_read: e.files_read,
  };
}

describe("the same task under every sandbox", () => {
  it("runs this machine with local plus every sandbox it offers", () => {
    // Recorded so that a missing sandbox is visible in the test output rather than silent.
    expect(kinds[0]).toBe("local");
    console.log(`sandbox parity ran: ${kinds.join(", ")}`);
  });

  it.each(kinds)(
    "%s: the agent completes, writes the files, and every validator check passes",
    async (kind) => {
      const r = results.get(kind);
      if (!r) throw new Error(`no result for ${kind}`);
      expect(r.turn.outcome).toBe("completed");
      expect(await readFile(path.join(r.dirs.workspace, "out.txt"), "utf8")).toBe("hello sandbox");
      expect(await readFile(path.join(r.dirs.workspace, "made-by-bash.txt"), "utf8")).toBe(
        "seed line\n",
      );
      expect(r.validation?.failed).toEqual([]);
      expect(r.validation?.passed).toEqual([
        "out.txt says hello sandbox",
        "made-by-bash.txt copies the seed",
        "out.txt exists",
        "context names the task",
      ]);
      expect(r.validation?.scripts.map((s) => s.status)).toEqual(["ok", "ok"]);
      expect(r.record.kind).toBe(kind);
    },
  );

  it.each(kinds.filter((k) => k !== "local"))(
    "%s gives the same evidence and validator results as local",
    (kind) => {
      const local = results.get("local");
      const other = results.get(kind);
      if (!local || !other) throw new Error("missing result");
      expect(comparable(other)).toEqual(comparable(local));
      expect(other.validation?.passed).toEqual(local.validation?.passed);
      expect(other.validation?.failed).toEqual(local.validation?.failed);
    },
  );

  it.each(kinds)("%s: the record says what was used", (kind) => {
    const rec = results.get(kind)?.record;
    if (!rec) throw new Error("missing");
    expect(rec.does_not_protect.length).toBeGreaterThan(0);
    // bwrap and docker by default: loopback-only namespace, the model endpoint relayed in.
    if (kind === "local") expect(rec.network_policy).toMatch(/^host network/);
    else
      expect(rec.network_policy).toMatch(
        /^model endpoint only \(loopback relay\); no other network/,
      );
    if (kind === "local") expect(rec.agent_version_inside).toBeNull();
    else expect(rec.agent_version_inside).toBe("2.1.328 (Claude Code)");
    if (kind === "docker") {
      expect(rec.image_id).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(rec.image_tag).toMatch(/^skillbench-task:[0-9a-f]{12}$/);
      expect(rec.limits).toEqual({ cpus: null, memory: null, pids: 512 });
    } else {
      expect(rec.image_id).toBeNull();
    }
  });
});
