import { describe, expect, it } from "vitest";
import { loadError, oneTask } from "./make-suite.js";

const T = "tasks/t/task.toml";

describe("task.toml type errors name the file, the field and the expected type", () => {
  it.each([
    [
      '[validation]\ntimeout = "abc"\n',
      `${T}: [validation].timeout: expected a positive number, got string "abc"`,
    ],
    [
      "[environment]\ntimeout_sec = -5\n",
      `${T}: [environment].timeout_sec: expected a positive number, got number -5`,
    ],
    [
      "[interaction]\nmax_turns = 2.5\n",
      `${T}: [interaction].max_turns: expected a positive integer, got number 2.5`,
    ],
    [
      '[metadata]\ntags = "x"\n',
      `${T}: [metadata].tags: expected a list of strings, got string "x"`,
    ],
    ['[metadata]\ntags = ["a", 1]\n', `${T}: [metadata].tags[1]: expected a string, got number 1`],
    ["[metadata]\nname = 7\n", `${T}: [metadata].name: expected a string, got number 7`],
    [
      '[evaluation]\nrequire_skill_invocation = "yes"\n',
      `${T}: [evaluation].require_skill_invocation: expected a boolean (true or false), got string "yes"`,
    ],
    [
      '[evaluation]\nnative_terminal = "done"\n',
      `${T}: [evaluation].native_terminal: expected one of "archive", "active", "active-blocked", got string "done"`,
    ],
    [
      '[interaction]\nmode = "chat"\n',
      `${T}: [interaction].mode: expected "none" or "auto_user", got string "chat"`,
    ],
    ["metadata = 3\n", `${T}: [metadata]: expected a table, got number 3`],
    [
      "[validation]\ntest_scripts = { a = 1 }\n",
      `${T}: [validation].test_scripts: expected a string or a list of strings, got a table`,
    ],
    [
      "[setup]\ntemplate_vars = { n = 1 }\n",
      `${T}: [setup].template_vars.n: expected a string, got number 1`,
    ],
    [
      '[environment]\nmemory = "lots"\n',
      `${T}: [environment].memory: expected a size such as "512m" or "2g", or a number of bytes, got string "lots"`,
    ],
    [
      "[evaluation]\nexpected_artifacts = [3]\n",
      `${T}: [evaluation].expected_artifacts[0]: expected a path or a table with "paths", got number 3`,
    ],
    [
      '[evaluation]\nexpected_artifacts = [{ glob = "x" }]\n',
      `${T}: [evaluation].expected_artifacts[0]: needs "paths" or "path"`,
    ],
    [
      '[metadata]\nname = "bad name"\n',
      `${T}: [metadata].name: task name "bad name" must match ^[A-Za-z0-9][A-Za-z0-9._-]*$ (letters, digits, ".", "_", "-")`,
    ],
    [
      '[evaluation]\nskill_package_path = "../nope"\n',
      /^tasks\/t\/task\.toml: \[evaluation\]\.skill_package_path: .*/,
    ],
    [
      '[evaluation]\nroute_conformance_expected_node_order = ["plan", 3]\n',
      `${T}: [evaluation].route_conformance_expected_node_order[1]: expected a string, got number 3`,
    ],
    [
      '[evaluation]\nroute_conformance_expected_node_order = ["plan", "plan"]\n',
      `${T}: [evaluation].route_conformance_expected_node_order[1]: "plan" is listed twice`,
    ],
    [
      '[evaluation]\ngenerated_node_skills = "flow-plan"\n',
      `${T}: [evaluation].generated_node_skills: expected a list of strings, got string "flow-plan"`,
    ],
    [
      '[evaluation]\ngenerated_node_skills = [""]\n',
      `${T}: [evaluation].generated_node_skills[0]: must not be empty`,
    ],
  ])("%j", async (toml, expected) => {
    const msg = await loadError(oneTask(toml));
    if (typeof expected === "string") expect(msg).toBe(expected);
    else expect(msg).toMatch(expected);
  });
});

describe("malformed files name the line", () => {
  it("reports the line and column of a TOML syntax error", async () => {
    const msg = await loadError(oneTask('[metadata]\nname = "x"\ntags = = 1\n'));
    expect(msg.split("\n")[0]).toBe(`${T}: line 3, column 8: invalid TOML: invalid value`);
    expect(msg).toContain("tags = = 1");
  });

  it("reports the line of a YAML syntax error", async () => {
    const msg = await loadError(
      oneTask("", { "treatments/a.yaml": "A:\n  description: x\n  skills: [a,\nB: 1\n" }),
    );
    expect(msg).toMatch(/^treatments\/a\.yaml: line 4, column 1: invalid YAML: /);
  });

  it("reports a duplicate YAML key", async () => {
    const msg = await loadError(oneTask("", { "skillbench.yaml": "count: 1\ncount: 2\n" }));
    expect(msg).toBe("skillbench.yaml: line 2, column 1: invalid YAML: Map keys must be unique");
  });
});

