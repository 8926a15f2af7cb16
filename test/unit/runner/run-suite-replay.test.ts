/**
 * runSuite in-process: the replay driver plays recorded agent streams and file changes, so the
 * whole pipeline (workspace, agent phase, evidence, validators, rubric, reports) runs without a
 * binary or a model server.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import {
  claudeDriver,
  codexDriver,
  replayDriver,
  type ReplayTurn,
} from "../../../src/agents/index.js";
import { RunPlanSchema } from "../../../src/plan/run-plan.js";
import { runSuite } from "../../../src/runner/run-suite.js";
import { readReports } from "../../../src/store/read.js";

const SUITE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../fixtures/suites/e2e-matrix",
);
const tmp: string[] = [];
afterAll(async () => {
  for (const d of tmp) await rm(d, { recursive: true, force: true });
});

const line = (v: unknown): string => `${JSON.stringify(v)}\n`;

/** A Claude Code stream: optional Skill call, a Write, a final result. */
function claudeTurn(ws: string, skill: boolean, note: string): ReplayTurn {
  const s = "sess-1";
  const ev: unknown[] = [
    {
      type: "system",
      subtype: "init",
      session_id: s,
      cwd: ws,
      model: "m",
      claude_code_version: "2.1.328",
    },
  ];
  if (skill)
    ev.push(
      {
        type: "assistant",
        session_id: s,
        message: {
          id: "m1",
          model: "m",
          content: [{ type: "tool_use", id: "t1", name: "Skill", input: { skill: "greeter" } }],
        },
      },
      {
        type: "user",
        session_id: s,
        message: {
          content: [
            { type: "tool_result", tool_use_id: "t1", content: "Launching skill: greeter" },
          ],
        },
      },
    );
  ev.push(
    {
      type: "assistant",
      session_id: s,
      message: {
        id: "m2",
        model: "m",
        content: [
          {
            type: "tool_use",
            id: "t2",
            name: "Write",
            input: { file_path: `${ws}/note.txt`, content: note },
          },
        ],
      },
    },
    {
      type: "user",
      session_id: s,
      message: { content: [{ type: "tool_result", tool_use_id: "t2", content: "ok" }] },
      tool_use_result: { type: "create" },
    },
    {
      type: "result",
      subtype: "success",
      is_error: false,
      result: "Done.",
      session_id: s,
      num_turns: 3,
      usage: { input_tokens: 10, output_tokens: 5 },
    },
  );
  return { stdout: ev.map(line).join(""), files: { "note.txt": note } };
}

async function outDir(): Promise<string> {
  const d = await mkdtemp(path.join(os.tmpdir(), "skillbench-replay-test-"));
  tmp.push(d);
  return path.join(d, "out");
}

