/**
 * A Skill's eval manifest must not pull the host's files into the runs (issue 39): every folder it
 * names is a relative path inside the Skill folder (symlinks resolved), and a symlink in a folder
 * about to be copied must not lead out of it. `validate` and `eval` refuse alike, with exit 2, the
 * file, the field and the line, before anything is copied or run.
 */
import { cp, mkdir, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  assertBuilt,
  makeSandbox,
  readRunReport,
  REPO_ROOT,
  runCli,
  type Sandbox,
} from "../helpers/cli.js";

const skill = (name: string): string => path.join(REPO_ROOT, "test", "fixtures", "skills", name);
let box: Sandbox;
let secret: string;

beforeAll(async () => {
  assertBuilt();
  box = await makeSandbox("manifest-inputs");
  secret = box.dir("host-secret");
  await mkdir(secret, { recursive: true });
  await writeFile(path.join(secret, "id_rsa"), "HOST-SECRET-KEY\n");
});
afterAll(async () => {
  await box.remove();
});

const HEAD =
  "apiVersion: comet.eval/v1alpha1\nkind: SkillEvalManifest\nmetadata: {name: x}\nskill: {name: greeter}\n";

/** A copy of the greeter Skill (and its baseline beside it) with `eval.yaml` replaced. */
async function skillWith(name: string, manifest: string): Promise<string> {
  const root = box.dir(name);
  const dir = path.join(root, "greeter");
  await cp(skill("greeter"), dir, { recursive: true });
  await cp(skill("greeter-v1"), path.join(root, "greeter-v1"), { recursive: true });
  await writeFile(path.join(dir, "eval.yaml"), manifest);
  return dir;
}

/** Every file under `dir` whose text holds the secret. */
async function holdingSecret(dir: string): Promise<string[]> {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const p = path.join(e.parentPath, e.name);
    if ((await readFile(p, "utf8")).includes("HOST-SECRET-KEY")) out.push(p);
  }
  return out;
}

const task = (extra: string): string =>
  `evaluation:\n  tasks:\n    - name: t\n      prompt: p\n${extra}      expect: {files: [a]}\n`;

describe("manifest paths: refused by validate and eval alike (exit 2, file, field, line)", () => {
  it.each([
    [
      "an absolute workspace folder",
      () => `${HEAD}${task(`      workspace: ${secret}\n`)}`,
      /eval\.yaml: evaluation\.tasks\[0\]\.workspace: must be a path relative to the manifest's folder, got absolute path .* \(line 9\)/,
    ],
    [
      "a workspace folder leading out of the Skill with ..",
      () => `${HEAD}${task("      workspace: ../../host-secret\n")}`,
      /eval\.yaml: evaluation\.tasks\[0\]\.workspace: "\.\.\/\.\.\/host-secret" leads outside the Skill folder .* \(line 9\)/,
    ],
    [
      "a workspace folder that is a symlink out of the Skill",
      () => `${HEAD}${task("      workspace: fixtures/link\n")}`,
      /eval\.yaml: evaluation\.tasks\[0\]\.workspace: "fixtures\/link" leads outside the Skill folder .*host-secret.* \(line 9\)/,
    ],
    [
      "a Skill source outside the Skill folder",
      () => `${HEAD.replace("{name: greeter}", "{name: greeter, source: ../..}")}${task("")}`,
      /eval\.yaml: skill\.source: "\.\.\/\.\." leads outside the Skill folder .* \(line 4\)/,
    ],
    [
      "an authored task folder outside the Skill",
      () => `${HEAD}evaluation:\n  tasks:\n    - source: ../../host-secret\n`,
      /eval\.yaml: evaluation\.tasks\[0\]\.source: "\.\.\/\.\.\/host-secret" leads outside the Skill folder .* \(line 7\)/,
    ],
    [
      "an absolute baseline folder",
      () =>
        `${HEAD}evaluation:\n  baselineTreatments:\n    - {name: OLD, path: ${secret}}\n${task("").replace("evaluation:\n", "")}`,
      /eval\.yaml: evaluation\.baselineTreatments\[0\]\.path: must be a path relative to the manifest's folder, got absolute path .* \(line 7\)/,
    ],
    [
      "an expect target outside the workspace",
      () =>
        `${HEAD}evaluation:\n  tasks:\n    - name: t\n      prompt: p\n      expect:\n        contains: {${secret}/id_rsa: [KEY]}\n`,
      /eval\.yaml: evaluation\.tasks\[0\]\.expect\.contains\..*id_rsa: must be relative to the workspace, got absolute path .* \(line 10\)/,
    ],
    [
      "an inline workspace file outside the workspace",
      () =>
        `${HEAD}${task("      workspace: {../../escape.txt: x}\n").replace("expect: {files: [a]}", "expect: {files: [a]}")}`,
      /eval\.yaml: evaluation\.tasks\[0\]\.workspace\.\.\.\/\.\.\/escape\.txt: escapes the workspace: .* \(line 9\)/,
    ],
  ])("%s", async (name, manifest, message) => {
    const dir = await skillWith(name.replace(/\W+/g, "-"), manifest());
    await mkdir(path.join(dir, "fixtures"), { recursive: true });
    await symlink(secret, path.join(dir, "fixtures", "link"));
    const v = await runCli(["validate", dir], { env: box.env() });
    expect(v.code, v.stdout + v.stderr).toBe(2);
    expect(v.stderr).toMatch(message);
    const out = box.dir(`${name.replace(/\W+/g, "-")}-out`);
    const e = await runCli(["eval", dir, "--out", out], {
      env: box.env(),
    });
    expect(e.code, e.stdout + e.stderr).toBe(2);
    expect(e.stderr).toMatch(message);
    expect(existsSync(path.join(out, "runs"))).toBe(false);
    expect(await holdingSecret(out)).toEqual([]);
  });

  it("the baseline beside the Skill (../greeter-v1) is still accepted", async () => {
    const dir = await skillWith(
      "baseline-beside",
      `${HEAD}evaluation:\n  baselineTreatments: [{name: OLD, path: ../greeter-v1}]\n${task("").replace("evaluation:\n", "")}`,
    );
    const v = await runCli(["validate", dir], { env: box.env() });
    expect(v.code, v.stderr).toBe(0);
    expect(v.stdout).toContain("Baselines: OLD ← path:");
  });
});

