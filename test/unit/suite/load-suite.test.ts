import path from "node:path";
import { describe, expect, it } from "vitest";
import { InputError } from "../../../src/core/errors.js";
import {
  loadSuite,
  TaskSpecSchema,
  TreatmentSpecSchema,
  type SuiteWarning,
} from "../../../src/suite/index.js";
import { load, loadError, makeDir, oneTask } from "./make-suite.js";

const FIXTURE = path.resolve("test/fixtures/suites/load-basic");

async function fixture() {
  const warnings: SuiteWarning[] = [];
  const suite = await loadSuite(FIXTURE, { onWarning: (w) => warnings.push(w) });
  return { suite, warnings };
}

describe("loadSuite on the load-basic fixture", () => {
  it("finds the tasks in folder order and skips a folder without task files (with a warning)", async () => {
    const { suite, warnings } = await fixture();
    expect(suite.root).toBe(FIXTURE);
    expect(suite.tasks.map((t) => t.name)).toEqual(["alpha", "comet-beta", "full-task"]);
    expect(warnings).toContainEqual({
      file: "tasks/notes",
      message: "no task.toml or instruction.md; not a task, ignored",
    });
    expect(suite.warnings).toEqual(warnings);
  });

  it("fills every default of an empty task.toml", async () => {
    const { suite } = await fixture();
    const alpha = suite.tasks[0];
    expect(alpha).toMatchObject({
      name: "alpha",
      dir: path.join(FIXTURE, "tasks/alpha"),
      rel_dir: "tasks/alpha",
      metadata: {
        name: "alpha",
        description: "",
        difficulty: "medium",
        category: "",
        tags: [],
        default_treatments: [],
      },
      template: { required: [] },
      environment: { description: "", dockerfile: "Dockerfile", timeout_sec: 900 },
      validation: { test_scripts: [], target_artifacts: [], timeout: 120 },
      evaluation: {
        profile: null,
        inferred_profile: "generic",
        required_skills: [],
        expected_artifacts: [],
        require_skill_invocation: false,
        rubric_criteria: [],
        native_terminal: "archive",
      },
      interaction: {
        mode: "none",
        max_turns: 12,
        simulator_prompt: null,
        decision_patterns: [],
        decision_reply: null,
        decision_replies: [],
        continue_prompt: "Please continue with the next phase of the workflow.",
        fresh_resume_marker: null,
      },
      setup: { template_vars: {}, data: [] },
      instruction_template: "Say hello. Run {run_id}.\n",
      environment_dir: null,
      validation_dir: null,
      data_dir: null,
    });
    expect(alpha?.environment).not.toHaveProperty("cpus");
    expect(alpha?.evaluation).not.toHaveProperty("skill_package_path");
    expect(alpha?.hash).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it("reads every field of a full task.toml", async () => {
    const { suite } = await fixture();
    const full = suite.tasks[2];
    const dir = path.join(FIXTURE, "tasks/full");
    expect(full).toMatchObject({
      name: "full-task",
      metadata: {
        description: "Every field set",
        difficulty: "hard",
        category: "testing",
        tags: ["a", "b"],
        default_treatments: ["WITH_SKILL"],
      },
      template: { required: ["dataset"] },
      environment: {
        description: "Python workspace",
        dockerfile: "environment/Dockerfile",
        timeout_sec: 300,
        cpus: 2,
        memory: "2g",
        pids: 256,
      },
      validation: {
        test_scripts: ["test_full.py", "check.sh"],
        target_artifacts: ["out/result.json"],
        timeout: 60,
      },
      evaluation: {
        profile: "generic",
        inferred_profile: "generic",
        required_skills: ["demo-skill"],
        expected_artifacts: [
          { paths: ["out/result.json"] },
          { paths: ["docs/*.md", "README.md"] },
          { paths: ["src/main.py"] },
        ],
        require_skill_invocation: true,
        rubric_criteria: ["Is tidy"],
        native_terminal: "active-blocked",
        // A workspace path: the agent makes the package during the run.
        skill_package_path: "pkg",
      },
      interaction: {
        mode: "auto_user",
        max_turns: 4,
        simulator_prompt: "Be brief.",
        decision_patterns: ["normalization"],
        decision_reply: null,
        decision_replies: ["yes", "no"],
        continue_prompt: "Go on.",
        fresh_resume_marker: "RESUME_READY",
      },
      setup: { template_vars: { project: "proj-{run_id}" }, data: [] },
      environment_dir: path.join(dir, "environment"),
      validation_dir: path.join(dir, "validation"),
      data_dir: path.join(dir, "data"),
    });
  });

  it("infers comet-workflow (and auto_user) from a comet-* name", async () => {
    const { suite } = await fixture();
    expect(suite.tasks[1]?.evaluation).toMatchObject({
      profile: null,
      inferred_profile: "comet-workflow",
    });
    expect(suite.tasks[1]?.interaction.mode).toBe("auto_user");
  });

  it("loads treatments: CONTROL first, overrides keep their position, anchors and merge keys work", async () => {
    const { suite, warnings } = await fixture();
    expect(suite.treatments.map((t) => t.name)).toEqual([
      "CONTROL",
      "INLINE",
      "WITH_SKILL",
      "BY_STRING",
    ]);
    const [control, inline, withSkill, byString] = suite.treatments;
    expect(control).toMatchObject({ description: "Plain baseline", skills: [], claude_md: null });
    // comet/b.yaml sorts before common/a.yaml, so a.yaml's INLINE wins.
    expect(inline).toMatchObject({
      description: "Inline skill",
      file: path.join(FIXTURE, "treatments/common/a.yaml"),
    });
    expect(inline?.skills).toEqual([
      expect.objectContaining({
        name: "my-inline",
        source_type: "inline",
        path: null,
        content: "---\nname: my-inline\n---\nBe nice.\n",
      }),
    ]);
    expect(warnings).toContainEqual({
      file: "treatments/common/a.yaml",
      field: "INLINE",
      message: "INLINE: overrides the definition in treatments/comet/b.yaml",
    });
    expect(withSkill).toMatchObject({
      description: "shared description",
      claude_md: "Prefer the skill.",
      profile: "generic",
      required_skills: ["demo-skill"],
      require_skill_invocation: true,
      expected_artifacts: [{ paths: ["out/result.json"] }],
    });
    const skillDir = path.join(FIXTURE, "skills/demo-skill");
    expect(withSkill?.skills).toEqual([
      expect.objectContaining({
        name: "demo-skill",
        source_type: "path",
        path: skillDir,
        content: null,
      }),
    ]);
    // A string entry naming SKILL.md itself, found relative to the suite root.
    expect(byString?.skills).toEqual([
      expect.objectContaining({ name: "demo-skill", path: skillDir }),
    ]);
    expect(byString?.skills[0]?.hash).toBe(withSkill?.skills[0]?.hash);
    for (const t of suite.treatments) expect(() => TreatmentSpecSchema.parse(t)).not.toThrow();
    for (const t of suite.tasks) expect(() => TaskSpecSchema.parse(t)).not.toThrow();
  });

  it("reads skillbench.yaml, profiles and the simulator instruction", async () => {
    const { suite } = await fixture();
    expect(suite.config).toEqual({
      count: 3,
      concurrency: 2,
      out: path.join(FIXTURE, "results"),
      model: "claude-test",
      treatment: "CONTROL,WITH_SKILL",
      timeout_sec: 600,
      model_script: path.join(FIXTURE, "model-script.yaml"),
      env: { FOO: "bar", NUM: "3" },
      pass_env: ["HOME"],
      judge: { model: "x" },
    });
    expect(suite.profiles).toEqual([
      { name: "custom", file: path.join(FIXTURE, "profiles/custom.toml") },
    ]);
    expect(suite.simulatorInstructionFile).toBe(path.join(FIXTURE, "simulator-instruction.md"));
  });

  it("hashes stably", async () => {
    const a = await fixture();
    const b = await fixture();
    expect(a.suite.hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(a.suite.hash).toBe(b.suite.hash);
    expect(a.suite.tasks.map((t) => t.hash)).toEqual(b.suite.tasks.map((t) => t.hash));
  });
});

describe("loadSuite on small suites", () => {
  it("gives CONTROL even without a treatments folder, and no config", async () => {
    const { suite } = await load(oneTask(""));
    expect(suite.treatments).toEqual([
      {
        name: "CONTROL",
        description: "No skills baseline",
        claude_md: null,
        skills: [],
        file: null,
      },
    ]);
    expect(suite.config).toEqual({ env: {}, pass_env: [] });
    expect(suite.profiles).toEqual([]);
    expect(suite.simulatorInstructionFile).toBeNull();
  });

  it("loads a single task folder as a suite of one", async () => {
    const root = await makeDir({
      "task.toml": '[metadata]\nname = "solo"\n',
      "instruction.md": "Hi {run_id}\n",
    });
    const suite = await loadSuite(root);
    expect(suite.tasks.map((t) => [t.name, t.dir, t.rel_dir])).toEqual([
      ["solo", root, path.basename(root)],
    ]);
  });

  it.each([
    ["category comet", '[metadata]\ncategory = "comet"\n', "comet-workflow", "auto_user"],
    ["a comet- name", '[metadata]\nname = "comet-x"\n', "comet-workflow", "auto_user"],
    [
      "explicit profile beats a comet name",
      '[metadata]\nname = "comet-x"\n[evaluation]\nprofile = "generic"\n',
      "generic",
      "none",
    ],
    [
      "an empty profile counts as absent",
      '[metadata]\ncategory = "comet"\n[evaluation]\nprofile = ""\n',
      "comet-workflow",
      "auto_user",
    ],
    ["a custom profile", '[evaluation]\nprofile = "my-profile"\n', "my-profile", "none"],
    [
      "explicit mode wins",
      '[metadata]\ncategory = "comet"\n[interaction]\nmode = "none"\n',
      "comet-workflow",
      "none",
    ],
    ["other categories", '[metadata]\ncategory = "comet-native"\n', "generic", "none"],
  ])("profile and interaction defaults: %s", async (_name, toml, profile, mode) => {
    const { suite } = await load(oneTask(toml));
    expect(suite.tasks[0]?.evaluation.inferred_profile).toBe(profile);
    expect(suite.tasks[0]?.interaction.mode).toBe(mode);
  });

  it.each([
    [
      "a typo in a key",
      "[validation]\ntimout = 5\n",
      "tasks/t/task.toml",
      'unknown key [validation].timout (did you mean "timeout"?); ignored',
    ],
    ["an unknown table", "[extra]\nx = 1\n", "tasks/t/task.toml", "unknown table [extra]; ignored"],
    [
      "an unknown top-level key",
      'flavour = "x"\n',
      "tasks/t/task.toml",
      "unknown key flavour; ignored",
    ],
    [
      "legacy setup data",
      '[[setup.data]]\npattern = "*.jsonl"\nhandler = "upload"\n',
      "tasks/t/task.toml",
      "[setup].data: data handlers are not supported by skillbench and are ignored",
    ],
    [
      "mode interactive",
      '[interaction]\nmode = "interactive"\n',
      "tasks/t/task.toml",
      '[interaction].mode: "interactive" is read as "auto_user"',
    ],
    [
      "an undeclared placeholder",
      "",
      "tasks/t/instruction.md",
      "placeholder {dataset} has no value in [setup].template_vars or [template].required, so rendering will fail; write {{dataset}} for literal braces",
    ],
    [
      "an unknown default treatment",
      '[metadata]\ndefault_treatments = ["CONTROLL"]\n',
      "tasks/t/task.toml",
      '[metadata].default_treatments: no treatment named "CONTROLL" (did you mean "CONTROL"?); none of them exists, so without --treatment the task runs under every treatment: CONTROL',
    ],
  ])("warns about %s", async (_name, toml, file, message) => {
    const instruction = toml === "" ? "Use {dataset} and {run_id}.\n" : "Use {run_id}.\n";
    const { suite, warnings } = await load(oneTask(toml, {}, instruction));
    expect(warnings.map((w) => [w.file, w.message])).toContainEqual([file, message]);
    expect(suite.warnings).toEqual(warnings);
  });

  it("keeps setup.data entries verbatim", async () => {
    const { suite } = await load(
      oneTask('[[setup.data]]\npattern = "*.jsonl"\nhandler = "upload"\n'),
    );
    expect(suite.tasks[0]?.setup.data).toEqual([{ pattern: "*.jsonl", handler: "upload" }]);
  });

  it('reads a one-item test_scripts string, and "" as none', async () => {
    const a = await load(
      oneTask('[validation]\ntest_scripts = "v.py"\n', { "tasks/t/validation/v.py": "" }),
    );
    expect(a.suite.tasks[0]?.validation.test_scripts).toEqual(["v.py"]);
    const b = await load(oneTask('[validation]\ntest_scripts = ""\n'));
    expect(b.suite.tasks[0]?.validation.test_scripts).toEqual([]);
  });

  it("changes the task hash when a validation file changes, not when another file does", async () => {
    const base = oneTask("", { "tasks/t/validation/v.py": "a", "tasks/t/NOTES.txt": "x" });
    const h1 = (await load(base)).suite.tasks[0]?.hash;
    const h2 = (await load({ ...base, "tasks/t/NOTES.txt": "y" })).suite.tasks[0]?.hash;
    const h3 = (await load({ ...base, "tasks/t/validation/v.py": "b" })).suite.tasks[0]?.hash;
    expect(h2).toBe(h1);
    expect(h3).not.toBe(h1);
  });

  it("leaves the output folder out of the suite hash", async () => {
    const base = oneTask("", { "skillbench.yaml": "out: results\n" });
    const h1 = (await load(base)).suite.hash;
    const h2 = (await load({ ...base, "results/run/x.json": "{}", ".skillbench/y": "1" })).suite
      .hash;
    const h3 = (await load({ ...base, "other.txt": "1" })).suite.hash;
    expect(h2).toBe(h1);
    expect(h3).not.toBe(h1);
  });

  it("reads the budgets' defaults from skillbench.yaml; zero or below is bad input naming the key", async () => {
    const ok = oneTask("", {
      "skillbench.yaml": "budget_usd: 20\nbudget_tokens: 500000\nmax_run_usd: 1.5\n",
    });
    expect((await load(ok)).suite.config).toMatchObject({
      budget_usd: 20,
      budget_tokens: 500000,
      max_run_usd: 1.5,
    });
    for (const bad of ["budget_usd: 0", "max_run_usd: -1", "budget_tokens: 2.5"])
      expect(await loadError(oneTask("", { "skillbench.yaml": `${bad}\n` }))).toMatch(
        new RegExp(`skillbench\\.yaml.*${bad.split(":")[0]}`),
      );
  });

  it("rejects a folder that does not exist or is not a suite", async () => {
    await expect(loadSuite("/nonexistent/skillbench-suite")).rejects.toThrow(
      /suite folder not found: \/nonexistent\/skillbench-suite/,
    );
    const empty = await makeDir({ "README.md": "x" });
    await expect(loadSuite(empty)).rejects.toThrow(InputError);
    await expect(loadSuite(empty)).rejects.toThrow(/has no tasks\/ folder/);
  });

  it("rejects a suite with no tasks", async () => {
    expect(await loadError({ "tasks/notes/README.md": "x" })).toBe(
      "tasks: no tasks found (a task is a folder with task.toml and instruction.md)",
    );
  });
});
