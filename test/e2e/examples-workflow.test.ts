/**
 * The bundled multi-turn example, examples/workflow-suite, end to end: the built CLI, the real
 * claude binary (subject and simulated user) and the suite's own scripted model. One CLI run,
 * count 1, two at a time: 4 runs, 7 claude processes (3 subject turns + 1 simulator call for the
 * two Skill treatments, 3 subject turns for the two CONTROLs).
 *
 * What it pins down is what examples/workflow-suite/README.md promises: the ask-then-build
 * interaction record, the privacy of simulator-instruction.md, and the comet-workflow score of
 * every dimension (COMET_STUB) against the business-only baseline (CONTROL).
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { RunReport } from "../../src/core/report.js";
import {
  REPO_ROOT,
  filesUnder,
  makeSandbox,
  readJsonLines,
  readRunFile,
  readRunReport,
  reportedRunIds,
  runCli,
  type CliResult,
  type Sandbox,
} from "../helpers/cli.js";

const SUITE = path.join(REPO_ROOT, "examples", "workflow-suite");
const RUNS = {
  planControl: "ask-then-build-CONTROL-r1",
  planSkill: "ask-then-build-WITH_SKILL-r1",
  cometControl: "comet-change-CONTROL-r1",
  cometStub: "comet-change-COMET_STUB-r1",
} as const;
const CONTROL_REASON = "CONTROL business-only baseline";

/** The fields of report.json's `interaction` block this test reads. */
const TurnSchema = z.object({
  turn: z.number(),
  prompt: z.string(),
  result_text: z.string(),
  prompt_source: z.string(),
  session_id: z.string().nullable(),
  resumed: z.boolean(),
  decision: z.string().nullable(),
  completion: z.boolean(),
});
const InteractionSchema = z.object({
  mode: z.string(),
  max_turns: z.number(),
  actual_turns: z.number(),
  decision_points: z.number(),
  deterministic_replies: z.number(),
  simulated_replies: z.number(),
  completion_signals: z.number(),
  nudges: z.number(),
  fresh_resume_boundaries: z.number(),
  role_sessions: z.object({ subject: z.array(z.string()), simulator: z.array(z.string()) }),
  end_reason: z.string(),
  turns: z.array(TurnSchema),
});
type Interaction = z.infer<typeof InteractionSchema>;

/** One line of model-requests.jsonl: which run and role sent it (the rest is searched as text). */
const ModelLogLineSchema = z.object({
  run: z.object({ task: z.string(), treatment: z.string(), role: z.string() }),
});

let sandbox: Sandbox;
let out: string;
let cli: CliResult;
let marker: string;
const reports = new Map<string, RunReport>();

function report(id: string): RunReport {
  const r = reports.get(id);
  if (!r) throw new Error(`no report for ${id}`);
  return r;
}

function interaction(id: string): Interaction {
  return InteractionSchema.parse(report(id).interaction);
}

function dimensions(id: string): { name: string; score: number | null; reason: string }[] {
  const rubric = report(id).rubric;
  if (!rubric) throw new Error(`${id}: no rubric`);
  return rubric.dimensions.map((d) => ({ name: d.name, score: d.score, reason: d.reason }));
}

beforeAll(async () => {
  const instruction = await readFile(path.join(SUITE, "simulator-instruction.md"), "utf8");
  const m = /^Marker: (\S+)/m.exec(instruction);
  if (!m?.[1])
    throw new Error('examples/workflow-suite/simulator-instruction.md has no "Marker: ..." line');
  marker = m[1];

  sandbox = await makeSandbox("examples-workflow");
  out = sandbox.dir("out");
  cli = await runCli(
    [
      "run",
      SUITE,
      "--model-script",
      path.join(SUITE, "model-script.yaml"),
      "--count",
      "1",
      "-j",
      "2",
      "--out",
      out,
      "--env",
      "CLAUDE_CODE_MAX_RETRIES=0",
    ],
    { env: sandbox.env() },
  );
  for (const id of await reportedRunIds(out)) reports.set(id, await readRunReport(out, id));
}, 300_000);

afterAll(async () => {
  await sandbox?.remove();
});

describe("examples/workflow-suite: one CLI run", () => {
  it("plans CONTROL+WITH_SKILL for ask-then-build and CONTROL+COMET_STUB for comet-change; exits 1 (CONTROL of ask-then-build fails)", () => {
    expect(cli.stderr).not.toMatch(/internal error/i);
    expect([...reports.keys()].sort()).toEqual(Object.values(RUNS).sort());
    expect(cli.stdout).toContain("3/4 runs passed");
    expect(cli.code).toBe(1);
  });
});

