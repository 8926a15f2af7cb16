/** Which run ids `skillbench view` serves: every id the plan makes, nothing that leaves the folder. */
import { expect, it } from "vitest";
import { servableRunId } from "../../../src/viewer/server.js";

it.each([
  ["greet-CONTROL-r1", true],
  // a treatment on several agents, on several models (src/plan/matrix.ts)
  ["greet-WITH_SKILL@codex-r2", true],
  ["greet-WITH_SKILL@claude~small-r1", true],
  ["greet-WITH_SKILL~claude-opus-4.5-r1", true],
  [".", false],
  ["..", false],
  ["../etc", false],
  ["a/b", false],
  ["a\\b", false],
  ["", false],
  ["a b", false],
])("%s → %s", (id, ok) => {
  expect(servableRunId(id)).toBe(ok);
});
