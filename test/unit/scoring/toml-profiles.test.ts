import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InputError } from "../../../src/core/errors.js";
import {
  formatRubricLine,
  loadProfileFile,
  loadSuiteProfiles,
  proxyScore,
  resolveProfile,
  scoreRubric,
} from "../../../src/scoring/index.js";
import { rubricInput, toolCalls } from "./helpers.js";
import type { InputOverrides } from "./helpers.js";

let dir = "";
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "sb-profiles-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function write(name: string, text: string): Promise<string> {
  const f = path.join(dir, name);
  await writeFile(f, text);
  return f;
}

const DECL = `
format = "skillbench.rubric.v1"
name = "docs-rubric"
description = "README work"

[[dimension]]
name = "readme"
weight = 2.0
  [[dimension.check]]
  kind = "file_exists"
  path = "README.md"
  hard = true
  message = "README.md was not written"
  [[dimension.check]]
  kind = "file_matches"
  path = "README.md"
  regex = "^## Usage$"
  flags = "im"

[[dimension]]
name = "process"
weight = 1
  [[dimension.check]]
  kind = "command_ran"
  regex = "npm (run )?test"
  [[dimension.check]]
  kind = "no_command"
  regex = "git push"
  hard = true
  [[dimension.check]]
  kind = "skill_invoked"
  name = "docs-writer"
  [[dimension.check]]
  kind = "validator_check"
  name = "links_ok"
  [[dimension.check]]
  kind = "validator_check"
  regex = "^lint"
  status = "failed"
  label = "lint failed (expected in this fixture)"
  [[dimension.check]]
  kind = "count"
  of = "tool_calls"
  max = 3
  [[dimension.check]]
  kind = "count"
  of = "files_created"
  min = 1
  max = 1
  [[dimension.check]]
  kind = "file_exists"
  glob = "docs/**/*.md"
`;