describe("ask-then-build: the Skill asks, the simulated user answers, the subject resumes", () => {
  it("WITH_SKILL passes after two turns of one session, the second fed by the simulator", async () => {
    const r = report(RUNS.planSkill);
    expect(r.passed).toBe(true);
    expect(r.checks_failed).toEqual([]);
    expect(r.checks_passed.map((c) => c.split(":")[0])).toEqual(["plan_location", "plan_content"]);
    const i = interaction(RUNS.planSkill);
    expect(i).toMatchObject({
      mode: "auto_user",
      max_turns: 4,
      actual_turns: 2,
      decision_points: 1,
      deterministic_replies: 0,
      simulated_replies: 1,
      completion_signals: 1,
      nudges: 0,
      fresh_resume_boundaries: 0,
      end_reason: "completed",
    });
    expect(i.role_sessions.subject).toHaveLength(1);
    expect(i.role_sessions.simulator).toHaveLength(1);
    expect(i.role_sessions.simulator[0]).not.toBe(i.role_sessions.subject[0]);
    expect(i.turns).toHaveLength(2);
    const [t1, t2] = i.turns;
    expect(t1).toMatchObject({ turn: 1, prompt_source: "task", resumed: false, completion: false });
    expect(t1?.decision).not.toBeNull();
    expect(t1?.result_text).toContain("Should I name it notes/plan.md? Please confirm.");
    expect(t2).toMatchObject({
      turn: 2,
      prompt_source: "simulator",
      prompt: "Yes, use notes/plan.md.",
      resumed: true,
      completion: true,
    });
    expect(t1?.session_id).toBe(i.role_sessions.subject[0]);
    expect(t2?.session_id).toBe(i.role_sessions.subject[0]);
    expect(await readRunFile(out, RUNS.planSkill, "workspace/notes/plan.md")).toMatch(
      /^# Plan: --verbose flag for greet\n/,
    );
    expect(report(RUNS.planSkill).events_summary?.skills_invoked).toEqual(["plan-first"]);
  });

  it("the suite simulator prompt reaches the simulator and never the subject", async () => {
    // In the simulator's own request (model log, role simulator, this run) ...
    const log = await readJsonLines(path.join(out, "model-requests.jsonl"));
    const sent = log.flatMap((line) => {
      const p = ModelLogLineSchema.safeParse(line);
      return p.success ? [{ run: p.data.run, text: JSON.stringify(line) }] : [];
    });
    const simulatorHits = sent.filter(
      (l) =>
        l.run.role === "simulator" && l.run.task === "ask-then-build" && l.text.includes(marker),
    );
    expect(simulatorHits.length).toBeGreaterThan(0);
    expect(simulatorHits.every((l) => l.run.treatment === "WITH_SKILL")).toBe(true);
    // ... but in no request of any subject ...
    const subjectLines = sent.filter((l) => l.run.role === "subject");
    expect(subjectLines.length).toBeGreaterThan(0);
    expect(subjectLines.filter((l) => l.text.includes(marker))).toEqual([]);
    // ... nor in any subject's stream or workspace.
    for (const id of Object.values(RUNS)) {
      expect(await readRunFile(out, id, "stdout.jsonl"), `${id}/stdout.jsonl`).not.toContain(
        marker,
      );
      const ws = path.join(out, "runs", id, "workspace");
      for (const f of await filesUnder(ws)) {
        expect(await readFile(path.join(ws, f), "utf8"), `${id}/workspace/${f}`).not.toContain(
          marker,
        );
      }
    }
  });

  it("CONTROL never asks: it writes PLAN.md, is nudged once, claims completion, and fails the validator", () => {
    const r = report(RUNS.planControl);
    expect(r.passed).toBe(false);
    expect(r.checks_passed).toEqual([]);
    expect(r.checks_failed).toEqual([
      "plan_location: notes/plan.md missing (markdown files: PLAN.md)",
      "plan_content: no plan at notes/plan.md",
    ]);
    const i = interaction(RUNS.planControl);
    expect(i).toMatchObject({
      mode: "auto_user",
      actual_turns: 2,
      decision_points: 0,
      simulated_replies: 0,
      nudges: 1,
      completion_signals: 1,
      end_reason: "completed",
    });
    expect(i.role_sessions.simulator).toEqual([]);
    expect(i.turns.map((t) => t.prompt_source)).toEqual(["task", "nudge"]);
    expect(existsSync(path.join(out, "runs", RUNS.planControl, "workspace", "PLAN.md"))).toBe(true);
  });
});