describe("symlinks out of the Skill: validate names the user's file", () => {
  it.each([
    [
      "in the Skill folder",
      async (dir: string) => {
        await symlink(path.join(secret, "id_rsa"), path.join(dir, "notes.md"));
        return `${HEAD}${task("")}`;
      },
      "notes.md",
      /symlink leads outside the Skill folder .*\(.*eval\.yaml: skill, line 4\)/,
    ],
    [
      "in a workspace fixture folder",
      async (dir: string) => {
        await mkdir(path.join(dir, "fixtures", "w"), { recursive: true });
        await symlink(path.join(secret, "id_rsa"), path.join(dir, "fixtures", "w", "key"));
        return `${HEAD}${task("      workspace: fixtures/w\n")}`;
      },
      "fixtures/w/key",
      /symlink leads outside its folder .*\(.*eval\.yaml: evaluation\.tasks\[0\]\.workspace, line 9\)/,
    ],
  ])("%s", async (name, setup, rel, message) => {
    const dir = await skillWith(`link-${name.replace(/\W+/g, "-")}`, HEAD);
    await writeFile(path.join(dir, "eval.yaml"), await setup(dir));
    for (const cmd of ["validate", "eval"]) {
      const out = box.dir(`link-${name.replace(/\W+/g, "-")}-${cmd}`);
      const args = cmd === "eval" ? ["eval", dir, "--out", out] : ["validate", dir];
      const r = await runCli(args, { env: box.env() });
      expect(r.code, r.stdout + r.stderr).toBe(2);
      // The user's own file is named, not the compiled copy inside a results or temp folder.
      expect(r.stderr).toContain(`error: ${path.join(dir, rel)}: symlink`);
      expect(r.stderr).toMatch(message);
      expect(await holdingSecret(out)).toEqual([]);
    }
  });
});

