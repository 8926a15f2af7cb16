/**
 * Bad settings are bad input: exit 2 with a message naming the field, before any agent runs.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, makeSandbox, runArgs, runCli, type Sandbox } from "../helpers/cli.js";

let box: Sandbox;
beforeAll(async () => {
  assertBuilt();
  box = await makeSandbox("skillbench-preflight-");
});
afterAll(async () => {
  await box.remove();
});

describe("settings checked before any run", () => {
  it.each([
    [["--profile", "nope"], /--profile nope: .*Profile not found: nope\. Available: .*generic/],
    [["--interaction-mode", "bogus"], /interaction/i],
    [["--fail-under", "pass@1=2"], /--fail-under pass@1=2/],
    [["--sandbox", "vm"], /--sandbox must be local, bwrap, docker or auto/],
    [["--count", "0"], /--count must be a positive whole number/],
  ])("%j", async (extra, message) => {
    const out = box.dir(`out-${extra.join("-").replace(/[^a-z0-9]/gi, "")}`);
    const res = await runCli(runArgs("e2e-matrix", out, ...extra), { env: box.env() });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(message);
    // No agent ran: no run folder was written.
    expect(existsSync(path.join(out, "runs"))).toBe(false);
  });
});