describe("comet-change: every comet-workflow dimension scored for COMET_STUB, business-only CONTROL", () => {
  // The values documented in examples/workflow-suite/README.md.
  const COMET_STUB_SCORES: [name: string, score: number, reason: RegExp][] = [
    ["main_flow", 1, /^workflow=full 5\/5 phases \(open, design, build, verify, archive\)$/],
    ["gate_guard", 1, /^guard=2 transition=5 apply=1$/],
    [
      "skill_invocation",
      1,
      /^entry=comet comet_stage=comet-open,comet-design,comet-build,comet-verify,comet-archive openspec=openspec-propose superpowers=brainstorming order=entry-before-stage$/,
    ],
    ["spec_drift", 1, /^spec_written=True spec_synced=True$/],
    ["business_completion", 1, /^1\/1 baseline checks passed$/],
    ["workflow_completion", 1, /^1\/1 baseline checks passed$/],
    ["efficiency", 1, /^turns=\d+ tools=24 dur=/],
    [
      "decision_point_compliance",
      1,
      /^workflow=full 1 asks \(0 tool, 1 replies\) for 1 mutations \(ratio=1\.00\)$/,
    ],
    [
      "artifact_quality",
      1,
      /^workflow=full proposal=ok; design=deep; tasks=5 boxes; tests=w\/ assert$/,
    ],
    [
      "recovery_resilience",
      0.8,
      /^checkpoint=ok trajectory=ok context=missing pending=0 state=phase$/,
    ],
  ];

  it("COMET_STUB passes with the business and the workflow check, in two turns with one simulated reply", () => {
    const r = report(RUNS.cometStub);
    expect(r.passed).toBe(true);
    expect(r.rubric?.profile).toBe("comet-workflow");
    expect(r.checks_failed).toEqual([]);
    expect(r.checks_passed.map((c) => c.split(":")[0])).toEqual([
      "csv_export",
      "openspec_artifacts",
    ]);
    expect(interaction(RUNS.cometStub)).toMatchObject({
      mode: "auto_user",
      max_turns: 6,
      actual_turns: 2,
      decision_points: 1,
      simulated_replies: 1,
      nudges: 0,
      end_reason: "completed",
    });
    const i = interaction(RUNS.cometStub);
    expect(i.turns[1]).toMatchObject({
      prompt_source: "simulator",
      prompt: "Option A: use the standard csv module.",
    });
    expect(i.role_sessions.subject).toHaveLength(1);
  });

  it("COMET_STUB has the ten dimensions in order, none N/A", () => {
    const dims = dimensions(RUNS.cometStub);
    expect(dims.map((d) => d.name)).toEqual(COMET_STUB_SCORES.map(([n]) => n));
    expect(dims.filter((d) => d.score === null)).toEqual([]);
  });

  it.each(COMET_STUB_SCORES)("COMET_STUB %s = %s", (name, score, reason) => {
    const d = dimensions(RUNS.cometStub).find((x) => x.name === name);
    expect(d?.score).toBe(score);
    expect(d?.reason).toMatch(reason);
  });

  it("COMET_STUB weighted_score = (12.0 - 0.2 x 1.0) / 12.0", () => {
    expect(report(RUNS.cometStub).rubric?.weighted_score).toBeCloseTo(11.8 / 12, 10);
  });

  it("COMET_STUB leaves the archived change and no active one", async () => {
    const ws = path.join(out, "runs", RUNS.cometStub, "workspace");
    const files = await filesUnder(ws);
    const archived = "openspec/changes/archive/add-csv-export";
    for (const f of [
      "proposal.md",
      "design.md",
      "tasks.md",
      "verification.md",
      ".comet.yaml",
      ".comet/checkpoint.json",
      ".comet/trajectory.jsonl",
      "specs/sales-export/spec.md",
    ]) {
      expect(files).toContain(`${archived}/${f}`);
    }
    expect(files.filter((f) => f.startsWith("openspec/changes/add-csv-export/"))).toEqual([]);
    expect(await readFile(path.join(ws, archived, ".comet.yaml"), "utf8")).toContain(
      "phase: archive",
    );
  });

  it("CONTROL is the business-only baseline: business_completion and efficiency scored, the rest N/A, workflow check dropped", () => {
    const r = report(RUNS.cometControl);
    expect(r.passed).toBe(true);
    expect(r.checks_passed).toEqual(["csv_export: header and one line per row, commas quoted"]);
    expect(r.checks_failed).toEqual([]);
    const dims = dimensions(RUNS.cometControl);
    expect(dims.map((d) => d.name)).toEqual(COMET_STUB_SCORES.map(([n]) => n));
    for (const d of dims) {
      if (d.name === "business_completion" || d.name === "efficiency")
        expect(d.score, d.name).toBe(1);
      else expect(d, d.name).toMatchObject({ score: null, reason: CONTROL_REASON });
    }
    expect(interaction(RUNS.cometControl)).toMatchObject({
      actual_turns: 1,
      decision_points: 0,
      simulated_replies: 0,
      end_reason: "completed",
    });
  });
});
