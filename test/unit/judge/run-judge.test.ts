import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JudgeCache } from "../../../src/judge/cache.js";
import { NO_CHANGE_DIR_REASON } from "../../../src/scoring/profiles/comet-workflow/judge.js";
import type { ActiveJudgeConfig } from "../../../src/judge/config.js";
import { runJudge, type RunJudgeInput } from "../../../src/judge/run-judge.js";
import {
  JudgeBlockSchema,
  type JudgeReply,
  type JudgeTransport,
} from "../../../src/judge/types.js";
import { makeRedactor } from "../../../src/util/redact.js";

const CFG: ActiveJudgeConfig = {
  enabled: true,
  model: "judge-m",
  transport: "http",
  baseUrl: "http://unused",
  credential: { kind: "token", value: "unused-token" },
  samples: 1,
  maxTokens: 2048,
  timeoutMs: 1000,
};

function ok(text: string, cost: number | null = null): JudgeReply {
  return { ok: true, text, tokens: { input: 10, output: 2 }, costUsd: cost };
}
const json = (s: Record<string, number>): string =>
  `\`\`\`json\n${JSON.stringify({ scores: Object.fromEntries(Object.entries(s).map(([k, v]) => [k, { score: v, reason: `r-${k}` }])) })}\n\`\`\``;

/** A transport that plays the given replies in order and keeps the prompts. */
function scripted(replies: JudgeReply[]): JudgeTransport & { prompts: string[] } {
  const prompts: string[] = [];
  const t = (async (p: string) => {
    prompts.push(p);
    return replies[prompts.length - 1] ?? { ok: false, error: "script exhausted" };
  }) as JudgeTransport & { prompts: string[] };
  t.prompts = prompts;
  return t;
}

let root: string;
let ws: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "skillbench-judge-run-"));
  ws = path.join(root, "ws");
  await mkdir(ws);
  await writeFile(path.join(ws, "out.txt"), "hello sk-host-secret-777\n");
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

function input(over: Partial<RunJudgeInput>): RunJudgeInput {
  return {
    config: CFG,
    profile: "generic",
    workspace: ws,
    baseline: { passed: ["a"], failed: [] },
    rubricCriteria: [],
    ...over,
  };
}

