/**
 * `skillbench eval SKILLS_ROOT --changed-since REF` (issue 35 item 4, docs/reuse.md) end to end
 * with the real claude binary and the scripted model, on a git repository made here with three
 * Skills: after an eval of the whole root, one Skill changed and committed; the eval since the
 * commit before runs that one Skill only (the scripted model serves its runs only) and carries
 * the other two over with their last stored verdicts; a Skill with none says so; a ref git
 * does not know is bad input (exit 2).
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  assertBuilt,
  makeSandbox,
  readJsonLines,
  reportedRunIds,
  runCli,
  type CliResult,
  type Sandbox,
} from "../helpers/cli.js";

const SKILLS = ["alpha", "beta", "gamma"];
const SCRIPT = `version: 1
defaults:
  model: claude-note-mock
  usage: {input_tokens: 100, output_tokens: 10}
rules:
  - name: note
    when: {task: note}
    steps:
      - tool_use: {name: Write, input: {file_path: note.txt, content: "noted\\n"}}
      - text: "Noted."
`;

let box: Sandbox;
let repo: string;
let script: string;
let all: CliResult;
let since: CliResult;

function git(...args: string[]): string {
  return execFileSync(
    "git",
    ["-c", "user.email=t@example.com", "-c", "user.name=t", "-c", "commit.gpgsign=false", ...args],
    { cwd: repo, env: box.env(), encoding: "utf8" },
  );
}

function evalArgs(out: string, ...extra: string[]): string[] {
  return [
    "eval",
    path.join(repo, "skills"),
    "--model-script",
    script,
    "--out",
    out,
    "--env",
    "CLAUDE_CODE_MAX_RETRIES=0",
    ...extra,
  ];
}

async function writeSkill(name: string, extra = ""): Promise<void> {
  const dir = path.join(repo, "skills", name);
  await mkdir(dir, { recursive: true });
  await writeFile(
    path.join(dir, "SKILL.md"),
    `---\nname: ${name}\ndescription: Takes notes (${name}).\n---\n\nWrite note.txt.${extra}\n`,
  );
  await writeFile(
    path.join(dir, "eval.yaml"),
    [
      "apiVersion: comet.eval/v1alpha1",
      "kind: SkillEvalManifest",
      `metadata: {name: ${name}-eval}`,
      `skill: {name: ${name}, profile: generic}`,
      "evaluation:",
      "  trials: 1",
      "  tasks:",
      "    - name: note",
      "      prompt: Take a note in note.txt.",
      "      expect: {files: [note.txt]}",
      "",
    ].join("\n"),
  );
}

/** The Skills whose runs the scripted model served, from each Skill's results folder. */
async function skillsRun(out: string): Promise<string[]> {
  const ran: string[] = [];
  for (const s of SKILLS) {
    const log = path.join(out, s, "model-requests.jsonl");
    if (existsSync(log) && (await readJsonLines(log)).length > 0) ran.push(s);
  }
  return ran;
}

beforeAll(async () => {
  assertBuilt();
  box = await makeSandbox("changed-since");
  repo = box.dir("repo");
  await mkdir(repo);
  script = box.dir("model-script.yaml");
  await writeFile(script, SCRIPT);
  for (const s of SKILLS) await writeSkill(s);
  git("init", "-q");
  git("add", ".");
  git("commit", "-q", "-m", "three Skills");
  all = await runCli(evalArgs(box.dir("all")), { env: box.env() });
  await writeSkill("beta", "\nAlways date the note.");
  git("commit", "-q", "-am", "beta changed");
  since = await runCli(
    evalArgs(box.dir("since"), "--changed-since", "HEAD~1", "--reuse", box.dir("all")),
    { env: box.env() },
  );
}, 300_000);

afterAll(async () => {
  await box.remove();
});

describe("eval SKILLS_ROOT", () => {
  it("without --changed-since evaluates every Skill, each in its own folder", async () => {
    expect(all.code, all.stderr).toBe(0);
    expect(await skillsRun(box.dir("all"))).toEqual(SKILLS);
    expect(await reportedRunIds(path.join(box.dir("all"), "beta"))).toEqual([
      "note-CONTROL-r1",
      "note-WITH_SKILL-r1",
    ]);
    expect(all.stdout).toContain(`3 Skill(s) under ${path.join(repo, "skills")}, all evaluated`);
  });
});

describe("eval SKILLS_ROOT --changed-since REF", () => {
  it("runs the one changed Skill and carries the others over with their stored verdicts", async () => {
    expect(since.code, since.stderr).toBe(0);
    expect(await skillsRun(box.dir("since"))).toEqual(["beta"]);
    expect(existsSync(path.join(box.dir("since"), "alpha"))).toBe(false);
    expect(since.stdout).toContain("1 changed since HEAD~1 and evaluated, 2 carried over");
    const stored = JSON.parse(
      await readFile(path.join(box.dir("all"), "alpha", "eval.json"), "utf8"),
    ) as { verdict: string };
    for (const s of ["alpha", "gamma"])
      expect(since.stdout).toContain(
        `  ${s}: carried over (unchanged), verdict ${stored.verdict}, quality gates pass (${path.join(box.dir("all"), s)})`,
      );
    expect(since.stdout).toMatch(/ {2}beta: evaluated, verdict \S+/);
    const md = await readFile(path.join(box.dir("since"), "eval-root.md"), "utf8");
    expect(md).toContain("- alpha: carried over (unchanged)");
  });

  it("says 'no stored verdict' for an unchanged Skill with none", async () => {
    const r = await runCli(
      evalArgs(box.dir("none"), "--changed-since", "HEAD", "--reuse", box.dir("nowhere")),
      { env: box.env() },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("0 changed since HEAD and evaluated, 3 carried over");
    expect(r.stdout).toContain("  alpha: carried over (unchanged), no stored verdict");
  });

  it("refuses a ref git does not know: exit 2", async () => {
    const r = await runCli(evalArgs(box.dir("bad"), "--changed-since", "no-such-ref"), {
      env: box.env(),
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--changed-since no-such-ref: not a commit of the git repository");
  });
});
