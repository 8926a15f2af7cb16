import path from "node:path";
import { describe, expect, it } from "vitest";
import { hashSkillDir, isIgnoredSkillPath } from "../../../src/suite/index.js";
import { rubricTaskInput } from "../../../src/runner/score-run.js";
import { load, loadError, makeDir, oneTask } from "./make-suite.js";

const SKILL = {
  "skills/demo/SKILL.md": "---\nname: demo\n---\nBody\n",
  "skills/demo/scripts/run.sh": "echo hi\n",
};
const A = "treatments/common/a.yaml";

function suiteWith(yaml: string, extra: Record<string, string> = {}): Record<string, string> {
  return oneTask("", { ...SKILL, [A]: yaml, ...extra });
}

describe("treatment files", () => {
  it.each([
    [
      "a folder path relative to the treatment file",
      "X:\n  skills:\n    - path: ../../skills/demo\n",
      "demo",
    ],
    [
      "a folder path relative to the suite root",
      "X:\n  skills:\n    - path: skills/demo\n",
      "demo",
    ],
    ["a string entry naming SKILL.md", "X:\n  skills: [skills/demo/SKILL.md]\n", "demo"],
    [
      "the comet form (source: path)",
      "X:\n  skills:\n    - name: renamed\n      source: path\n      path: skills/demo\n",
      "renamed",
    ],
    ["source used as the path", "X:\n  skills:\n    - source: skills/demo\n", "demo"],
  ])("resolves %s", async (_name, yaml, skillName) => {
    const { suite } = await load(suiteWith(yaml));
    const x = suite.treatments.find((t) => t.name === "X");
    expect(x?.skills).toEqual([
      {
        name: skillName,
        source_type: "path",
        path: path.join(suite.root, "skills/demo"),
        content: null,
        hash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      },
    ]);
  });

  it("records a path entry's key files (normalised)", async () => {
    const { suite } = await load(
      suiteWith("X:\n  skills:\n    - path: skills/demo\n      key_files: [./scripts/run.sh]\n"),
    );
    expect(suite.treatments.find((t) => t.name === "X")?.skills[0]?.key_files).toEqual([
      "scripts/run.sh",
    ]);
  });

  it.each([
    ["name", "X:\n  skills:\n    - name: my-skill\n      content: hello\n", "my-skill"],
    [
      "skill, with _ -> -",
      "X:\n  skills:\n    - skill: my_skill\n      content: hello\n",
      "my-skill",
    ],
  ])("reads an inline skill named by %s", async (_name, yaml, skillName) => {
    const { suite } = await load(suiteWith(yaml));
    expect(suite.treatments[1]?.skills).toEqual([
      // sha256("hello")
      {
        name: skillName,
        source_type: "inline",
        path: null,
        content: "hello",
        hash: "sha256:2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824",
      },
    ]);
  });

  it("skips _ keys, keeps CONTROL first and allows redefining its description", async () => {
    const { suite } = await load(
      suiteWith(
        "_anchor: &a\n  description: shared\nB:\n  <<: *a\nCONTROL:\n  description: Baseline\n",
      ),
    );
    expect(suite.treatments.map((t) => [t.name, t.description])).toEqual([
      ["CONTROL", "Baseline"],
      ["B", "shared"],
    ]);
  });

  it("reads every .yaml and .yml file below treatments/, in path order, skipping hidden folders", async () => {
    const { suite, warnings } = await load(
      oneTask("", {
        "treatments/b.yml": "B: {description: b}\n",
        "treatments/a/x.yaml": "A: {description: a}\nB: {description: b2}\n",
        "treatments/.hidden/h.yaml": "H: {}\n",
        "treatments/notes.txt": "ignored",
      }),
    );
    expect(suite.treatments.map((t) => [t.name, t.description])).toEqual([
      ["CONTROL", "No skills baseline"],
      ["A", "a"],
      ["B", "b"],
    ]);
    expect(warnings).toEqual([
      {
        file: "treatments/b.yml",
        field: "B",
        message: "B: overrides the definition in treatments/a/x.yaml",
      },
    ]);
  });

  it("takes skill hints from the first skill entry only", async () => {
    const yaml = [
      "X:",
      "  skills:",
      "    - {path: skills/demo, profile: authoring, required_skills: [demo], require_skill_invocation: true, expected_artifacts: [{paths: [a.md]}]}",
      "    - {name: two, content: x, profile: other}",
    ].join("\n");
    const { suite, warnings } = await load(suiteWith(yaml));
    expect(suite.treatments[1]).toMatchObject({
      profile: "authoring",
      required_skills: ["demo"],
      require_skill_invocation: true,
      expected_artifacts: [{ paths: ["a.md"] }],
    });
    expect(warnings.map((w) => w.message)).toEqual([
      "X.skills[1].profile: only the first skill entry's hints are used; ignored",
    ]);
  });

  it("takes the authoring route hints from the first skill entry; the runner prefers them to the task's", async () => {
    const yaml = [
      "X:",
      "  skills:",
      "    - {path: skills/demo, route_conformance_expected_node_order: [plan, ship], generated_node_skills: [flow-plan, flow-ship]}",
      "    - {name: two, content: x, generated_node_skills: [ignored]}",
    ].join("\n");
    const toml =
      '[evaluation]\nprofile = "authoring-skill"\nskill_package_path = "skills/flow"\nroute_conformance_expected_node_order = ["a", "b"]\n';
    const { suite, warnings } = await load({ ...suiteWith(yaml), "tasks/t/task.toml": toml });
    const x = suite.treatments.find((t) => t.name === "X");
    const control = suite.treatments.find((t) => t.name === "CONTROL");
    const task = suite.tasks[0];
    if (x === undefined || control === undefined || task === undefined)
      throw new Error("not loaded");
    expect(x).toMatchObject({
      route_conformance_expected_node_order: ["plan", "ship"],
      generated_node_skills: ["flow-plan", "flow-ship"],
    });
    expect(warnings.map((w) => w.message)).toEqual([
      "X.skills[1].generated_node_skills: only the first skill entry's hints are used; ignored",
    ]);
    expect(rubricTaskInput(task, x)).toMatchObject({
      skill_package_path: "skills/flow",
      route_conformance_expected_node_order: ["plan", "ship"],
      generated_node_skills: ["flow-plan", "flow-ship"],
    });
    expect(rubricTaskInput(task, control)).toMatchObject({
      route_conformance_expected_node_order: ["a", "b"],
      generated_node_skills: null,
    });
  });

  it("skips (with a warning) a treatment that uses Python benchmark snapshot skills, so the suite still loads", async () => {
    const { suite, warnings } = await load(
      suiteWith(
        "SNAP:\n  skills:\n    - {name: comet, skill: comet, variant: all, base: main}\nOK: {}\n",
      ),
    );
    expect(suite.treatments.map((t) => t.name)).toEqual(["CONTROL", "OK"]);
    expect(warnings).toEqual([
      {
        file: A,
        field: "SNAP",
        message:
          'SNAP: treatment skipped: SNAP.skills[0]: benchmark snapshot entries ("skill" + "variant"/"base") are not supported; give "path" (a folder with SKILL.md) or inline "content"',
      },
    ]);
  });

  it("resolves a path against the parent of the suite root, like the Python eval root", async () => {
    const outer = await makeDir({
      "assets/skills/native/SKILL.md": "x",
      "local/tasks/t/task.toml": "",
      "local/tasks/t/instruction.md": "x",
      "local/treatments/comet/n.yaml":
        "N:\n  skills:\n    - {name: native, source: path, path: ../assets/skills/native}\n",
    });
    const { loadSuite } = await import("../../../src/suite/index.js");
    const suite = await loadSuite(path.join(outer, "local"));
    expect(suite.treatments[1]?.skills[0]?.path).toBe(path.join(outer, "assets/skills/native"));
  });

  it.each([
    [
      "an unknown key",
      "X:\n  descripton: x\n",
      "X.descripton",
      'unknown key X.descripton (did you mean "description"?); ignored',
    ],
    [
      "noise tasks",
      "X:\n  noise_tasks: [a]\n",
      "X.noise_tasks",
      "X.noise_tasks: noise tasks are not supported by skillbench; ignored",
    ],
  ])("warns about %s", async (_name, yaml, field, message) => {
    const { warnings } = await load(suiteWith(yaml));
    expect(warnings).toEqual([{ file: A, field, message }]);
  });

  it.each([
    [
      "a folder without SKILL.md",
      "X:\n  skills:\n    - path: ../../skills/empty\n",
      /^treatments\/common\/a\.yaml: X\.skills\[0\]: SKILL\.md not found in \/.*\/skills\/empty$/,
    ],
    [
      "a key file that is not in the Skill",
      "X:\n  skills:\n    - path: skills/demo\n      key_files: [scripts/run.sh, references/none.md]\n",
      /^treatments\/common\/a\.yaml: X\.skills\[0\]: key_files\[1\]: "references\/none\.md" is not a file of the Skill \/.*\/skills\/demo /,
    ],
    [
      "a key file outside the Skill",
      "X:\n  skills:\n    - path: skills/demo\n      key_files: [../demo/SKILL.md/../../other]\n",
      /X\.skills\[0\]: key_files\[0\]: .* is not a file of the Skill/,
    ],
    [
      "a missing folder",
      "X:\n  skills: [nowhere]\n",
      /^treatments\/common\/a\.yaml: X\.skills\[0\]: skill folder not found: "nowhere" \(looked in \/.*\/treatments\/common\/nowhere, \/.*\/nowhere\)$/,
    ],
    [
      "a file that is not SKILL.md",
      "X:\n  skills: [skills/demo/scripts/run.sh]\n",
      /X\.skills\[0\]: \/.*\/run\.sh is a file; give a folder that contains SKILL\.md, or the SKILL\.md file itself$/,
    ],
    [
      "an unsafe skill name",
      "X:\n  skills:\n    - name: ../evil\n      content: x\n",
      'treatments/common/a.yaml: X.skills[0].name: skill name "../evil" must match ^[A-Za-z0-9][A-Za-z0-9._-]*$ (it becomes a folder name)',
    ],
    [
      "an unsafe folder name",
      "X:\n  skills: [skills/bad name]\n",
      /X\.skills\[0\]: the folder name "bad name" is not a safe skill name .*; give the entry a "name"$/,
    ],
    [
      "a bad treatment name",
      "bad name:\n  description: x\n",
      'treatments/common/a.yaml: bad name: treatment name "bad name" must match ^[A-Za-z0-9][A-Za-z0-9._-]*$',
    ],
    [
      "CONTROL with skills",
      "CONTROL:\n  skills: [skills/demo]\n",
      "treatments/common/a.yaml: CONTROL.skills: CONTROL is the no-skills baseline and cannot have skills; define another treatment",
    ],
    [
      "two skills with one name",
      "X:\n  skills: [skills/demo, {name: demo, content: x}]\n",
      'treatments/common/a.yaml: X.skills[1]: duplicate skill name "demo" (also X.skills[0]); give one of them another "name"',
    ],
    [
      "an entry without path or content",
      "X:\n  skills:\n    - {name: x}\n",
      'treatments/common/a.yaml: X.skills[0]: a skill entry needs "path" (a folder with SKILL.md, or the SKILL.md file) or inline "content"',
    ],
    [
      "skills that is not a list",
      "X:\n  skills: skills/demo\n",
      'treatments/common/a.yaml: X.skills: expected a list of skill entries, got string "skills/demo"',
    ],
    [
      "a treatment that is not a mapping",
      "X: 3\n",
      "treatments/common/a.yaml: X: expected a mapping with description/claude_md/skills, got number 3",
    ],
    [
      "a file that is a list",
      "- a\n- b\n",
      "treatments/common/a.yaml: expected a mapping of treatment names, got a list",
    ],
    [
      "a hostile expected artifact hint",
      "X:\n  skills:\n    - {path: skills/demo, expected_artifacts: [../../etc]}\n",
      'treatments/common/a.yaml: X.skills[0].expected_artifacts[0]: escapes the workspace: "../../etc"',
    ],
    [
      "a wrongly typed hint",
      'X:\n  skills:\n    - {path: skills/demo, require_skill_invocation: "yes"}\n',
      'treatments/common/a.yaml: X.skills[0].require_skill_invocation: expected a boolean (true or false), got string "yes"',
    ],
  ])("rejects %s", async (_name, yaml, expected) => {
    const msg = await loadError(
      suiteWith(yaml, { "skills/empty/README.md": "x", "skills/bad name/SKILL.md": "x" }),
    );
    if (typeof expected === "string") expect(msg).toBe(expected);
    else expect(msg).toMatch(expected);
  });
});

