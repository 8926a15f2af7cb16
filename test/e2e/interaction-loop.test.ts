/**
 * The auto_user loop end to end: the real claude binary as subject and as
 * simulated user, against the scripted model server
 * (test/fixtures/suites/e2e-interaction/model-script.yaml). Each scenario asserts
 * the InteractionRecord, and that the simulator's private prompt never reaches
 * the subject's stdout or workspace. About 19 claude processes in all.
 */
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveClaudeBinary } from "../../src/agents/claude/binary.js";
import { buildAgentEnv } from "../../src/agents/claude/env.js";
import { runClaudeTurn } from "../../src/agents/claude/turn.js";
import { parseEvidenceFile } from "../../src/evidence/index.js";
import {
  FALLBACK_REPLY,
  resolveInteraction,
  type InteractionInput,
} from "../../src/interaction/config.js";
import { runInteractionLoop, type InteractionRecord } from "../../src/interaction/loop.js";
import { makeSimulator } from "../../src/interaction/simulator.js";
import {
  loadModelScript,
  parseModelScriptText,
  runBaseUrl,
  startModelServer,
  type ModelServer,
} from "../../src/model/index.js";
import { listFiles } from "../../src/util/hash.js";
import { makeRedactor } from "../../src/util/redact.js";
import { RedactingLineWriter } from "../../src/util/redacting-writer.js";
import { fixtureSuite, makeSandbox, readRunReport, REPO_ROOT, runCli } from "../helpers/cli.js";
import {
  expectOnlyInsideBwrap,
  processesWithEnv,
  startSnoopingProxy,
  type ProcNs,
} from "../helpers/proc-ns.js";

const SIM_MARKER = "SIMPROMPT-7f3a9c";
const SIM_PROMPT = `${SIM_MARKER} You are a terse user. Approve everything.`;
const SCRIPT = path.join(REPO_ROOT, "test/fixtures/suites/e2e-interaction/model-script.yaml");

const bin = resolveClaudeBinary({});
let root: string;
let server: ModelServer;
let recordFile: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "skillbench-interaction-"));
  recordFile = path.join(root, "model.jsonl");
  server = await startModelServer({ script: await loadModelScript(SCRIPT), recordFile });
});

afterAll(async () => {
  await server.close();
  await rm(root, { recursive: true, force: true });
});

interface Scenario {
  rec: InteractionRecord;
  ws: string;
  /** The subject's CLAUDE_CONFIG_DIR (its session transcripts). */
  cfg: string;
  stdoutFile: string;
  simulatorFile: string;
}

async function scenario(
  task: string,
  taskOver: Partial<InteractionInput["task"]>,
  deadlineInMs?: number,
): Promise<Scenario> {
  if ("error" in bin) throw new Error(bin.error);
  const dir = path.join(root, task);
  const d = (n: string): string => path.join(dir, n);
  for (const n of ["ws", "home", "cfg", "tmp", "out"]) await mkdir(d(n), { recursive: true });
  const hostEnv = { PATH: process.env.PATH };
  const declared = { CLAUDE_CODE_MAX_RETRIES: "0" };
  const redact = makeRedactor(["sk-test"]);
  const stdout = new RedactingLineWriter(d("out/stdout.jsonl"), redact);
  const stderr = new RedactingLineWriter(d("out/stderr.txt"), redact);
  const simOut = new RedactingLineWriter(d("out/simulator.jsonl"), redact);
  const simErr = new RedactingLineWriter(d("out/simulator-stderr.txt"), redact);
  const subjectEnv = buildAgentEnv({
    hostEnv,
    home: d("home"),
    configDir: d("cfg"),
    tmpDir: d("tmp"),
    baseUrl: runBaseUrl(server.url, { task, treatment: "T", rep: 1, role: "subject" }),
    apiKey: "sk-test",
    declared,
  });
  const config = resolveInteraction({
    profile: "comet-workflow",
    task: {
      mode: null,
      maxTurns: null,
      simulatorPrompt: null,
      decisionPatterns: [],
      decisionReply: null,
      decisionReplies: [],
      continuePrompt: null,
      freshResumeMarker: null,
      ...taskOver,
    },
    cli: { simulatorPrompt: SIM_PROMPT },
  });
  const simulate = makeSimulator({
    bin: bin.path,
    env: {
      hostEnv,
      baseUrl: runBaseUrl(server.url, { task, treatment: "T", rep: 1, role: "simulator" }),
      apiKey: "sk-test",
      declared,
    },
    dirs: { cwd: d("sim/cwd"), home: d("sim/home"), configDir: d("sim/cfg"), tmpDir: d("sim/tmp") },
    stdout: simOut,
    stderr: simErr,
    timeoutMs: 60_000,
  });
  const rec = await runInteractionLoop({
    config,
    taskPrompt: `TASK-${task}: run the workflow.`,
    deadlineMs: deadlineInMs === undefined ? undefined : Date.now() + deadlineInMs,
    subjectTurn: (prompt, resume, _turn, ctx) =>
      runClaudeTurn({
        bin: bin.path,
        workspace: d("ws"),
        prompt,
        env: subjectEnv,
        resume: resume ?? undefined,
        timeoutMs: ctx.timeoutMs ?? 60_000,
        signal: ctx.signal,
        stdout,
        stderr,
      }),
    simulate,
  });
  for (const w of [stdout, stderr, simOut, simErr]) await w.close();
  return {
    rec,
    ws: d("ws"),
    cfg: d("cfg"),
    stdoutFile: d("out/stdout.jsonl"),
    simulatorFile: d("out/simulator.jsonl"),
  };
}