describe("runSuite through the replay driver", () => {
  it("runs a two-treatment experiment in-process and writes every report", async () => {
    const driver = replayDriver({
      recorded: claudeDriver,
      version: "2.1.328",
      play: (r) => {
        const withSkill = r.prompt !== "" && r.workspace.includes("WITH_SKILL");
        return claudeTurn(r.workspace, withSkill, withSkill ? "noted\n" : "a note\n");
      },
    });
    const out = await outDir();
    const summary = await runSuite({
      suite: SUITE,
      task: "needs-skill",
      count: 2,
      concurrency: 1,
      out,
      driver,
      // Played in-process: nothing runs that a sandbox could hold (the default is auto).
      sandbox: "local",
      hostEnv: { PATH: process.env.PATH, ANTHROPIC_API_KEY: "sk-replay" },
    });
    expect(summary.reports).toHaveLength(4);
    // The summary holds digests; the whole reports are in the results folder.
    const { reports } = await readReports(out);
    expect(reports.map((r) => r.run_id)).toEqual(summary.reports.map((r) => r.run_id));
    expect(summary.reports[0]?.events_summary).not.toHaveProperty("files_created");
    const by = (t: string) => reports.filter((r) => r.treatment === t);
    for (const r of by("WITH_SKILL")) {
      expect(r.status).toBe("passed");
      expect(r.events_summary?.skills_invoked).toEqual(["greeter"]);
      expect(r.events_summary?.files_created).toEqual(["note.txt"]);
      expect(r.agent.name).toBe("claude-code");
      expect(r.agent.version).toBe("2.1.328");
    }
    for (const r of by("CONTROL")) {
      expect(r.status).toBe("failed");
      expect(r.events_summary?.skills_invoked).toEqual([]);
    }
    // The stream went through the run's writer: stored, then re-read for the evidence.
    const stored = await readFile(
      path.join(out, "runs", by("WITH_SKILL")[0]!.run_id, "stdout.jsonl"),
      "utf8",
    );
    expect(stored).toContain('"name":"Skill"');
    const summaryMd = await readFile(path.join(out, "summary.md"), "utf8");
    expect(summaryMd).toContain("WITH_SKILL");
    // Each run was settled once, and its plan is stored beside its report.
    const withSkill = by("WITH_SKILL")[0]!;
    const plan = RunPlanSchema.parse(
      JSON.parse(await readFile(path.join(out, "runs", withSkill.run_id, "plan.json"), "utf8")),
    );
    expect(plan).toMatchObject({ run_id: withSkill.run_id, profile: "generic", timeout_sec: 120 });
    expect(plan.run_uuid).toBe(withSkill.run_uuid);
    expect(plan.sandbox.kind).toBe("local");
  });

  it("records a crashed agent as an errored run while the others complete", async () => {
    const driver = replayDriver({
      recorded: claudeDriver,
      play: (r) =>
        r.workspace.includes("CONTROL") ? null : claudeTurn(r.workspace, true, "noted\n"),
    });
    const crashOut = await outDir();
    const summary = await runSuite({
      suite: SUITE,
      task: "needs-skill",
      count: 1,
      concurrency: 1,
      out: crashOut,
      driver,
      // Played in-process: nothing runs that a sandbox could hold (the default is auto).
      sandbox: "local",
      hostEnv: { PATH: process.env.PATH, ANTHROPIC_API_KEY: "sk-replay" },
    });
    const { reports } = await readReports(crashOut);
    expect(reports).toHaveLength(summary.reports.length);
    const control = reports.find((r) => r.treatment === "CONTROL");
    const withSkill = reports.find((r) => r.treatment === "WITH_SKILL");
    expect(control?.agent_outcome).toBe("empty_output");
    expect(control?.outcome).toBe("agent_error");
    expect(control?.passed).toBe(false);
    expect(withSkill?.status).toBe("passed");
  });

  it("decodes a recorded Codex stream with Codex's decoder and layout", async () => {
    const driver = replayDriver({
      recorded: codexDriver,
      play: (r) => ({
        files: { "note.txt": "noted\n" },
        stdout: [
          { type: "thread.started", thread_id: "th-1" },
          { type: "turn.started" },
          {
            type: "item.completed",
            item: {
              id: "i0",
              type: "command_execution",
              command: "/bin/bash -lc 'cat .agents/skills/greeter/SKILL.md'",
              aggregated_output: "# Greeter",
              exit_code: 0,
              status: "completed",
            },
          },
          {
            type: "item.completed",
            item: {
              id: "i1",
              type: "file_change",
              changes: [{ path: `${r.workspace}/note.txt`, kind: "add" }],
              status: "completed",
            },
          },
          { type: "item.completed", item: { id: "i2", type: "agent_message", text: "Done." } },
          {
            type: "turn.completed",
            usage: { input_tokens: 100, cached_input_tokens: 40, output_tokens: 7 },
          },
        ]
          .map(line)
          .join(""),
      }),
    });
    const out = await outDir();
    const summary = await runSuite({
      suite: SUITE,
      task: "needs-skill",
      treatment: "WITH_SKILL",
      count: 1,
      out,
      driver,
      // Played in-process: nothing runs that a sandbox could hold (the default is auto).
      sandbox: "local",
      hostEnv: { PATH: process.env.PATH, OPENAI_API_KEY: "sk-replay" },
    });
    expect(summary.reports).toHaveLength(1);
    const r = (await readReports(out)).reports[0]!;
    expect(r.agent.name).toBe("codex");
    expect(r.status).toBe("passed");
    expect(r.events_summary?.skills_invoked).toEqual(["greeter"]);
    expect(r.events_summary?.files_created).toEqual(["note.txt"]);
    expect(r.events_summary?.total_cost_usd).toBeNull();
    expect(r.events_summary?.input_tokens).toBe(60);
    expect(r.events_summary?.cache_read_input_tokens).toBe(40);
  });
});
