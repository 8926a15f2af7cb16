/**
 * Depth of Skill use end to end (issue #37 item 1; docs/evidence.md "Depth of use"): the built CLI,
 * Claude Code and the scripted model on the e2e-depth suite. The fmt Skill has six files
 * (SKILL.md, two references, two scripts, an asset), references/format.md declared its key file.
 * - WITH_SKILL rep 1 invokes fmt, reads references/format.md and runs scripts/stamp.sh: 3 of 6
 *   files, coverage 0.5, and passes; rep 2 invokes it and reads nothing else (1 of 6) and fails;
 *   CONTROL fails both: its runs have no `skill_usage`;
 * - summary.md, comparison_report.md and the HTML say "fired in 2/2 runs; `references/format.md`
 *   (key file) read in 1/2"; the lift splits by the key file: +1.00 when read (1 run), 0.00 when not;
 * - `rescore` derives the same usage from the stored evidence;
 * - a manifest's key file that is not in the Skill is bad input: exit 2, file, field and line.
 */
import { cp, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunReport } from "../../src/core/report.js";
import type { Comparison } from "../../src/report/comparison/index.js";
import { readReports } from "../../src/store/read.js";
import {
  assertBuilt,
  fixtureSuite,
  makeSandbox,
  runArgs,
  runCli,
  type Sandbox,
} from "../helpers/cli.js";

const FILES = [
  "SKILL.md",
  "assets/template.txt",
  "references/format.md",
  "references/style.md",
  "scripts/stamp.sh",
  "scripts/unused.sh",
];
const LINE =
  "stamp · WITH_SKILL: `fmt` fired in 2/2 runs; `references/format.md` (key file) read in 1/2; coverage 33% on average";

let box: Sandbox;
let out: string;
let reports: RunReport[];
const runOf = (treatment: string, rep: number): RunReport => {
  const r = reports.find((x) => x.treatment === treatment && x.rep === rep);
  if (!r) throw new Error(`no run ${treatment} r${rep}`);
  return r;
};

beforeAll(async () => {
  assertBuilt();
  box = await makeSandbox("e2e-depth");
  out = box.dir("depth");
  const res = await runCli(
    runArgs(
      "e2e-depth",
      out,
      "--count",
      "2",
      "-j",
      "2",
      "--sandbox",
      "local",
      "--preflight",
      "off",
      "--exit-zero",
    ),
    { env: box.env() },
  );
  expect(res.code, res.stderr).toBe(0);
  reports = (await readReports(out)).reports;
}, 300_000);
afterAll(async () => {
  await box?.remove();
});

describe("depth of use per run (report.json skill_usage)", () => {
  it("the run that read the key file and ran the script used half the Skill", () => {
    const r = runOf("WITH_SKILL", 1);
    expect(r.passed).toBe(true);
    expect(r.skill_usage).toEqual([
      {
        skill: "fmt",
        invoked: true,
        files_read: ["SKILL.md", "references/format.md"],
        scripts_run: ["scripts/stamp.sh"],
        coverage: 0.5,
        files: FILES,
        key_files: ["references/format.md"],
      },
    ]);
  });

  it("the run that only invoked it used SKILL.md alone; CONTROL records none", () => {
    const r = runOf("WITH_SKILL", 2);
    expect(r.passed).toBe(false);
    expect(r.skill_usage?.[0]).toMatchObject({
      invoked: true,
      files_read: ["SKILL.md"],
      scripts_run: [],
      coverage: 1 / 6,
    });
    for (const rep of [1, 2]) expect(runOf("CONTROL", rep)).not.toHaveProperty("skill_usage");
  });
});

describe("the reports", () => {
  it("summary.md, comparison_report.md and the HTML carry the line", async () => {
    expect(await readFile(path.join(out, "summary.md"), "utf8")).toContain(`- ${LINE}`);
    const md = await readFile(path.join(out, "comparison_report.md"), "utf8");
    expect(md).toContain(`## Skill use`);
    expect(md).toContain(`- ${LINE}`);
    const html = await readFile(path.join(out, "summary.html"), "utf8");
    expect(html).toContain(JSON.stringify(LINE).slice(1, -1).replace(/</g, "\\u003c"));
  });

  it("the lift splits by whether the key file was read", async () => {
    const c = JSON.parse(await readFile(path.join(out, "comparison.json"), "utf8")) as Comparison;
    expect(c.lift.key_file).toMatchObject({
      key_files: ["references/format.md"],
      read: { delta: 1, runs: 1 },
      not_read: { delta: 0, runs: 1 },
    });
    expect(c.skill_use?.[0]).toMatchObject({ fired: 2, runs: 2, file_read: 1, key: true });
    const md = await readFile(path.join(out, "comparison_report.md"), "utf8");
    expect(md).toMatch(/\| Lift when key file read \| \+1\.00 .*\(1 runs\) \|/);
    expect(md).toMatch(/\| Lift when key file not read \| [+]?0\.00 .*\(1 runs\) \|/);
  });
});

describe("rescore", () => {
  it("derives the same usage again from the stored evidence", async () => {
    const before = runOf("WITH_SKILL", 1).skill_usage;
    const res = await runCli(["rescore", out], { env: box.env() });
    expect(res.code, res.stderr).toBe(0);
    reports = (await readReports(out)).reports;
    expect(runOf("WITH_SKILL", 1).skill_usage).toEqual(before);
    expect(await readFile(path.join(out, "summary.md"), "utf8")).toContain(`- ${LINE}`);
  });
});

describe("key_files in an eval manifest", () => {
  it("a key file that is not in the Skill: exit 2 naming file, field and line", async () => {
    const dir = box.dir("fmt");
    await cp(path.join(fixtureSuite("e2e-depth"), "skills", "fmt"), dir, { recursive: true });
    await writeFile(
      path.join(dir, "eval.yaml"),
      "apiVersion: comet.eval/v1alpha1\nkind: SkillEvalManifest\nmetadata: {name: x}\nskill:\n  name: fmt\n  key_files:\n    - references/format.md\n    - references/missing.md\nevaluation:\n  tasks:\n    - name: t\n      prompt: p\n      expect: {files: [a]}\n",
    );
    const r = await runCli(["validate", dir], { env: box.env() });
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toMatch(
      /eval\.yaml: skill\.keyFiles\[1\]: "references\/missing\.md" is not a file of the Skill .* \(line 8\)/,
    );
  });
});
