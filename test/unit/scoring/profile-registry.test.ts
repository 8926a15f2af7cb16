/**
 * The profile plug-in interface: every built-in lives in its own folder with a README, is
 * documented in docs/rubrics.md with the weights the code uses, and reaches the rest of the
 * pipeline only through `RubricProfile` and the registry's lookups.
 */
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  builtinProfiles,
  checksForRun,
  skillHooks,
  profileInteractionDefaults,
  profileJudge,
  promptForProfile,
  resolveProfile,
  scoreRubric,
  type RubricProfile,
} from "../../../src/scoring/index.js";
import {
  claimingProfile,
  nativeTreatment,
  taskInteractionMode,
} from "../../../src/scoring/registry.js";
import { rubricInput } from "./helpers.js";

const ROOT = new URL("../../../", import.meta.url);
const RUBRICS_MD = readFileSync(fileURLToPath(new URL("docs/rubrics.md", ROOT)), "utf8");

/** `| dim | weight | …` rows of the docs section `## <name> (…)`. */
function documentedWeights(name: string): [string, number][] {
  const start = RUBRICS_MD.indexOf(`\n## ${name} (`);
  if (start < 0) return [];
  const end = RUBRICS_MD.indexOf("\n## ", start + 1);
  const section = RUBRICS_MD.slice(start, end < 0 ? undefined : end);
  const table = section.slice(section.indexOf("| dimension | weight |"));
  const rows: [string, number][] = [];
  for (const line of table.split("\n").slice(2)) {
    const m = /^\| (\w+) \| ([0-9.]+) \|/.exec(line);
    if (!m) break;
    rows.push([m[1] ?? "", Number(m[2])]);
  }
  return rows;
}

describe("built-in profiles", () => {
  const names = Object.keys(builtinProfiles);

  it("are generic, comet-workflow and authoring-skill", () => {
    expect(names).toEqual(["generic", "comet-workflow", "authoring-skill"]);
  });

  it.each(names)("%s has its folder with a README naming every dimension", (name) => {
    const readme = new URL(`src/scoring/profiles/${name}/README.md`, ROOT);
    expect(existsSync(fileURLToPath(readme))).toBe(true);
    expect(readFileSync(fileURLToPath(readme), "utf8")).toContain(`# Profile \`${name}\``);
  });

  it.each(names)("%s: docs/rubrics.md lists its dimensions and weights in order", (name) => {
    const profile = resolveProfile(name);
    expect(documentedWeights(name)).toEqual(profile.dimensions.map((d) => [d.name, d.weight]));
  });

  it.each(names)("%s: dimension names are unique and weights positive", (name) => {
    const dims = resolveProfile(name).dimensions;
    expect(new Set(dims.map((d) => d.name)).size).toBe(dims.length);
    for (const d of dims) expect(d.weight).toBeGreaterThan(0);
  });
});

describe("what a profile settles before scoring, by name", () => {
  it("comet-workflow puts its contract in front of the prompt; others leave it alone", () => {
    const p = promptForProfile("comet-workflow", "Do the task.");
    expect(p.startsWith("## Eval harness requirement\n")).toBe(true);
    expect(p.endsWith("\n\nDo the task.")).toBe(true);
    expect(promptForProfile("generic", "Do the task.")).toBe("Do the task.");
    expect(promptForProfile("authoring-skill", "Do the task.")).toBe("Do the task.");
    expect(promptForProfile("my-suite-profile", "Do the task.")).toBe("Do the task.");
  });

  it("the judge prompt is comet for comet-workflow only", () => {
    expect(profileJudge("comet-workflow")?.kind).toBe("comet");
    expect(profileJudge("generic")).toBeNull();
    expect(profileJudge("authoring-skill")).toBeNull();
    expect(profileJudge("constructor")).toBeNull();
  });

  it("loop defaults come from the profile, else single-turn with 12 turns", () => {
    expect(profileInteractionDefaults("comet-workflow")).toMatchObject({
      mode: "auto_user",
      max_turns: 12,
    });
    expect(profileInteractionDefaults("authoring-skill")).toMatchObject({
      mode: "auto_user",
      max_turns: 8,
    });
    expect(profileInteractionDefaults("toString")).toEqual(profileInteractionDefaults("generic"));
  });
});