describe("declarative rubric (skillbench.rubric.v1)", () => {
  it.each<[string, InputOverrides, [number, string][], string[]]>([
    [
      "everything passes",
      {
        ws: { "README.md": "# X\n\n## usage\nrun it\n", "docs/guide/a.md": "a" },
        evidence: {
          commands_run: ["npm run test"],
          skills_invoked: ["docs-writer"],
          tool_calls: toolCalls(3),
          files_created: ["README.md"],
        },
        baseline: { passed: ["links_ok: 3 links"], failed: ["lint: 2 warnings"] },
      },
      [
        [1, "2/2 passed"],
        [1, "8/8 passed"],
      ],
      [],
    ],
    [
      "nothing passes",
      {
        ws: { "notes.txt": "x" },
        evidence: { commands_run: ["git push origin main"], tool_calls: toolCalls(4) },
        baseline: { passed: ["links_ok_extra"], failed: [] },
      },
      [
        [0, "0/2 passed; failed: file_exists README.md; file_matches README.md /^## Usage$/im"],
        [
          0,
          "0/8 passed; failed: command_ran /npm (run )?test/; no_command /git push/; skill_invoked docs-writer; validator_check links_ok passed; lint failed (expected in this fixture); count tool_calls in [0, 3]; count files_created in [1, 1]; file_exists docs/**/*.md",
        ],
      ],
      ["README.md was not written", "Rubric check failed: process: no_command /git push/"],
    ],
    [
      "README without the section; exact validator name",
      {
        ws: { "README.md": "# X\n## Usage notes\n" },
        evidence: { commands_run: ["npm test"] },
        baseline: { passed: ["links_ok"] },
      },
      [
        [0.5, "1/2 passed; failed: file_matches README.md /^## Usage$/im"],
        // command, no_command, validator name, tool_calls 0 <= 3 pass; skill, lint, files_created, glob fail -> 4/8
        [
          0.5,
          "4/8 passed; failed: skill_invoked docs-writer; lint failed (expected in this fixture); count files_created in [1, 1]; file_exists docs/**/*.md",
        ],
      ],
      [],
    ],
  ])("%s", async (_l, o, dims, hard) => {
    const p = await loadProfileFile(await write("docs-rubric.toml", DECL));
    expect(p.name).toBe("docs-rubric");
    const r = scoreRubric(p, rubricInput(o));
    expect(r.dimensions.map((d) => [d.score, d.reason])).toEqual(dims);
    // weights 2 and 1
    expect(r.weighted_score).toBeCloseTo((2 * (dims[0]?.[0] ?? 0) + (dims[1]?.[0] ?? 0)) / 3, 12);
    expect(r.hard_failures).toEqual(hard);
  });

  it("count of turns and files_modified, and the name defaults to the file stem", async () => {
    const f = await write(
      "stem-name.toml",
      'format = "skillbench.rubric.v1"\n[[dimension]]\nname = "d"\nweight = 1\n[[dimension.check]]\nkind = "count"\nof = "turns"\nmin = 2\n[[dimension.check]]\nkind = "count"\nof = "files_modified"\nmax = 0\n[[dimension.check]]\nkind = "count"\nof = "commands"\nmin = 1\n',
    );
    const p = await loadProfileFile(f);
    expect(p.name).toBe("stem-name");
    const r = scoreRubric(
      p,
      rubricInput({ evidence: { num_turns: 2, files_modified: ["a"], commands_run: ["ls"] } }),
    );
    expect(r.dimensions[0] && formatRubricLine(r.dimensions[0])).toBe(
      "[RUBRIC] d: 0.67 - 2/3 passed; failed: count files_modified in [0, 0]",
    );
  });

  const HEAD = 'format = "skillbench.rubric.v1"\n';
  const DIM = '[[dimension]]\nname = "d"\nweight = 1\n';
  it.each<[string, string, string]>([
    ["bad TOML", "format = \n", "invalid TOML"],
    [
      "wrong format",
      'format = "skillbench.rubric.v9"\n',
      'format: expected "skillbench.rubric.v1", got "skillbench.rubric.v9"',
    ],
    [
      "[[dimension]] without format",
      `${DIM}[[dimension.check]]\nkind = "skill_invoked"\nname = "x"\n`,
      "format: [[dimension]] tables need format",
    ],
    ["no dimensions", HEAD, "dimension: "],
    [
      "empty dimension list",
      `${HEAD}dimension = []\n`,
      "dimension: a rubric needs at least one [[dimension]]",
    ],
    ["dimension without checks", `${HEAD}${DIM}`, "dimension[0].check: "],
    [
      "unknown kind",
      `${HEAD}${DIM}[[dimension.check]]\nkind = "llm_judge"\n`,
      "dimension[0].check[0].kind: ",
    ],
    [
      "bad regex",
      `${HEAD}${DIM}[[dimension.check]]\nkind = "command_ran"\nregex = "("\n`,
      "dimension[0].check[0].regex: invalid regular expression",
    ],
    [
      "bad flags",
      `${HEAD}${DIM}[[dimension.check]]\nkind = "command_ran"\nregex = "x"\nflags = "g"\n`,
      "dimension[0].check[0].flags: only the flags i, m and s are allowed",
    ],
    [
      "unknown key in a check",
      `${HEAD}${DIM}[[dimension.check]]\nkind = "skill_invoked"\nname = "x"\npath = "y"\n`,
      "dimension[0].check[0]: ",
    ],
    [
      "path and glob",
      `${HEAD}${DIM}[[dimension.check]]\nkind = "file_exists"\npath = "a"\nglob = "*.md"\n`,
      "dimension[0].check[0].path: give exactly one of path or glob",
    ],
    [
      "validator_check without name or regex",
      `${HEAD}${DIM}[[dimension.check]]\nkind = "validator_check"\n`,
      "dimension[0].check[0].name: give exactly one of name or regex",
    ],
    [
      "count without bounds",
      `${HEAD}${DIM}[[dimension.check]]\nkind = "count"\nof = "turns"\n`,
      "dimension[0].check[0].min: give min, max or both",
    ],
    [
      "count min > max",
      `${HEAD}${DIM}[[dimension.check]]\nkind = "count"\nof = "turns"\nmin = 3\nmax = 1\n`,
      "dimension[0].check[0].min: min must not exceed max",
    ],
    [
      "count of an unknown thing",
      `${HEAD}${DIM}[[dimension.check]]\nkind = "count"\nof = "tokens"\nmax = 1\n`,
      "dimension[0].check[0].of: ",
    ],
    [
      "negative weight",
      `${HEAD}[[dimension]]\nname = "d"\nweight = -1\n[[dimension.check]]\nkind = "skill_invoked"\nname = "x"\n`,
      "dimension[0].weight: ",
    ],
    [
      "bad dimension name",
      `${HEAD}[[dimension]]\nname = "has space"\nweight = 1\n[[dimension.check]]\nkind = "skill_invoked"\nname = "x"\n`,
      "dimension[0].name: must start with a letter",
    ],
    [
      "duplicate dimension",
      `${HEAD}${DIM}[[dimension.check]]\nkind = "skill_invoked"\nname = "x"\n${DIM}[[dimension.check]]\nkind = "skill_invoked"\nname = "x"\n`,
      'dimension[1].name: duplicate dimension name "d"',
    ],
    [
      "unknown top-level key",
      `${HEAD}colour = "red"\n${DIM}[[dimension.check]]\nkind = "skill_invoked"\nname = "x"\n`,
      "(top level): ",
    ],
  ])("loading error: %s", async (_l, text, msg) => {
    const f = await write("bad.toml", text);
    const err = await loadProfileFile(f).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect(err instanceof Error ? err.message : "").toContain(`${f}: `);
    expect(err instanceof Error ? err.message : "").toContain(msg);
  });

  it("a missing file is an InputError naming it", async () => {
    const f = path.join(dir, "nope.toml");
    await expect(loadProfileFile(f)).rejects.toThrow(`${f}: cannot read profile`);
  });
});

