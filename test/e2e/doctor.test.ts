/**
 * skillbench doctor: every check with its status, and the fix for each gap.
 */
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runDoctor } from "../../src/doctor/index.js";
import { assertBuilt, makeSandbox, runCli } from "../helpers/cli.js";

describe("skillbench doctor", () => {
  it("checks the claude binary, Docker, bubblewrap, the browser, python3 and the model endpoint", async () => {
    const report = await runDoctor({});
    const names = report.checks.map((c) => c.name);
    for (const n of [
      "claude binary",
      "docker",
      "bubblewrap",
      "browser (HTML tests)",
      "python3",
      "model endpoint",
    ])
      expect(names.some((x) => x.startsWith(n))).toBe(true);
    const claude = report.checks.find((c) => c.name === "claude binary");
    expect(claude?.status).toBe("ok");
    expect(claude?.detail).toMatch(/2\.1\.328/);
    // The other agents (optional dependencies, installed by npm install and .ci/run).
    for (const [agent, version] of [
      ["codex", "0.171.0"],
      ["gemini", "0.61.0"],
      ["opencode", "1.18.33"],
    ]) {
      const c = report.checks.find((x) => x.name === `${agent} binary`);
      expect(c?.status).toBe("ok");
      expect(c?.detail).toContain(version);
    }
    // Every gap comes with its fix.
    for (const c of report.checks.filter((x) => x.status !== "ok"))
      expect(c.fix ?? "").not.toBe("");
  });

  it("reports a broken --agent-bin as a failure with its fix, and exits 1", async () => {
    assertBuilt();
    const dir = await mkdtemp(path.join(os.tmpdir(), "skillbench-doctor-"));
    try {
      const bad = path.join(dir, "claude");
      await writeFile(bad, "#!/bin/sh\nexit 3\n");
      await chmod(bad, 0o755);
      const box = await makeSandbox("skillbench-doctor-cli-");
      const res = await runCli(
        ["doctor", "--agent-bin", bad, "--model-script", "examples/demo-suite/model-script.yaml"],
        { env: box.env() },
      );
      await box.remove();
      expect(res.code).toBe(1);
      expect(res.stdout).toMatch(/\[FAIL\] claude binary/);
      expect(res.stdout).toMatch(/fix: /);
      expect(res.stdout).toMatch(/\[ok {2}\] model endpoint/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