describe("skill hashes", () => {
  it("are stable, ignore .git/.comet/__pycache__, and change with content or file names", async () => {
    const a = await makeDir({ "SKILL.md": "x", "scripts/a.sh": "echo" });
    const b = await makeDir({
      "SKILL.md": "x",
      "scripts/a.sh": "echo",
      ".git/HEAD": "ref",
      ".comet/state": "1",
      "scripts/__pycache__/m.pyc": "z",
    });
    const c = await makeDir({ "SKILL.md": "y", "scripts/a.sh": "echo" });
    const d = await makeDir({ "SKILL.md": "x", "scripts/b.sh": "echo" });
    const [ha, hb, hc, hd] = await Promise.all([a, b, c, d].map(hashSkillDir));
    expect(ha).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(hb).toBe(ha);
    expect(hc).not.toBe(ha);
    expect(hd).not.toBe(ha);
    expect(await hashSkillDir(a)).toBe(ha);
  });

  it.each([
    ["SKILL.md", false],
    ["scripts/run.sh", false],
    [".git/HEAD", true],
    ["a/.comet/x", true],
    ["__pycache__/m.pyc", true],
    [".DS_Store", true],
    [".env", false],
  ])("isIgnoredSkillPath(%s) = %s", (rel, ignored) => {
    expect(isIgnoredSkillPath(rel)).toBe(ignored);
  });
});