describe("a big Skill folder", () => {
  it("is copied with a warning above 1,000 files (validate and eval --dry-run)", async () => {
    const dir = await skillWith("big-skill", `${HEAD}${task("")}`);
    await mkdir(path.join(dir, "data"), { recursive: true });
    await Promise.all(
      Array.from({ length: 1001 }, (_, i) => writeFile(path.join(dir, "data", `f${i}.txt`), "x")),
    );
    const v = await runCli(["validate", dir], { env: box.env() });
    expect(v.code, v.stderr).toBe(0);
    expect(v.stderr).toMatch(
      /warning: .*big-skill\/greeter: the Skill folder holds 100\d file\(s\), .* \(warned above 1000 files or 50 MiB\)/,
    );
    const small = await runCli(["validate", skill("greeter")], { env: box.env() });
    expect(small.stderr).not.toContain("the Skill folder holds");
  });
});

describe("a catastrophic regex in inline expect", () => {
  it("fails its own check, named, within its time limit; the other expectations keep their results", async () => {
    const long = `${"a".repeat(40)}b`;
    const manifest = (await readFile(path.join(skill("greeter"), "eval.yaml"), "utf8"))
      .replace(
        '        README.md: "# A workspace for greetings\\n"\n',
        `        README.md: "# A workspace for greetings\\n"\n        long.txt: "${long}"\n`,
      )
      .replace(
        '          greeting.txt: ["^Hello, friend!$"]\n',
        '          greeting.txt: ["^Hello, friend!$"]\n          long.txt: ["^(a+)+$"]\n',
      );
    expect(manifest).toContain("^(a+)+$");
    const dir = await skillWith("catastrophic-regex", manifest);
    const out = box.dir("catastrophic-regex-out");
    const started = Date.now();
    const r = await runCli(
      [
        "eval",
        dir,
        "--model-script",
        path.join(dir, "model-script.yaml"),
        "--out",
        out,
        "--task",
        "greet",
        "--treatment",
        "WITH_SKILL",
        "-n",
        "1",
        "--env",
        "CLAUDE_CODE_MAX_RETRIES=0",
      ],
      { env: box.env() },
    );
    expect([0, 1], r.stderr).toContain(r.code);
    // Well under the validator's own 120 s limit: the expression was stopped at its 5 s.
    expect(Date.now() - started).toBeLessThan(60_000);
    const report = await readRunReport(out, "greet-WITH_SKILL-r1");
    expect(report.checks_failed).toEqual([
      expect.stringMatching(
        /^contains:long\.txt:\^\(a\+\)\+\$: the regex ran over its 5 s limit on long\.txt \(41 chars\) and was stopped/,
      ),
    ]);
    expect(report.checks_passed).toEqual([
      "file_exists:greeting.txt",
      "file_absent:TODO.txt",
      "contains:greeting.txt:^Hello, friend!$",
      "not_contains:greeting.txt:/^hi$/im",
      "json:status.json:greeted.name",
      "command:grep -q friend greeting.txt",
      "skill_invoked:greeter",
    ]);
  }, 120_000);
});

describe("the triggers: section of an eval manifest", () => {
  it.each([
    [
      "a query file outside the Skill",
      () => `triggers:\n  queries: ${secret}/id_rsa\n`,
      /eval\.yaml: triggers\.queries \(line 6\): must be a path relative to the manifest's folder, got absolute path/,
    ],
    [
      "a description file leading out of the Skill",
      () =>
        "triggers:\n  queries: [{query: a, should_trigger: true}]\n  description_files: [../../host-secret/id_rsa]\n",
      /eval\.yaml: triggers\.description_files\[0\] \(line 7\): "\.\.\/\.\.\/host-secret\/id_rsa" leads outside the Skill folder/,
    ],
    [
      "an alias bomb",
      () =>
        `triggers:\n  a: &a [x, x, x, x, x, x, x, x, x, x]\n${["b", "c", "d", "e"]
          .map(
            (k, i) =>
              `  ${k}: &${k} [${Array(10)
                .fill(`*${"abcd"[i] ?? ""}`)
                .join(", ")}]`,
          )
          .join("\n")}\n`,
      /eval\.yaml: triggers\.b\[0\] \(line 7\): the aliases expand to more than 1000 nodes/,
    ],
  ])("refuses %s (skillbench triggers, exit 2)", async (name, section, message) => {
    const dir = await skillWith(`triggers-${name.replace(/\W+/g, "-")}`, `${HEAD}${section()}`);
    const out = box.dir(`triggers-${name.replace(/\W+/g, "-")}-out`);
    const r = await runCli(["triggers", dir, "--out", out], { env: box.env() });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(await holdingSecret(out)).toEqual([]);
  });
});