describe("a profile plugs in through the interface alone", () => {
  const plugin: RubricProfile = {
    name: "two-checks",
    emptyChecks: { score: 0, reason: "no checks" },
    dimensions: [
      {
        name: "validators",
        weight: 3,
        evaluate: (i) => ({
          checks: i.baseline.passed.map((name) => ({ name, passed: true })),
          reason: "validator checks",
        }),
      },
      {
        name: "never_applies",
        weight: 1,
        evaluate: () => ({ checks: [], reason: "", na: "not for this run" }),
      },
    ],
    checksForRun: (treatment, baseline) => ({
      passed: [...baseline.passed],
      failed: treatment === "LENIENT" ? [] : [...baseline.failed],
      dropped: treatment === "LENIENT" ? [...baseline.failed] : [],
    }),
    hardFailures: (i) => (i.baseline.passed.length === 0 ? ["nothing passed"] : []),
  };
  const suite = { [plugin.name]: plugin };

  it("is found by name among the suite's profiles and scored by the core", () => {
    const p = resolveProfile("two-checks", suite);
    const r = scoreRubric(p, rubricInput({ baseline: { passed: ["a"], failed: ["b"] } }));
    expect(r.profile).toBe("two-checks");
    expect(r.rubric_lines).toEqual([
      "[RUBRIC] validators: 1.00 - validator checks",
      "[RUBRIC] never_applies: N/A - not for this run",
      "[RUBRIC] weighted_score: 1.00",
    ]);
    expect(r.hard_failures).toEqual([]);
  });

  it("its checksForRun decides which validator checks count", () => {
    const baseline = { passed: ["a"], failed: ["b"] };
    expect(checksForRun(plugin, "LENIENT", baseline)).toEqual({
      passed: ["a"],
      failed: [],
      dropped: ["b"],
    });
    expect(checksForRun(plugin, "STRICT", baseline)).toEqual({ ...baseline, dropped: [] });
  });

  it("without the hook every check counts (copied, not shared)", () => {
    const baseline = { passed: ["a"], failed: ["b"] };
    const out = checksForRun({}, "CONTROL", baseline);
    expect(out).toEqual({ ...baseline, dropped: [] });
    expect(out.passed).not.toBe(baseline.passed);
  });
});

describe("the hooks asked of every built-in, whatever the run's profile", () => {
  const guard = (runner: string, file: string) => ({
    PreToolUse: [
      {
        matcher: "Write|Edit|MultiEdit",
        hooks: [{ type: "command", command: `${runner} "$CLAUDE_PROJECT_DIR/${file}"` }],
      },
    ],
  });
  const SKILLS = ".claude/skills";
  it.each<[string, string[], string, ReturnType<typeof guard>[]]>([
    ["no comet Skill", [], SKILLS, []],
    [
      "the .mjs guard",
      [`${SKILLS}/comet/scripts/comet-hook-guard.mjs`],
      SKILLS,
      [guard("node", `${SKILLS}/comet/scripts/comet-hook-guard.mjs`)],
    ],
    [
      "the .sh guard",
      [`${SKILLS}/comet/scripts/comet-hook-guard.sh`],
      SKILLS,
      [guard("bash", `${SKILLS}/comet/scripts/comet-hook-guard.sh`)],
    ],
    [
      "both: the .mjs one",
      [
        `${SKILLS}/comet/scripts/comet-hook-guard.sh`,
        `${SKILLS}/comet/scripts/comet-hook-guard.mjs`,
      ],
      SKILLS,
      [guard("node", `${SKILLS}/comet/scripts/comet-hook-guard.mjs`)],
    ],
    [
      "another agent's Skills folder",
      [".agents/skills/comet/scripts/comet-hook-guard.sh"],
      ".agents/skills",
      [guard("bash", ".agents/skills/comet/scripts/comet-hook-guard.sh")],
    ],
    ["a guard in another Skill", [`${SKILLS}/other/scripts/comet-hook-guard.mjs`], SKILLS, []],
  ])("skillHooks: %s", (_name, present, skillsDir, want) => {
    expect(skillHooks((rel) => present.includes(rel), skillsDir)).toEqual(want);
  });

  it("nativeTreatment: the Native block and the names that are Native without saying so", () => {
    const native = nativeTreatment();
    expect(native?.treatments).toEqual({
      COMET_NATIVE_PHASE1: { clarification_mode: null },
      COMET_NATIVE_SEQUENTIAL: { clarification_mode: "sequential" },
      COMET_NATIVE_BATCH: { clarification_mode: "batch" },
    });
    expect(native?.prefix("archive", "batch")).toMatch(
      /^\[COMET NATIVE TREATMENT\]\n[^]*`batch`[^]*\n\[ORIGINAL BUSINESS TASK\]\n$/,
    );
  });

  it.each<[string, string, string]>([
    ["comet", "x", "comet-workflow"],
    ["", "comet-x", "comet-workflow"],
    ["Comet", "x", "generic"],
    ["", "cometx", "generic"],
    ["authoring", "comet", "generic"],
    ["", "", "generic"],
  ])("claimingProfile(%j, %j) = %s", (category, name, want) => {
    expect(claimingProfile(category, name)).toBe(want);
  });

  it.each<[string, "none" | "auto_user"]>([
    ["comet-workflow", "auto_user"],
    ["generic", "none"],
    ["authoring-skill", "none"],
    ["my-suite-profile", "none"],
    ["constructor", "none"],
  ])("taskInteractionMode(%s) = %s", (name, want) => {
    expect(taskInteractionMode(name)).toBe(want);
  });
});
