import { describe, expect, it } from "vitest";
import { isRunCommand } from "../../../src/cli/zod-jitless.js";

describe("isRunCommand: zod's generated parsers are left out for `run` only", () => {
  it.each([
    [["run", "suite"], true],
    [["run", "suite", "--out", "report"], true],
    [["--no-color", "run", "suite"], true],
    [["report", "runs-folder"], false],
    [["rescore", "run"], false],
    [["compare", "a", "b"], false],
    [["--help"], false],
    [[], false],
  ])("%j -> %s", (args, expected) => {
    expect(isRunCommand(args)).toBe(expected);
  });
});