describe("runJudge", () => {
  it("disabled: null; skipped: the status line, no call", async () => {
    expect(await runJudge(input({ config: { enabled: false } }))).toBeNull();
    const t = scripted([]);
    const b = await runJudge(
      input({ config: { enabled: true, skipped: "why not" }, transport: t }),
    );
    expect(b).toMatchObject({
      status: "skipped",
      reason: "why not",
      lines: ["[RUBRIC-JUDGE] status: skipped - why not"],
      calls: 0,
    });
    expect(t.prompts).toEqual([]);
  });

  it("samples: mean and spread per dimension, tokens and cost summed", async () => {
    const t = scripted([
      ok(json({ task_completion: 1, output_quality: 0.5, instruction_adherence: 1 }), 0.01),
      ok(json({ task_completion: 0.5, output_quality: 0.5, instruction_adherence: 1 }), 0.02),
      ok(json({ task_completion: 0.6, output_quality: 0.5 }), null),
    ]);
    const b = await runJudge(input({ config: { ...CFG, samples: 3 }, transport: t }));
    expect(JudgeBlockSchema.parse(b)).toBeTruthy();
    expect(b?.status).toBe("enabled_and_successful");
    const tc = b?.dimensions.find((d) => d.name === "task_completion");
    expect(tc?.samples).toEqual([1, 0.5, 0.6]);
    expect(tc?.score).toBeCloseTo(0.7, 10);
    expect(tc?.spread.min).toBe(0.5);
    expect(tc?.spread.max).toBe(1);
    expect(tc?.spread.stdev).toBeCloseTo(Math.sqrt((0.3 ** 2 + 0.2 ** 2 + 0.1 ** 2) / 2), 10);
    expect(b?.dimensions.find((d) => d.name === "instruction_adherence")?.samples).toEqual([1, 1]);
    expect(b).toMatchObject({ calls: 3, samples_parsed: 3, tokens: { input: 30, output: 6 } });
    expect(b?.cost_usd).toBeCloseTo(0.03, 10);
    expect(b?.lines).toEqual([
      "[RUBRIC-JUDGE] task_completion: 0.70 - r-task_completion",
      "[RUBRIC-JUDGE] output_quality: 0.50 - r-output_quality",
      "[RUBRIC-JUDGE] instruction_adherence: 1.00 - r-instruction_adherence",
      "[RUBRIC-JUDGE] status: enabled_and_successful",
    ]);
  });

  it.each<[string, JudgeReply[], Record<string, unknown>, number]>([
    [
      "repaired after one bad answer",
      [ok("no idea"), ok("[RUBRIC-JUDGE] task_completion: 0.4 - partial")],
      { status: "enabled_and_successful", repairs: 1, calls: 2 },
      2,
    ],
    [
      "unparseable twice",
      [ok("no idea"), ok("still no idea")],
      { status: "failed", repairs: 1, calls: 2 },
      2,
    ],
    [
      "transport error",
      [{ ok: false, error: "HTTP 500 boom" }],
      {
        status: "failed",
        reason: "HTTP 500 boom",
        lines: ["[RUBRIC-JUDGE] status: failed - HTTP 500 boom"],
      },
      1,
    ],
  ])("%s", async (_n, replies, expected, calls) => {
    const t = scripted(replies);
    const b = await runJudge(input({ transport: t }));
    expect(b).toMatchObject(expected);
    expect(t.prompts.length).toBe(calls);
    if (calls === 2) expect(t.prompts[1]).toContain("could not be parsed");
  });

  it.each<[string, JudgeReply[], string]>([
    ["unparseable twice", [ok("no idea"), ok("still no idea")], "also after one repair attempt"],
    ["transport error", [{ ok: false, error: "HTTP 500 boom" }], "HTTP 500 boom"],
    ["timeout", [{ ok: false, error: "timeout after 120s" }], "timeout after 120s"],
  ])(
    "fails closed (%s): every dimension N/A with the cause, no score",
    async (_n, replies, cause) => {
      const b = await runJudge(input({ transport: scripted(replies) }));
      expect(b?.status).toBe("failed");
      expect(b?.dimensions.map((d) => [d.name, d.score])).toEqual([
        ["task_completion", null],
        ["output_quality", null],
        ["instruction_adherence", null],
      ]);
      for (const d of b?.dimensions ?? []) expect(d.reason).toContain(cause);
    },
  );

  it("a dimension the verdict leaves out is N/A, the scored ones keep their score", async () => {
    const b = await runJudge(
      input({ transport: scripted([ok("[RUBRIC-JUDGE] task_completion: 0.4 - partial")]) }),
    );
    expect(b?.status).toBe("enabled_and_successful");
    expect(b?.dimensions.map((d) => [d.name, d.score])).toEqual([
      ["task_completion", 0.4],
      ["output_quality", null],
      ["instruction_adherence", null],
    ]);
  });

  it("cache: a second identical call makes no request; a changed model does", async () => {
    const cache = new JudgeCache(path.join(root, "cache"));
    const t1 = scripted([ok(json({ task_completion: 0.9 }), 0.5)]);
    const first = await runJudge(input({ cache, transport: t1 }));
    expect(first).toMatchObject({ cached: false, calls: 1 });
    const t2 = scripted([]);
    const second = await runJudge(input({ cache, transport: t2 }));
    expect(t2.prompts).toEqual([]);
    expect(second).toMatchObject({
      cached: true,
      calls: 0,
      cost_usd: 0,
      tokens: { input: 0, output: 0 },
      lines: first?.lines,
      prompt_hash: first?.prompt_hash,
    });
    const t3 = scripted([ok(json({ task_completion: 0.1 }))]);
    const third = await runJudge(
      input({ cache, transport: t3, config: { ...CFG, model: "other" } }),
    );
    expect(t3.prompts.length).toBe(1);
    expect(third?.cached).toBe(false);
  });

  it("a failure is not cached", async () => {
    const cache = new JudgeCache(path.join(root, "cache-fail"));
    await runJudge(input({ cache, transport: scripted([{ ok: false, error: "HTTP 529 busy" }]) }));
    const t = scripted([ok(json({ task_completion: 1 }))]);
    expect(await runJudge(input({ cache, transport: t }))).toMatchObject({
      status: "enabled_and_successful",
      cached: false,
    });
  });

  it("redacts the prompt before sending and the block", async () => {
    const t = scripted([ok("[RUBRIC-JUDGE] task_completion: 1 - printed sk-host-secret-777")]);
    const b = await runJudge(input({ transport: t, redact: makeRedactor(["sk-host-secret-777"]) }));
    expect(t.prompts[0]).not.toContain("sk-host-secret-777");
    expect(JSON.stringify(b)).not.toContain("sk-host-secret-777");
  });

  it("comet-workflow: no change dir -> skipped with a reason and no call; docs/openspec layout is found", async () => {
    const t = scripted([]);
    expect(await runJudge(input({ profile: "comet-workflow", transport: t }))).toMatchObject({
      status: "skipped",
      reason: NO_CHANGE_DIR_REASON,
      prompt_kind: "comet",
    });
    expect(t.prompts).toEqual([]);
    const cws = path.join(root, "comet");
    await mkdir(path.join(cws, "docs/openspec/changes/add-x/specs/cap"), { recursive: true });
    await writeFile(path.join(cws, "docs/openspec/changes/add-x/proposal.md"), "PROPOSAL-TEXT");
    await writeFile(path.join(cws, "docs/openspec/changes/add-x/specs/cap/spec.md"), "SPEC-TEXT");
    const t2 = scripted([
      ok(json({ artifact_quality: 0.7, spec_drift: 0.9, main_flow: 0.5, task_completion: 1 })),
    ]);
    const b = await runJudge(input({ profile: "comet-workflow", workspace: cws, transport: t2 }));
    expect(t2.prompts[0]).toContain("PROPOSAL-TEXT");
    expect(t2.prompts[0]).toContain("SPEC-TEXT");
    expect(t2.prompts[0]).toContain("(missing: design.md)");
    expect(b?.dimensions.map((d) => d.name)).toEqual([
      "artifact_quality",
      "spec_drift",
      "main_flow",
    ]);
  });
});
