/** What the planned runs ask of the sandboxes before they start (src/runner/preflight.ts). */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { selectRuns } from "../../../src/plan/select.js";
import { sandboxNeeds } from "../../../src/runner/preflight.js";
import { loadSuite } from "../../../src/suite/index.js";

const SUITE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../fixtures/suites/e2e-matrix",
);

describe("sandboxNeeds", () => {
  it.each([
    // --sandbox, tasks with environment/Dockerfile, --task -> probe, may use docker
    [undefined, [], undefined, { dockerfileAuto: false }, false],
    [undefined, ["tone"], undefined, { dockerfileAuto: true }, true],
    [undefined, ["tone"], "needs-skill", { dockerfileAuto: false }, false],
    ["local", ["tone"], undefined, null, false],
    ["bwrap", ["tone"], undefined, null, false],
    ["docker", [], undefined, null, true],
  ] as const)(
    "--sandbox %s, Dockerfile in %j, --task %s: probe %j, docker %s",
    async (cli, withDockerfile, task, probe, mayUseDocker) => {
      const suite = await loadSuite(SUITE);
      const { specs } = selectRuns(suite, { task, count: 1 });
      const needs = sandboxNeeds(suite, specs, cli, (t) =>
        (withDockerfile as readonly string[]).includes(t.name),
      );
      expect(needs).toEqual({ probe, mayUseDocker });
    },
  );
});
