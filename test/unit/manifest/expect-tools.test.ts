/**
 * An inline expect's `tools:` checks, as the generated validator runs them: the script and its
 * expect.json in a folder, a `_test_context.json` with the run's trajectory in the workspace,
 * node runs it (no agent, no sandbox: the script needs only node).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { EXPECT_VALIDATOR_SOURCE, expectData } from "../../../src/manifest/expect-validator.js";
import { ExpectSchema } from "../../../src/manifest/schema.js";

const root = mkdtempSync(path.join(os.tmpdir(), "skillbench-expect-tools-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

interface Check {
  name: string;
  status: string;
  message?: string;
}

function run(tools: unknown, context: unknown): Check[] {
  const dir = path.join(root, String(n++));
  const ws = path.join(dir, "ws");
  mkdirSync(path.join(dir, "validation"), { recursive: true });
  mkdirSync(ws);
  writeFileSync(path.join(dir, "validation", "check_expect.mjs"), EXPECT_VALIDATOR_SOURCE);
  writeFileSync(
    path.join(dir, "validation", "expect.json"),
    expectData("hello", ExpectSchema.parse({ tools })),
  );
  writeFileSync(path.join(ws, "_test_context.json"), JSON.stringify(context));
  const r = spawnSync(process.execPath, [path.join(dir, "validation", "check_expect.mjs")], {
    cwd: ws,
    encoding: "utf8",
  });
  expect(r.status).toBe(0);
  return (JSON.parse(r.stdout) as { checks: Check[] }).checks;
}

/** Gemini CLI's calls in the agent-neutral scenario: Skill, command, write, command. */
const GEMINI = [
  { tool: "activate_skill", kind: "skill" },
  { tool: "run_shell_command", kind: "command" },
  { tool: "write_file", kind: "write" },
  { tool: "run_shell_command", kind: "command" },
];
const SHOWN =
  "trajectory (4 calls): activate_skill → run_shell_command → write_file → run_shell_command";

describe("tools: checks of an inline expect", () => {
  it.each([
    [
      { contains: ["skill", "run_shell_command"] },
      ["tools_contains:skill", "tools_contains:run_shell_command"],
      [],
    ],
    [{ contains: ["Bash"] }, [], [["tools_contains:Bash", `Bash was not called; ${SHOWN}`]]],
    [{ not_contains: ["edit"] }, ["tools_not_contains:edit"], []],
    [
      { not_contains: ["command"] },
      [],
      [["tools_not_contains:command", `command was called 2 time(s); ${SHOWN}`]],
    ],
    [{ sequence: ["skill", "write", "command"] }, ["tools_sequence:skill>write>command"], []],
    [
      { sequence: ["write", "skill"] },
      [],
      [["tools_sequence:write>skill", `stopped at skill (step 2 of 2); ${SHOWN}`]],
    ],
    [{ max_calls: 4 }, ["tools_max_calls:4"], []],
    [{ max_calls: 3 }, [], [["tools_max_calls:3", `4 calls; ${SHOWN}`]]],
    [
      { max_calls: { command: 1, write_file: 1 } },
      ["tools_max_calls:write_file:1"],
      [["tools_max_calls:command:1", `2 calls of command; ${SHOWN}`]],
    ],
  ])("%j", (tools, passed, failed) => {
    const checks = run(tools, { trajectory: GEMINI });
    expect(checks.filter((c) => c.status === "passed").map((c) => c.name)).toEqual(passed);
    expect(checks.filter((c) => c.status === "failed").map((c) => [c.name, c.message])).toEqual(
      failed,
    );
  });

  it("trims a long trajectory to its first and last calls", () => {
    const calls = Array.from({ length: 40 }, (_, i) => ({ tool: `t${i}`, kind: "other" }));
    const [c] = run({ contains: ["x"] }, { trajectory: calls });
    expect(c?.message).toBe(
      `x was not called; trajectory (40 calls): ${[
        ...calls.slice(0, 18).map((t) => t.tool),
        "… 16 more …",
        ...calls.slice(34).map((t) => t.tool),
      ].join(" → ")}`,
    );
  });

  it("checks nothing when no agent ran (skillbench check)", () => {
    expect(run({ contains: ["x"] }, { health: true })).toEqual([]);
  });
});