const LEGACY = `
[hard_checks]
target_artifacts = ["dist/*.css", "README.md"]
stylelint_exit_code = 0
build_exit_code = 0

[[rubric]]
name = "visual_fidelity"

[[rubric]]
name = "code_quality"
min_score = 1
max_score = 4
`;

describe("custom hard-check TOML profile (docs/rubrics.md)", () => {
  it.each<[number, number, number, number, number]>([
    [3, 3, 0, 2, 2],
    [2, 3, 0, 2, 1],
    [2, 4, 0, 2, 1],
    [1, 3, 0, 2, 0],
    [0, 3, 1, 4, 1],
    [2, 3, 1, 4, 2.5],
  ])("proxyScore(%i/%i, %d..%d) = %d", (p, t, min, max, want) => {
    expect(proxyScore(p, t, min, max)).toBe(want);
  });

  it.each<[string, InputOverrides, string[], string[]]>([
    [
      "all hard checks pass",
      {
        files: ["dist/app.css", "README.md"],
        baseline: { passed: ["Stylelint: clean", "npm run build ok"] },
      },
      [
        "[RUBRIC] visual_fidelity: 1.00 - hard-check proxy 3/3 passed; raw 2.00 of 2.00; no LLM score used",
        "[RUBRIC] code_quality: 1.00 - hard-check proxy 3/3 passed; raw 4.00 of 4.00; no LLM score used",
        "[RUBRIC] weighted_score: 1.00",
      ],
      [],
    ],
    [
      "two of three (midpoint)",
      {
        files: ["dist/app.css", "README.md"],
        baseline: { passed: ["stylelint ok", "build ok"], failed: ["build: 1 error"] },
      },
      [
        // midpoint 1 of 2 -> 0.50; (1+4)/2 = 2.5 of 4 -> 0.625
        "[RUBRIC] visual_fidelity: 0.50 - hard-check proxy 2/3 passed; raw 1.00 of 2.00; no LLM score used",
        "[RUBRIC] code_quality: 0.63 - hard-check proxy 2/3 passed; raw 2.50 of 4.00; no LLM score used",
        "[RUBRIC] weighted_score: 0.56",
      ],
      ["[HARD] build_exit_code: expected 0, completion reported failure"],
    ],
    [
      "one of three (min)",
      { files: ["README.md"], baseline: { passed: ["stylelint ok"] } },
      [
        "[RUBRIC] visual_fidelity: 0.00 - hard-check proxy 1/3 passed; raw 0.00 of 2.00; no LLM score used",
        "[RUBRIC] code_quality: 0.25 - hard-check proxy 1/3 passed; raw 1.00 of 4.00; no LLM score used",
        "[RUBRIC] weighted_score: 0.13",
      ],
      [
        "[HARD] target_artifacts: missing dist/*.css",
        "[HARD] build_exit_code: no completion evidence",
      ],
    ],
  ])("%s", async (_l, o, lines, hard) => {
    const p = await loadProfileFile(await write("style-check.toml", LEGACY));
    expect(p.name).toBe("style-check");
    const r = scoreRubric(p, rubricInput(o));
    expect(r.rubric_lines).toEqual(lines);
    expect(r.hard_failures).toEqual(hard);
  });

  it.each<[string, string, string]>([
    [
      "non-zero exit code",
      "[hard_checks]\nbuild_exit_code = 1\n",
      "hard_checks.build_exit_code: must be 0",
    ],
    ["unknown hard check", "[hard_checks]\nlint_exit_code = 0\n", "hard_checks: "],
    [
      "min above max",
      '[[rubric]]\nname = "x"\nmin_score = 3\nmax_score = 2\n',
      "rubric[0].min_score: min_score must not exceed max_score",
    ],
    ["zero max", '[[rubric]]\nname = "x"\nmax_score = 0\n', "rubric[0].max_score: "],
    [
      "target_artifacts not a list",
      '[hard_checks]\ntarget_artifacts = "x"\n',
      "hard_checks.target_artifacts: ",
    ],
  ])("loading error: %s", async (_l, text, msg) => {
    const f = await write("bad-legacy.toml", text);
    await expect(loadProfileFile(f)).rejects.toThrow(`${f}: ${msg}`);
  });
});

