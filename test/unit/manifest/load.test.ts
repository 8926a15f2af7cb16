import { mkdtemp, mkdir, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { InputError } from "../../../src/core/errors.js";
import { findManifest, loadManifest } from "../../../src/manifest/index.js";

async function write(rel: string, text: string): Promise<{ dir: string; file: string }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "skillbench-manifest-"));
  const file = path.join(dir, rel);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
  return { dir, file };
}

const HEAD =
  "apiVersion: comet.eval/v1alpha1\nkind: SkillEvalManifest\nmetadata: {name: x}\nskill: {name: s}\n";

async function loadError(text: string): Promise<InputError> {
  const { file } = await write("eval.yaml", text);
  const e = await loadManifest(file).catch((x: unknown) => x);
  if (!(e instanceof InputError)) throw new Error(`expected an InputError, got ${String(e)}`);
  return e;
}

describe("finding the manifest", () => {
  it.each([["eval.yaml"], ["eval.yml"], ["comet/eval.yaml"], ["comet/eval.yml"]])(
    "%s in the Skill folder",
    async (rel) => {
      const { dir, file } = await write(rel, HEAD);
      expect(await findManifest(dir)).toBe(file);
    },
  );

  it("the Skill of comet/eval.yaml is the folder above comet/ (skill.source defaults to it)", async () => {
    const { dir, file } = await write("comet/eval.yaml", HEAD);
    expect((await loadManifest(file)).skillDir).toBe(dir);
  });
});

describe("camelCase and snake_case", () => {
  it("reads both spellings to the same manifest; data keys are kept as written", async () => {
    const camel = `${HEAD}evaluation:\n  baselineTreatments: [git:v1]\n  qualityGates: {minPassRate: 0.5}\n  tasks:\n    - name: t\n      prompt: p\n      expect:\n        notContains: {out_file.txt: [x]}\n        skillInvoked: true\ninteraction: {maxTurns: 3, decisionReplies: [yes]}\n`;
    const snake = `${HEAD}evaluation:\n  baseline_treatments: [git:v1]\n  quality_gates: {minPassRate: 0.5}\n  tasks:\n    - name: t\n      prompt: p\n      expect:\n        not_contains: {out_file.txt: [x]}\n        skill_invoked: true\ninteraction: {max_turns: 3, decision_replies: [yes]}\n`;
    const a = await loadManifest((await write("eval.yaml", camel)).file);
    const b = await loadManifest((await write("eval.yaml", snake)).file);
    expect(b.manifest).toEqual(a.manifest);
    expect(b.tasks).toEqual(a.tasks);
    expect(a.tasks[0]).toMatchObject({ expect: { notContains: { "out_file.txt": ["x"] } } });
  });

  it("keeps a triggers section as written, for the triggers stage", async () => {
    const m = await loadManifest(
      (await write("eval.yaml", `${HEAD}triggers:\n  should_trigger: [a]\n  shouldNot: [b]\n`))
        .file,
    );
    expect(m.manifest.triggers).toEqual({ should_trigger: ["a"], shouldNot: ["b"] });
  });
});

