/**
 * `skillbench check` end to end through the built CLI (docs/health.md), on the e2e-health fixture:
 * one task per outcome (sound with solve.sh, sound with a files overlay, unverified, vacuous, a
 * broken validator, a validator that answers at random, a solution that hangs, crashes, or writes
 * beside the workspace), and the bundled examples, which must check sound.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HealthReportSchema, type HealthReport } from "../../src/core/health.js";
import { existsSync } from "node:fs";
import type { Comparison } from "../../src/report/comparison/index.js";
import {
  fixtureSuite,
  makeSandbox,
  REPO_ROOT,
  runArgs,
  runCli,
  type Sandbox,
} from "../helpers/cli.js";

const TIMEOUT = 120_000;
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await makeSandbox("e2e-health");
});
afterAll(async () => {
  await sandbox?.remove();
});

async function check(
  target: string,
  out: string,
  ...extra: string[]
): Promise<{ code: number | null; stdout: string; stderr: string; report: HealthReport | null }> {
  const res = await runCli(["check", target, "--out", out, ...extra], { env: sandbox.env() });
  const report = await readFile(path.join(out, "health.json"), "utf8")
    .then((t) => HealthReportSchema.parse(JSON.parse(t)))
    .catch(() => null);
  return { ...res, report };
}

describe("skillbench check", () => {
  it(
    "names every unsound task with its check and cause, and exits 1",
    async () => {
      const out = sandbox.dir("all");
      const r = await check(fixtureSuite("e2e-health"), out, "-j", "4", "--sandbox", "local");
      expect(r.code, r.stderr).toBe(1);
      const h = r.report;
      if (h === null) throw new Error("no health.json");
      const status = Object.fromEntries(h.tasks.map((t) => [t.task, t.status]));
      expect(status).toEqual({
        broken: "unsound",
        crash: "unsound",
        escape: "unsound",
        flaky: "unsound",
        hang: "unsound",
        overlay: "sound",
        sound: "sound",
        unverified: "unverified",
        vacuous: "unsound",
      });
      const kinds = (task: string): string[] => [
        ...new Set(h.problems.filter((p) => p.task === task).map((p) => p.kind)),
      ];
      expect(kinds("broken")).toEqual(["oracle_failed"]);
      expect(h.problems.find((p) => p.task === "broken")?.check).toBe("answer_value");
      expect(kinds("vacuous")).toEqual(["vacuous"]);
      expect(kinds("flaky")).toContain("flaky");
      expect(
        h.problems.filter((p) => p.kind === "flaky").every((p) => p.check?.startsWith("coin_")),
      ).toBe(true);
      expect(kinds("hang")).toEqual(["oracle_timeout"]);
      expect(h.problems.find((p) => p.task === "hang")?.cause).toContain("did not end within 2s");
      expect(kinds("crash")).toEqual(["oracle_error"]);
      expect(h.problems.find((p) => p.task === "crash")?.cause).toContain(
        "exited 3: cannot build the answer",
      );
      expect(kinds("escape")).toEqual(["oracle_escape"]);
      expect(h.problems.find((p) => p.task === "escape")?.cause).toContain("escaped.txt");
      for (const task of ["sound", "overlay", "unverified"]) expect(kinds(task)).toEqual([]);
      // the console names each problem: task · check · kind: cause
      expect(r.stdout).toContain("broken · answer_value · oracle_failed: ");
      expect(r.stdout).toContain("hang · oracle_timeout: ");
      expect(r.stdout).toMatch(/^UNSOUND: 3 of 9 task\(s\) sound; 2 verified/m);
      const md = await readFile(path.join(out, "health.md"), "utf8");
      expect(md).toContain("| vacuous | none | — | 1 passed, 0 failed | unsound |");
    },
    TIMEOUT,
  );

  it(
    "under bwrap a write outside the workspace is refused: a named outcome, never a hang",
    async () => {
      const out = sandbox.dir("bwrap");
      const r = await check(
        fixtureSuite("e2e-health"),
        out,
        "--task",
        "escape,hang",
        "--sandbox",
        "bwrap",
      );
      expect(r.code, r.stderr).toBe(1);
      const causes = Object.fromEntries((r.report?.problems ?? []).map((p) => [p.task, p]));
      expect(causes.escape?.kind).toMatch(/^oracle_(error|escape)$/);
      expect(causes.escape?.cause).toMatch(/Read-only file system|escaped\.txt/);
      expect(causes.hang?.kind).toBe("oracle_timeout");
    },
    TIMEOUT,
  );

  it(
    "a sound task with a solution exits 0",
    async () => {
      const r = await check(
        fixtureSuite("e2e-health"),
        sandbox.dir("sound"),
        "--task",
        "sound,overlay",
      );
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(
        /^SOUND: 2 of 2 task\(s\) sound; 2 verified by a reference solution/m,
      );
      expect(r.report?.tasks.map((t) => t.oracle?.outcome)).toEqual(["ok", "ok"]);
    },
    TIMEOUT,
  );

  it(
    "bad input exits 2",
    async () => {
      const r = await check(sandbox.dir("missing-suite"), sandbox.dir("bad"));
      expect(r.code).toBe(2);
      expect(r.stderr).toContain("no such suite or Skill folder");
    },
    TIMEOUT,
  );

  it.each(["examples/demo-suite", "examples/workflow-suite"])(
    "%s checks sound (exit 0), every task verified",
    async (example) => {
      const r = await check(path.join(REPO_ROOT, example), sandbox.dir(example.replace("/", "-")));
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(r.report?.tasks.every((t) => t.status === "sound")).toBe(true);
    },
    TIMEOUT,
  );
});

describe("run's preflight (--preflight quick, the default)", () => {
  const tasks = ["--task", "sound,broken,vacuous", "-n", "1", "--sandbox", "local"];
  it(
    "leaves the broken and the vacuous task out of the comparison, named with their reasons under the verdict",
    async () => {
      const out = sandbox.dir("run-preflight");
      const r = await runCli(runArgs("e2e-health", out, ...tasks), { env: sandbox.env() });
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toContain(
        "preflight: broken · answer_value · oracle_failed: fails on the reference solution's workspace",
      );
      expect(r.stderr).toContain("preflight: vacuous · vacuous: ");
      expect(r.stderr.indexOf("preflight: ")).toBeLessThan(r.stderr.indexOf("runs planned"));
      const line =
        "Task health: 1 of 3 task(s) sound; 2 left out of the comparison: broken (oracle_failed (answer_value)); vacuous (vacuous); 1 verified by a reference solution.";
      expect(r.stdout).toContain("Verdict (CANDIDATE vs CONTROL):\n");
      expect(r.stdout).toContain(`  ${line}\n`);
      const c = JSON.parse(await readFile(path.join(out, "comparison.json"), "utf8")) as Comparison;
      expect(c.health?.left_out.map((l) => l.task)).toEqual(["broken", "vacuous"]);
      expect(c.paired.tasks).toEqual(["sound"]);
      expect(await readFile(path.join(out, "comparison_report.md"), "utf8")).toContain(line);
      const h = HealthReportSchema.parse(
        JSON.parse(await readFile(path.join(out, "health.json"), "utf8")),
      );
      expect(h.tasks.map((t) => t.task).sort()).toEqual(["broken", "sound", "vacuous"]);
      const summary = await readFile(path.join(out, "summary.md"), "utf8");
      expect(summary).toContain("## Task health");
      expect(summary).toContain(
        "- `broken` left out of the comparison: oracle_failed (answer_value)",
      );
      // every run still ran and is reported
      expect(
        (await readFile(path.join(out, "summary.md"), "utf8")).match(/broken-C/g)?.length,
      ).toBeGreaterThan(0);
    },
    TIMEOUT,
  );

  it(
    "--preflight off: no health.json, every task compared, no health line",
    async () => {
      const out = sandbox.dir("run-preflight-off");
      const r = await runCli(runArgs("e2e-health", out, ...tasks, "--preflight", "off"), {
        env: sandbox.env(),
      });
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).not.toContain("preflight:");
      expect(existsSync(path.join(out, "health.json"))).toBe(false);
      expect(r.stdout).not.toContain("Task health:");
      const c = JSON.parse(await readFile(path.join(out, "comparison.json"), "utf8")) as Comparison;
      expect(c.health).toBeUndefined();
      expect(c.paired.tasks.sort()).toEqual(["broken", "sound", "vacuous"]);
    },
    TIMEOUT,
  );
});
