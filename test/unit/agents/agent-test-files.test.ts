/**
 * Each agent's real-CLI tests live in a file of their own (test/helpers/agents-suite.ts says
 * why): a new driver without one would go untested against its CLI, so its absence fails here.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { AGENT_NAMES } from "../../../src/agents/index.js";
import { REPO_ROOT } from "../../helpers/cli.js";

it.each(AGENT_NAMES)("%s has its real-CLI test file", (name) => {
  expect(existsSync(path.join(REPO_ROOT, `test/e2e/agents-${name}.test.ts`))).toBe(true);
});