describe("loadSuiteProfiles + resolveProfile", () => {
  it("loads a suite, overrides a built-in by name, and lists suite names when one is unknown", async () => {
    const a = await write("a.toml", LEGACY);
    const g = await write(
      "generic.toml",
      'format = "skillbench.rubric.v1"\n[[dimension]]\nname = "d"\nweight = 1\n[[dimension.check]]\nkind = "skill_invoked"\nname = "x"\n',
    );
    const suite = await loadSuiteProfiles([
      { name: "a", file: a },
      { name: "generic", file: g },
    ]);
    expect(Object.keys(suite)).toEqual(["a", "generic"]);
    expect(resolveProfile("generic", suite).source).toBe(g);
    expect(resolveProfile("comet-workflow", suite).name).toBe("comet-workflow");
    expect(() => resolveProfile("zzz", suite)).toThrow(
      "Profile not found: zzz. Available: a, authoring-skill, comet-workflow, generic",
    );
  });

  it("two files defining the same name are an InputError", async () => {
    const a = await write("one.toml", 'name = "same"\n');
    const b = await write("two.toml", 'name = "same"\n');
    await expect(
      loadSuiteProfiles([
        { name: "one", file: a },
        { name: "two", file: b },
      ]),
    ).rejects.toThrow(`${b}: name: profile "same" is also defined in ${a}`);
  });
});