describe("skillbench.yaml", () => {
  it.each([
    ["count: 0\n", "skillbench.yaml: count: expected a positive integer, got number 0"],
    [
      "concurrency: two\n",
      'skillbench.yaml: concurrency: expected a positive integer, got string "two"',
    ],
    [
      'env:\n  "BAD-NAME": x\n',
      "skillbench.yaml: env.BAD-NAME: not a valid environment variable name",
    ],
    ["env:\n  A: [1]\n", "skillbench.yaml: env.A: expected a string, got a list"],
    [
      'pass_env: [HOME, "a b"]\n',
      'skillbench.yaml: pass_env[1]: "a b" is not a valid environment variable name',
    ],
    ["env: 3\n", "skillbench.yaml: env: expected a mapping, got number 3"],
    ["- a\n", "skillbench.yaml: expected a mapping of settings, got a list"],
  ])("rejects %j", async (yaml, expected) => {
    expect(await loadError(oneTask("", { "skillbench.yaml": yaml }))).toBe(expected);
  });

  it("warns about unknown keys and an ignored skillbench.yml", async () => {
    const { suite, warnings } = await load(
      oneTask("", { "skillbench.yaml": 'cout: 3\ntask: "a,b"\n', "skillbench.yml": "count: 1\n" }),
    );
    expect(suite.config).toEqual({ task: "a,b", env: {}, pass_env: [] });
    expect(warnings.map((w) => `${w.file}: ${w.message}`)).toEqual([
      "skillbench.yml: ignored: the suite config file is named skillbench.yaml",
      'skillbench.yaml: unknown key cout (did you mean "count"?); ignored',
    ]);
  });
});