describe("bad manifests: file, field (as written) and line", () => {
  it.each([
    [
      "an unknown top-level key, with a hint",
      `${HEAD}evalution: {}\n`,
      "evalution: unknown field (did you mean evaluation?)",
      5,
    ],
    [
      "a wrong apiVersion",
      HEAD.replace("comet.eval/v1alpha1", "comet.eval/v2"),
      'apiVersion: Invalid option: expected one of "comet.eval/v1alpha1"|"skillbench.eval/v1"',
      1,
    ],
    [
      "an inline task without expect checks",
      `${HEAD}evaluation:\n  tasks:\n    - name: t\n      prompt: p\n      expect: {}\n`,
      "evaluation.tasks[0].expect: expect needs at least one check (files, absent, contains, notContains, json, commands, skillInvoked or tools)",
      9,
    ],
    [
      "a command timeout out of range (snake_case path kept)",
      `${HEAD}evaluation:\n  tasks:\n    - name: t\n      prompt: p\n      expect:\n        commands:\n          - {run: "true", timeout: 0}\n`,
      "evaluation.tasks[0].expect.commands[0].timeout: Too small: expected number to be >=1",
      11,
    ],
    [
      "a bad task name",
      `${HEAD}evaluation:\n  tasks:\n    - {name: "-x", prompt: p, expect: {files: [a]}}\n`,
      "evaluation.tasks[0].name: must match ^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$",
      7,
    ],
    [
      "a duplicate task name",
      `${HEAD}evaluation:\n  tasks:\n    - {name: a, prompt: p, expect: {files: [a]}}\n    - {name: a, prompt: p, expect: {files: [a]}}\n`,
      'evaluation.tasks[1].name: task name "a" is also used by evaluation.tasks[0]',
      8,
    ],
    [
      "both spellings of one key",
      `${HEAD}interaction: {maxTurns: 2, max_turns: 3}\n`,
      "interaction.max_turns: both maxTurns and max_turns are given; keep one",
      undefined,
    ],
    [
      "an unknown quality gate",
      `${HEAD}evaluation:\n  qualityGates: {maxCost: 3}\n`,
      "evaluation.qualityGates.maxCost: unknown gate (known: minPassRate, minWeightedScore, minChecksPassRate, minPassAt<K>, minPassHat<K> (pass^K), min<Dimension> (a rubric dimension, e.g. minSkillInvocation), minJudge<Dimension> (an LLM-judge dimension, e.g. minJudgeTaskCompletion; needs a judge calibration), noRegression)",
      6,
    ],
    [
      "a baseline with both path and git",
      `${HEAD}evaluation:\n  baselineTreatments:\n    - {path: ../v1, git: v1}\n`,
      "evaluation.baselineTreatments[0]: a baseline needs exactly one of path or git",
      7,
    ],
    [
      "a trajectory assertion with a negative max_calls (tool names kept as written)",
      `${HEAD}evaluation:\n  tasks:\n    - name: t\n      prompt: p\n      expect:\n        tools:\n          max_calls: {run_shell_command: -1}\n`,
      "evaluation.tasks[0].expect.tools.max_calls.run_shell_command: Too small: expected number to be >=0",
      11,
    ],
    [
      "a trajectory assertion in camelCase (its keys are read as written)",
      `${HEAD}evaluation:\n  tasks:\n    - name: t\n      prompt: p\n      expect:\n        tools: {notContains: [Bash]}\n`,
      "evaluation.tasks[0].expect.tools.notContains: unknown field (did you mean not_contains?)",
      10,
    ],
    [
      "a step with a bad regex",
      `${HEAD}evaluation:\n  steps:\n    ordered: true\n    expect:\n      - {tool: command}\n      - {command: "pytest("}\n`,
      "evaluation.steps.expect[1].command: Invalid regular expression: /pytest(/: Unterminated group",
      10,
    ],
    [
      "a task's step with no condition",
      `${HEAD}evaluation:\n  tasks:\n    - name: t\n      prompt: p\n      expect: {files: [a]}\n      steps:\n        expect: [{name: x}]\n`,
      "evaluation.tasks[0].steps.expect[0]: a step needs at least one of tool, args, command, writes or reads_skill_file",
      11,
    ],
    [
      "a source task with an inline field",
      `${HEAD}evaluation:\n  tasks:\n    - {source: tasks/a, prompt: p}\n`,
      "evaluation.tasks[0].prompt: unknown field",
      7,
    ],
  ])("%s", async (_what, text, message, line) => {
    const e = await loadError(text);
    expect(e.message).toContain(`eval.yaml: ${message}`);
    expect(e.details.line).toBe(line);
    expect(e.details.file).toMatch(/eval\.yaml$/);
  });

  it("invalid YAML names its line and column", async () => {
    const e = await loadError(`${HEAD}evaluation: [\n`);
    expect(e.message).toMatch(/eval\.yaml: line \d+, column \d+: invalid YAML/);
  });

  it("lists every problem at once", async () => {
    const e = await loadError(`${HEAD}foo: 1\nbar: 2\n`);
    expect(e.message).toMatch(
      /2 problems\n {2}.*foo: unknown field \(line 5\)\n {2}.*bar: unknown field \(line 6\)/,
    );
  });
});