/** The simulator's prompt is in neither the subject's stream nor any file of its workspace or config dir. */
async function expectPromptPrivate(s: Scenario): Promise<void> {
  expect(await readFile(s.stdoutFile, "utf8")).not.toContain(SIM_MARKER);
  for (const dir of [s.ws, s.cfg]) {
    for (const f of await listFiles(dir))
      expect(await readFile(path.join(dir, f), "utf8"), f).not.toContain(SIM_MARKER);
  }
}

async function simulatorRequests(task: string): Promise<string[]> {
  const lines = (await readFile(recordFile, "utf8"))
    .split("\n")
    .filter((l) => l.includes(`"role":"simulator"`) && l.includes(`"task":"${task}"`));
  return lines;
}

describe("auto_user loop with the real claude binary", () => {
  it("runs three turns (simulated reply, nudge) and ends on completion", async () => {
    const s = await scenario("complete", {});
    expect(s.rec).toMatchObject({
      mode: "auto_user",
      max_turns: 12,
      actual_turns: 3,
      decision_points: 1,
      deterministic_replies: 0,
      simulated_replies: 1,
      completion_signals: 1,
      nudges: 1,
      fresh_resume_boundaries: 0,
      end_reason: "completed",
    });
    expect(
      s.rec.turns.map((t) => [
        t.prompt_source,
        t.resumed,
        t.outcome,
        t.result_text,
        t.decision,
        t.completion,
      ]),
    ).toEqual([
      ["task", false, "completed", "Which name do you prefer?", "question", false],
      ["simulator", true, "completed", "Design written for widget.", null, false],
      ["nudge", true, "completed", "Workflow is complete", null, true],
    ]);
    expect(s.rec.turns[1]?.prompt).toBe("Call it widget.");
    // one subject session, resumed; one separate simulator session
    expect(s.rec.role_sessions.subject).toHaveLength(1);
    expect(s.rec.role_sessions.simulator).toHaveLength(1);
    expect(s.rec.role_sessions.simulator[0]).not.toBe(s.rec.role_sessions.subject[0]);
    expect(s.rec.turns[0]?.simulator).toMatchObject({ outcome: "completed", fallback: false });
    expect(await readFile(path.join(s.ws, "notes.md"), "utf8")).toBe("draft\n");
    // The subject's stream is the concatenation of its three turns; the simulator's is apart.
    const e = await parseEvidenceFile(s.stdoutFile);
    expect(e.results).toHaveLength(3);
    expect(e.session_ids).toEqual(s.rec.role_sessions.subject);
    expect(e.files_created).toEqual(["notes.md"]);
    const sim = await parseEvidenceFile(s.simulatorFile);
    expect(sim.session_ids).toEqual(s.rec.role_sessions.simulator);
    expect(sim.tool_calls).toEqual([]);
    // The simulator did get its prompt (positive control), and the subject never did.
    const reqs = await simulatorRequests("complete");
    expect(reqs.length).toBeGreaterThan(0);
    expect(reqs.some((l) => l.includes(SIM_MARKER))).toBe(true);
    await expectPromptPrivate(s);
  });

  it("stops at max_turns", async () => {
    const s = await scenario("maxturns", { maxTurns: 2 });
    expect(s.rec).toMatchObject({
      max_turns: 2,
      actual_turns: 2,
      nudges: 1,
      decision_points: 0,
      end_reason: "max_turns",
    });
    expect(s.rec.turns.map((t) => t.prompt_source)).toEqual(["task", "nudge"]);
    expect(s.rec.role_sessions.simulator).toEqual([]);
    await expectPromptPrivate(s);
  });

  it("consumes decision_replies in order and ends when the queue runs out", async () => {
    const s = await scenario("queue", { decisionReplies: ["alpha", "beta"] });
    expect(s.rec).toMatchObject({
      actual_turns: 3,
      decision_points: 3,
      deterministic_replies: 2,
      simulated_replies: 0,
      end_reason: "decision_queue_exhausted",
    });
    expect(s.rec.turns.map((t) => [t.prompt, t.result_text])).toEqual([
      ["TASK-queue: run the workflow.", "Option A or B?"],
      ["alpha", "Next: X or Y?"],
      ["beta", "And Z?"],
    ]);
    expect(s.rec.role_sessions.simulator).toEqual([]);
    await expectPromptPrivate(s);
  });

  it("starts a new subject session with the continue prompt after a fresh-resume marker", async () => {
    const s = await scenario("fresh", {
      freshResumeMarker: "<<FRESH>>",
      continuePrompt: "Resume the workflow from disk.",
    });
    expect(s.rec).toMatchObject({
      actual_turns: 2,
      fresh_resume_boundaries: 1,
      completion_signals: 1,
      end_reason: "completed",
    });
    expect(s.rec.turns.map((t) => [t.prompt_source, t.resumed, t.fresh_resume])).toEqual([
      ["task", false, true],
      ["continue", false, false],
    ]);
    const [a, b] = s.rec.role_sessions.subject;
    expect(s.rec.role_sessions.subject).toHaveLength(2);
    expect(a).not.toBe(b);
    expect(s.rec.turns.map((t) => t.session_id)).toEqual([a, b]);
    await expectPromptPrivate(s);
  });

  it("sends the fallback reply when the simulator answers with empty text", async () => {
    const s = await scenario("emptysim", {});
    expect(s.rec).toMatchObject({ actual_turns: 2, simulated_replies: 1, end_reason: "completed" });
    expect(s.rec.turns[0]?.simulator).toMatchObject({ outcome: "completed", fallback: true });
    expect(s.rec.turns[1]?.prompt).toBe(FALLBACK_REPLY);
    expect(s.rec.turns[1]?.result_text).toBe("Workflow is complete");
    await expectPromptPrivate(s);
  });

  it("ends with subject_error when a subject turn fails half-way", async () => {
    const s = await scenario("fail", {});
    expect(s.rec).toMatchObject({
      actual_turns: 2,
      decision_points: 1,
      simulated_replies: 1,
      end_reason: "subject_error",
    });
    expect(s.rec.turns[1]).toMatchObject({
      prompt: "Call it widget.",
      resumed: true,
      outcome: "agent_error",
    });
    expect(s.rec.end_detail).toContain("400");
    await expectPromptPrivate(s);
  });

  it("ends with timeout when the deadline passes in the middle of the loop", async () => {
    const s = await scenario("hang", { decisionReply: "go" }, 10_000);
    expect(s.rec).toMatchObject({
      actual_turns: 2,
      deterministic_replies: 1,
      end_reason: "timeout",
    });
    expect(s.rec.turns[0]?.outcome).toBe("completed");
    expect(s.rec.turns[1]).toMatchObject({ prompt: "go", resumed: true, outcome: "timeout" });
    await expectPromptPrivate(s);
  });
});