describe("task folders", () => {
  it.each([
    [
      { "tasks/t/task.toml": "" },
      "tasks: no tasks found (a task is a folder with task.toml and instruction.md)",
    ],
    [
      { "tasks/t/instruction.md": "x" },
      "tasks/t: a task folder needs both task.toml and instruction.md; task.toml is missing",
    ],
    [
      {
        "tasks/a/task.toml": '[metadata]\nname = "same"\n',
        "tasks/a/instruction.md": "x",
        "tasks/b/task.toml": '[metadata]\nname = "same"\n',
        "tasks/b/instruction.md": "x",
      },
      'tasks/b/task.toml: [metadata].name: task name "same" is also used by tasks/a',
    ],
  ])("%#", async (files, expected) => {
    expect(await loadError(files)).toBe(expected);
  });
});

describe("hostile and missing paths", () => {
  it.each([
    [
      '[validation]\ntarget_artifacts = ["../x"]\n',
      `${T}: [validation].target_artifacts[0]: escapes the workspace: "../x"`,
    ],
    [
      '[validation]\ntarget_artifacts = "/etc/passwd"\n',
      `${T}: [validation].target_artifacts[0]: must be relative to the workspace, got absolute path "/etc/passwd"`,
    ],
    [
      '[validation]\ntarget_artifacts = ["a/../../b"]\n',
      `${T}: [validation].target_artifacts[0]: escapes the workspace: "a/../../b"`,
    ],
    [
      '[validation]\ntarget_artifacts = ["C:\\\\x"]\n',
      `${T}: [validation].target_artifacts[0]: must be relative to the workspace, got absolute path "C:\\\\x"`,
    ],
    [
      '[validation]\ntarget_artifacts = ["~/.ssh/id_rsa"]\n',
      `${T}: [validation].target_artifacts[0]: must be relative to the workspace, got home path "~/.ssh/id_rsa"`,
    ],
    [
      '[validation]\ntarget_artifacts = ["."]\n',
      `${T}: [validation].target_artifacts[0]: names the workspace itself, not a path inside it: "."`,
    ],
    [
      '[evaluation]\nexpected_artifacts = ["../../y"]\n',
      `${T}: [evaluation].expected_artifacts[0]: escapes the workspace: "../../y"`,
    ],
    [
      '[evaluation]\nexpected_artifacts = [{ paths = ["ok", "../y"] }]\n',
      `${T}: [evaluation].expected_artifacts[0]: escapes the workspace: "../y"`,
    ],
    [
      '[validation]\ntest_scripts = "../evil.py"\n',
      `${T}: [validation].test_scripts: escapes validation/: "../evil.py"`,
    ],
    [
      '[validation]\ntest_scripts = ["ok.py", "/abs.py"]\n',
      `${T}: [validation].test_scripts[1]: must be relative to validation/, got absolute path "/abs.py"`,
    ],
    [
      '[validation]\ntest_scripts = "ok.rb"\n',
      `${T}: [validation].test_scripts: "ok.rb": unsupported validator extension ".rb" (use one of .py .js .mjs .cjs .ts .sh)`,
    ],
    [
      '[validation]\ntest_scripts = "missing.py"\n',
      `${T}: [validation].test_scripts: test script not found: tasks/t/validation/missing.py`,
    ],
  ])("%j", async (toml, expected) => {
    expect(
      await loadError(
        oneTask(toml, { "tasks/t/validation/ok.py": "", "tasks/t/validation/ok.rb": "" }),
      ),
    ).toBe(expected);
  });

  it("accepts globs and nested paths that stay inside", async () => {
    const { load } = await import("./make-suite.js");
    const { suite } = await load(
      oneTask(
        '[validation]\ntarget_artifacts = ["out/**/*.json", "a/../b", "./c"]\ntest_scripts = ["sub/v.ts"]\n',
        { "tasks/t/validation/sub/v.ts": "" },
      ),
    );
    expect(suite.tasks[0]?.validation).toMatchObject({
      target_artifacts: ["out/**/*.json", "a/../b", "./c"],
      test_scripts: ["sub/v.ts"],
    });
  });
});

describe("every problem is reported at once", () => {
  it("lists the problems of several files, one per line", async () => {
    const msg = await loadError({
      ...oneTask('[validation]\ntimeout = "x"\n[metadata]\ntags = 1\n'),
      "tasks/u/task.toml": "x = = 1\n",
      "tasks/u/instruction.md": "x",
      "tasks/v/instruction.md": "x",
      "treatments/a.yaml": "CONTROL:\n  skills: [x]\n",
    });
    const lines = msg.split("\n");
    expect(lines[0]).toMatch(/^suite \/.*: 5 problems$/);
    expect(lines.filter((l) => l.startsWith("  "))).toEqual(
      expect.arrayContaining([
        `  ${T}: [metadata].tags: expected a list of strings, got number 1`,
        `  ${T}: [validation].timeout: expected a positive number, got string "x"`,
        "  tasks/u/task.toml: line 1, column 5: invalid TOML: invalid value",
        "  tasks/v: a task folder needs both task.toml and instruction.md; task.toml is missing",
        "  treatments/a.yaml: CONTROL.skills: CONTROL is the no-skills baseline and cannot have skills; define another treatment",
      ]),
    );
  });
});
