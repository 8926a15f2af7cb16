/**
 * Issue "The LLM judge overlay, and re-scoring stored runs": change a rubric weight in
 * the results folder's stored profile, rescore, get new scores with no agent spawned;
 * the judge's answers come from its cache, so re-judging costs nothing.
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  assertBuilt,
  fixtureSuite,
  makeSandbox,
  readRunReport,
  runArgs,
  runCli,
  type Sandbox,
} from "../helpers/cli.js";

let box: Sandbox;
let out: string;
const script = path.join(fixtureSuite("e2e-rescore-judge"), "model-script.yaml");
const RUN = "note-CONTROL-r1";

async function requestCount(): Promise<number> {
  return (await readFile(path.join(out, "model-requests.jsonl"), "utf8"))
    .split("\n")
    .filter(Boolean).length;
}

beforeAll(async () => {
  assertBuilt();
  box = await makeSandbox("skillbench-rescore-judge-");
  out = box.dir("results");
  const res = await runCli(
    runArgs("e2e-rescore-judge", out, "--judge", "--judge-model", "judge-model-x", "--exit-zero"),
    {
      env: box.env(),
    },
  );
  expect(res.code, res.stderr).toBe(0);
});

afterAll(async () => {
  await box.remove();
});

describe("rescore with a changed stored profile and a cached judge", () => {
  it("the run was scored by the suite profile and judged", async () => {
    const r = await readRunReport(out, RUN);
    expect(r.rubric?.profile).toBe("house");
    expect(r.rubric?.dimensions.map((d) => [d.name, d.score])).toEqual([
      ["wrote_note", 1],
      ["ran_tests", 0],
    ]);
    expect(r.rubric?.weighted_score).toBeCloseTo(0.5, 10);
    expect(r.judge?.status).toBe("enabled_and_successful");
    expect(r.judge?.dimensions.map((d) => [d.name, d.score])).toEqual([
      ["task_completion", 0.9],
      ["output_quality", 0.7],
      ["instruction_adherence", 1],
      ["custom_0", 0.8],
    ]);
    expect(r.judge?.lines).toContain("[RUBRIC-JUDGE] status: enabled_and_successful");
    // The judge never changes rule scores.
    expect(r.rubric_lines.some((l) => l.startsWith("[RUBRIC-JUDGE]"))).toBe(false);
  });

  it("a new weight in the stored profile gives new scores, with no agent and no judge call", async () => {
    const requests = await requestCount();
    const profile = path.join(out, "profiles", "house.toml");
    const text = await readFile(profile, "utf8");
    await writeFile(
      profile,
      text.replace('name = "wrote_note"\nweight = 1.0', 'name = "wrote_note"\nweight = 3.0'),
    );

    const args = [
      "rescore",
      out,
      "--judge",
      "--judge-model",
      "judge-model-x",
      "--model-script",
      script,
    ];
    const first = await runCli(args, { env: box.env() });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/1 runs re-scored, 1 changed/);
    const r = await readRunReport(out, RUN);
    // (1·3 + 0·1) / (3 + 1)
    expect(r.rubric?.weighted_score).toBeCloseTo(0.75, 10);
    expect(r.rubric?.dimensions.find((d) => d.name === "wrote_note")?.weight).toBe(3);
    expect(r.judge?.cached).toBe(true);
    expect(r.judge?.calls).toBe(0);
    expect(r.judge?.dimensions.find((d) => d.name === "custom_0")?.score).toBe(0.8);

    const second = await runCli(args, { env: box.env() });
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toMatch(/1 runs re-scored, 0 changed/);
    expect((await readRunReport(out, RUN)).judge?.calls).toBe(0);
    // The run's own model log saw nothing new: no agent ran.
    expect(await requestCount()).toBe(requests);
  });

  it("a changed judge model is judged again", async () => {
    const res = await runCli(
      ["rescore", out, "--judge", "--judge-model", "judge-model-y", "--model-script", script],
      {
        env: box.env(),
      },
    );
    expect(res.code, res.stderr).toBe(0);
    const r = await readRunReport(out, RUN);
    expect(r.judge?.model).toBe("judge-model-y");
    expect(r.judge?.cached).toBe(false);
    expect(r.judge?.calls).toBeGreaterThan(0);
  });
});
