/**
 * `skillbench run` on bad input: exit code 2 with a message that names the file (and the
 * line or field), before any agent starts and before the results folder is created.
 * No claude spawns.
 */
import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeSandbox, runArgs, runCli, type Sandbox } from "../helpers/cli.js";

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await makeSandbox("e2e-bad-input");
});

afterAll(async () => {
  await sandbox?.remove();
});

describe("11. bad suites exit 2 with a message naming the file", () => {
  it.each([
    {
      name: "malformed TOML: the file and the line",
      suite: "e2e-bad-toml",
      extra: [],
      message: /skillbench: error: tasks\/broken\/task\.toml: line 3, column \d+: invalid TOML/,
    },
    {
      name: "a missing instruction.md in the task --task names",
      suite: "e2e-bad-no-instruction",
      extra: ["--task", "no-instruction"],
      message: /skillbench: error: tasks\/no-instruction: .*instruction\.md is missing/,
    },
    {
      name: "a suite whose only task folder is incomplete (skipped with a warning)",
      suite: "e2e-bad-no-instruction",
      extra: [],
      message:
        /warning: tasks\/no-instruction: has task\.toml but no instruction\.md: an incomplete task, skipped[^]*skillbench: error: .*no tasks found/,
    },
    {
      name: "a target_artifacts path ../x",
      suite: "e2e-bad-artifact-parent",
      extra: [],
      message:
        /skillbench: error: tasks\/parent-path\/task\.toml: \[validation\]\.target_artifacts\[0\]: escapes the workspace: "\.\.\/x"/,
    },
    {
      name: "an absolute target_artifacts path",
      suite: "e2e-bad-artifact-absolute",
      extra: [],
      message:
        /skillbench: error: tasks\/absolute-path\/task\.toml: \[validation\]\.target_artifacts\[0\]: .*absolute path "\/etc\/passwd"/,
    },
    {
      name: "an unknown treatment: the available ones are listed",
      suite: "e2e-matrix",
      extra: ["--treatment", "NOPE"],
      message:
        /skillbench: error: unknown treatment 'NOPE'\. Available treatments: CONTROL, WITH_SKILL/,
    },
  ])("$name", async ({ suite, extra, message }) => {
    const out = sandbox.dir(`out-${suite}-${extra.length}`);
    const res = await runCli(runArgs(suite, out, ...extra), { env: sandbox.env() });
    expect(res.stderr).toMatch(message);
    expect(res.stderr).not.toMatch(/internal error/);
    expect(res.code).toBe(2);
    expect(res.stdout).toBe("");
    expect(existsSync(out)).toBe(false);
  });
});
