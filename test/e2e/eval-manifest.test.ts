/**
 * `skillbench eval SKILL_DIR` end to end with the real claude binary and the scripted model:
 *  - test/fixtures/skills/greeter: eval.yaml (camelCase), an inline task whose `expect` uses
 *    every check kind, an authored task folder beside it, a frozen baseline from a folder,
 *    quality gates that pass (exit 0); then `rescore` of the folder reproduces every report;
 *  - test/fixtures/skills/comet-style: comet/eval.yaml (snake_case, skill.source ..), a
 *    workspace fixture folder, and a gate that fails (exit 1, the gate named).
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  assertBuilt,
  makeSandbox,
  readRunReport,
  REPO_ROOT,
  reportedRunIds,
  runCli,
  type CliResult,
  type Sandbox,
} from "../helpers/cli.js";

const skill = (name: string): string => path.join(REPO_ROOT, "test", "fixtures", "skills", name);

let box: Sandbox;
let greeterOut: string;
let cometOut: string;
let greeter: CliResult;
let comet: CliResult;

function evalArgs(name: string, out: string, ...extra: string[]): string[] {
  return [
    "eval",
    skill(name),
    "--model-script",
    path.join(skill(name), "model-script.yaml"),
    "--out",
    out,
    "--env",
    "CLAUDE_CODE_MAX_RETRIES=0",
    "-j",
    "2",
    ...extra,
  ];
}

beforeAll(async () => {
  assertBuilt();
  box = await makeSandbox("eval");
  greeterOut = box.dir("greeter");
  cometOut = box.dir("comet");
  greeter = await runCli(evalArgs("greeter", greeterOut), { env: box.env() });
  comet = await runCli(evalArgs("comet-style", cometOut), { env: box.env() });
}, 300_000);

afterAll(async () => {
  await box.remove();
});

describe("eval on a Skill with eval.yaml (inline and authored tasks, a frozen baseline)", () => {
  it("runs CONTROL, the Skill now and the baseline × every task × trials, and exits 0", async () => {
    expect(greeter.code, greeter.stderr).toBe(0);
    const ids = await reportedRunIds(greeterOut);
    expect(ids).toEqual(
      [
        "farewell-CONTROL-r1",
        "farewell-CONTROL-r2",
        "farewell-GREETER_V1-r1",
        "farewell-GREETER_V1-r2",
        "farewell-WITH_SKILL-r1",
        "farewell-WITH_SKILL-r2",
        "greet-CONTROL-r1",
        "greet-CONTROL-r2",
        "greet-GREETER_V1-r1",
        "greet-GREETER_V1-r2",
        "greet-WITH_SKILL-r1",
        "greet-WITH_SKILL-r2",
      ].sort(),
    );
  });

  it("compiles expect into checks that read like any validator's", async () => {
    const ok = await readRunReport(greeterOut, "greet-WITH_SKILL-r1");
    expect(ok.checks_failed).toEqual([]);
    expect(ok.checks_passed).toEqual([
      "file_exists:greeting.txt",
      "file_absent:TODO.txt",
      "contains:greeting.txt:^Hello, friend!$",
      "not_contains:greeting.txt:/^hi$/im",
      "json:status.json:greeted.name",
      "command:grep -q friend greeting.txt",
      "skill_invoked:greeter",
    ]);
    const bad = await readRunReport(greeterOut, "greet-CONTROL-r1");
    expect(bad.passed).toBe(false);
    expect(bad.checks_passed).toEqual(["file_exists:greeting.txt"]);
    expect(bad.checks_failed).toEqual([
      "file_absent:TODO.txt: exists: TODO.txt",
      "contains:greeting.txt:^Hello, friend!$: no match in greeting.txt (3 chars)",
      "not_contains:greeting.txt:/^hi$/im: matched in greeting.txt",
      "json:status.json:greeted.name: status.json not found",
      "command:grep -q friend greeting.txt: exit 1: ",
      "skill_invoked:greeter: the Skill was not invoked",
    ]);
    // The authored task folder runs its own validator.
    expect((await readRunReport(greeterOut, "farewell-CONTROL-r1")).checks_passed).toEqual([
      "bye_written",
    ]);
  });

  it("freezes the Skill and the baseline in the results folder, without the eval material", async () => {
    const ok = await readRunReport(greeterOut, "greet-WITH_SKILL-r1");
    const base = await readRunReport(greeterOut, "greet-GREETER_V1-r1");
    expect(ok.skill_sources.map((s) => s.name)).toEqual(["greeter"]);
    expect(ok.skill_sources[0]?.hash).not.toEqual(base.skill_sources[0]?.hash);
    const treatments = await readFile(path.join(greeterOut, "suite/treatments/eval.yaml"), "utf8");
    expect(treatments).toContain(path.join(greeterOut, "suite/skills/GREETER_V1/greeter"));
    const installed = await readdir(path.join(greeterOut, "suite/skills/current/greeter"));
    expect(installed).not.toContain("eval.yaml");
    expect(await readdir(path.join(greeterOut, "suite/skills/current/greeter/tasks"))).toEqual([]);
  });

  it("prints the verdict and the gates, and writes them as their own report", async () => {
    // 2 tasks x 2 runs, all passing in both arms: too few runs for a non-inferiority claim.
    expect(greeter.stdout).toMatch(
      /Verdict \(WITH_SKILL vs \S+\):\n {2}⚠️ Inconclusive: Not resolved at this sample size/,
    );
    expect(greeter.stdout).toContain("PASS  minPassRate: pass_rate = 1.000 ≥ 0.9");
    expect(greeter.stdout).toContain("PASS  minPassHat2: pass^2 = 1.000 ≥ 0.9");
    expect(greeter.stdout).toContain("PASS  noRegression:");
    const md = await readFile(path.join(greeterOut, "quality_gates.md"), "utf8");
    expect(md).toContain("| `minChecksPassRate` | checks_pass_rate | 1.000 | 0.9 | ✅ pass |");
    const ev = JSON.parse(await readFile(path.join(greeterOut, "eval.json"), "utf8")) as {
      quality_gates: { ok: boolean };
      compared_with: string;
      baselines: { name: string; origin: string }[];
    };
    expect(ev.quality_gates.ok).toBe(true);
    expect(ev.compared_with).toBe("GREETER_V1");
    expect(ev.baselines).toEqual([{ name: "GREETER_V1", origin: `path:${skill("greeter-v1")}` }]);
  });

  it("rescore treats the compiled tasks as any task: every report is reproduced", async () => {
    const file = path.join(greeterOut, "runs/greet-CONTROL-r2/report.json");
    const before: unknown = JSON.parse(await readFile(file, "utf8"));
    const res = await runCli(["rescore", greeterOut], { env: box.env() });
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(await readFile(file, "utf8"))).toEqual(before);
  });
});

describe("eval on a Comet-style Skill (comet/eval.yaml, snake_case) with a failing gate", () => {
  it("exits 1 and names the failing gate as written", async () => {
    expect(comet.code, comet.stderr).toBe(1);
    expect(comet.stderr).toContain("quality gate failed: min_pass_rate");
    expect(comet.stdout).toContain("FAIL  min_pass_rate: pass_rate = 0.500 < 1");
    expect(comet.stdout).toMatch(/PASS {2}min_weighted_score: weighted_score = \d\.\d{3} ≥ 0\.1/);
  });

  it("used the workspace fixture folder and the skill named in the manifest", async () => {
    const r = await readRunReport(cometOut, "record-fix-WITH_SKILL-r1");
    expect(r.checks_passed).toEqual([
      "file_exists:CHANGELOG.md",
      "contains:CHANGELOG.md:^- fix: .*empty config",
    ]);
    expect(r.skill_sources.map((s) => s.name)).toEqual(["changelog-keeper"]);
    const failed = await readRunReport(cometOut, "record-fix-WITH_SKILL-r2");
    expect(failed.checks_failed).toEqual([
      "contains:CHANGELOG.md:^- fix: .*empty config: no match in CHANGELOG.md (62 chars)",
    ]);
    const md = await readFile(path.join(cometOut, "quality_gates.md"), "utf8");
    expect(md).toContain("❌ 1 of 2 gate(s) fail.");
  });
});
