/**
 * The eval manifest's `judge:` section (issue 38 item 1): compiled into the suite's
 * skillbench.yaml and read by the run as a suite's judge section, the CLI's flags winning.
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import YAML from "yaml";
import { describe, expect, it } from "vitest";
import { resolveJudgeConfig } from "../../../src/judge/config.js";
import { loadManifest } from "../../../src/manifest/index.js";
import { judgeConfigYaml } from "../../../src/manifest/judge-config.js";

const HEAD =
  "apiVersion: comet.eval/v1alpha1\nkind: SkillEvalManifest\nmetadata: {name: x}\nskill: {name: s}\n";

/** The judge section the compiled suite's skillbench.yaml holds for a manifest's text. */
async function compiledSection(judgeYaml: string): Promise<unknown> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "skillbench-manifest-judge-"));
  const file = path.join(dir, "eval.yaml");
  await writeFile(file, `${HEAD}${judgeYaml}`);
  const m = await loadManifest(file);
  const text = judgeConfigYaml(m.manifest.judge, file);
  return text === null ? undefined : (YAML.parse(text) as { judge: unknown }).judge;
}

describe("the manifest's judge section in the compiled suite", () => {
  it.each([
    ["judge: {mode: pairwise}", { mode: "pairwise" }],
    [
      "judge: {mode: rubric, model: m1, base_url: 'http://127.0.0.1:9/v1', samples: 3}",
      { mode: "rubric", model: "m1", base_url: "http://127.0.0.1:9/v1", samples: 3 },
    ],
    ["judge: {baseUrl: 'http://h/v1'}", { base_url: "http://h/v1" }],
    // the original schema's agent alone changes nothing, as before
    ["judge: {agent: claude-code}", undefined],
    ["", undefined],
  ])("%s → %j", async (text, want) => {
    expect(await compiledSection(`${text}\n`)).toEqual(want);
  });

  it("refuses another mode, naming the field", async () => {
    await expect(compiledSection("judge: {mode: best-of}\n")).rejects.toThrow(/judge\.mode/);
  });
});

describe("the run's judge from the manifest's section, the flags winning", () => {
  const env = { BENCH_JUDGE_BASE_URL: "http://127.0.0.1:9/v1", BENCH_JUDGE_MODEL: "env-model" };
  const suite = { mode: "pairwise", model: "file-model" };
  it.each([
    ["no flag: the file's mode and model", {}, { mode: "pairwise", model: "file-model" }],
    [
      "--judge rubric wins",
      { judgeMode: "rubric" as const },
      { mode: undefined, model: "file-model" },
    ],
    ["--judge-model wins", { judgeModel: "flag-model" }, { mode: "pairwise", model: "flag-model" }],
    ["--no-judge wins", { judge: false }, null],
  ])("%s", (_name, cli, want) => {
    const c = resolveJudgeConfig({ env, cli, suite, suiteFile: "skillbench.yaml" });
    if (want === null) expect(c).toEqual({ enabled: false });
    else expect("model" in c ? { mode: c.mode, model: c.model } : c).toEqual(want);
  });
});