const SANDBOX_SCRIPT = `
version: 1
defaults: {count: turn}
rules:
  - when: {role: simulator}
    reply: {text: "Call it widget."}
  - when: {role: subject, user_text: {equals: "Call it widget."}}
    steps: [{text: "Workflow is complete"}]
  - when: {role: subject, user_text: {contains: "note.txt"}}
    steps: [{text: "Which name do you prefer?"}]
`;

describe("the simulated user of a run, under the default sandbox (auto: bwrap here)", () => {
  it("runs inside bubblewrap (its own PID and network namespaces), said once", async () => {
    const box = await makeSandbox("sim-sandbox");
    const model = await startModelServer({
      script: parseModelScriptText(SANDBOX_SCRIPT, "sim.yaml"),
    });
    // While the simulated user waits for its answer, where do the processes with its endpoint run?
    const seen: ProcNs[][] = [];
    let simLine: RegExp = /^$/;
    const proxy = await startSnoopingProxy(model.url, (p) => {
      if (p.includes("/v1/messages")) seen.push(processesWithEnv(simLine));
    });
    const run = { task: "note", treatment: "CONTROL", rep: 1 };
    simLine = new RegExp(
      `^ANTHROPIC_BASE_URL=http://127\\.0\\.0\\.1:${proxy.port}/runs/note/CONTROL/1/simulator$`,
    );
    try {
      const out = box.dir("results");
      const r = await runCli(
        [
          "run",
          fixtureSuite("e2e-rescore-judge"),
          "--out",
          out,
          "--env",
          "CLAUDE_CODE_MAX_RETRIES=0",
          "--interaction-mode",
          "auto_user",
          "--max-turns",
          "2",
          "--exit-zero",
        ],
        {
          env: box.env({
            ANTHROPIC_API_KEY: "sk-test",
            ANTHROPIC_BASE_URL: runBaseUrl(model.url, { ...run, role: "subject" }),
            SKILLBENCH_SIMULATOR_BASE_URL: runBaseUrl(proxy.url, { ...run, role: "simulator" }),
          }),
        },
      );
      expect(r.code, r.stderr).toBe(0);
      expect(
        r.stderr.match(/sandbox for the simulated user: bwrap \(auto: [^)]*bubblewrap works\)/g),
      ).toHaveLength(1);
      const report = await readRunReport(out, "note-CONTROL-r1");
      expect(report.interaction?.simulated_replies).toBe(1);
      expectOnlyInsideBwrap(seen);
    } finally {
      await proxy.close();
      await model.close();
      await box.remove();
    }
  });
});
