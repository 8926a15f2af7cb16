/**
 * `skillbench eval SKILL_DIR --generate` end to end, with the real claude binary and the scripted
 * model (test/fixtures/eval-generate/model-script.yaml): a Skill with no manifest gets 2 tasks
 * written by the agent (in the sandbox the runs get), frozen under SKILL_DIR/.skillbench/generated;
 * a later eval reuses them without a generator request; `--regenerate` asks again; a bad first
 * answer is repaired once; two bad answers end with exit 1 and nothing frozen.
 */
import { appendFile, cp, readdir, readFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  assertBuilt,
  makeSandbox,
  readJsonLines,
  REPO_ROOT,
  reportedRunIds,
  runCli,
  type Sandbox,
} from "../helpers/cli.js";

const FIXTURE = path.join(REPO_ROOT, "test", "fixtures", "skills", "untested-greeter");
const SCRIPT = path.join(REPO_ROOT, "test", "fixtures", "eval-generate", "model-script.yaml");

let box: Sandbox;

beforeAll(async () => {
  assertBuilt();
  box = await makeSandbox("eval-gen");
});

afterAll(async () => {
  await box.remove();
});

/** A copy of the fixture Skill, with a marker line for the scripted generator. */
async function skillCopy(name: string, marker?: string): Promise<string> {
  const dir = box.dir(name);
  await cp(FIXTURE, dir, { recursive: true });
  if (marker) await appendFile(path.join(dir, "SKILL.md"), `\n<!-- ${marker} -->\n`);
  return dir;
}

function evalArgs(skill: string, out: string, ...extra: string[]): string[] {
  return [
    "eval",
    skill,
    "--model-script",
    SCRIPT,
    "--out",
    out,
    "-n",
    "1",
    "-j",
    "2",
    "--env",
    "CLAUDE_CODE_MAX_RETRIES=0",
    ...extra,
  ];
}

async function generatorRequests(file: string): Promise<{ rule: string; rep: number }[]> {
  if (!existsSync(file)) return [];
  return (await readJsonLines(file))
    .filter((l) => (l.run as { task?: string }).task === "generate-tasks")
    .map((l) => ({
      rule: (l.rule as { name: string } | null)?.name ?? "",
      rep: (l.run as { rep: number }).rep,
    }));
}

interface EvalJson {
  task_source: string;
  tasks: string[];
  generated: {
    file: string;
    key: string;
    cached: boolean;
    record: {
      model: string;
      snapshot: { files: { path: string }[]; truncated: boolean };
      generation: { attempts: number; cost_usd: number | null; sandbox: string };
    } | null;
  } | null;
}

const readEval = async (out: string): Promise<EvalJson> =>
  JSON.parse(await readFile(path.join(out, "eval.json"), "utf8")) as EvalJson;

describe("eval --generate on a Skill with no tasks", () => {
  let skill: string;
  let frozenFile: string;

  it("asks the agent once, freezes the tasks with their cost, and runs them", async () => {
    skill = await skillCopy("greeter");
    const out = box.dir("gen-1");
    const r = await runCli(evalArgs(skill, out, "--generate"), { env: box.env() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/tasks \(generated \(new\)\): write-greeting, record-status/);
    expect(r.stderr).toMatch(
      /generated tasks frozen in .*\.skillbench\/generated\/[0-9a-f]{64}\.yaml \(1 attempt\(s\), cost \$0\.\d{4}\)/,
    );
    const cache = path.join(skill, ".skillbench", "generated");
    const frozen = (await readdir(cache)).sort();
    expect(frozen).toHaveLength(2);
    expect(frozen[0]).toMatch(/^[0-9a-f]{64}\.json$/);
    frozenFile = path.join(cache, frozen[1] ?? "");
    const text = await readFile(frozenFile, "utf8");
    expect(text).toMatch(/^# Tasks generated for the Skill untested-greeter by claude-code/);
    expect(text).toMatch(/kind: SkillEvalManifest/);
    // The generator's requests are in the results folder; the runs' log has none.
    expect(await generatorRequests(path.join(out, "generation", "model-requests.jsonl"))).toEqual([
      { rule: "generator", rep: 1 },
    ]);
    expect(await generatorRequests(path.join(out, "model-requests.jsonl"))).toEqual([]);
    const ev = await readEval(out);
    expect(ev.task_source).toBe("generated (new)");
    expect(ev.tasks).toEqual(["write-greeting", "record-status"]);
    expect(ev.generated?.cached).toBe(false);
    const rec = ev.generated?.record;
    expect(rec?.generation.attempts).toBe(1);
    expect(rec?.generation.cost_usd).toBeGreaterThan(0);
    expect(rec?.generation.sandbox).not.toBe("");
    expect(rec?.model).toMatch(/^scripted:/);
    // SKILL.md, the file it links, and scripts/; notes.txt is neither named nor in a snapshot folder.
    expect(rec?.snapshot.files.map((f) => f.path)).toEqual([
      "SKILL.md",
      "references/style.md",
      "scripts/greet.sh",
    ]);
    expect(rec?.snapshot.truncated).toBe(false);
    expect(await reportedRunIds(out)).toEqual([
      "record-status-CONTROL-r1",
      "record-status-WITH_SKILL-r1",
      "write-greeting-CONTROL-r1",
      "write-greeting-WITH_SKILL-r1",
    ]);
    // The installed Skill never holds the frozen tasks (they are the answers).
    expect(
      existsSync(path.join(out, "suite", "skills", "current", "untested-greeter", ".skillbench")),
    ).toBe(false);
  }, 240_000);

  it("a later eval reuses the frozen tasks without a generator request", async () => {
    const out = box.dir("gen-2");
    const r = await runCli(evalArgs(skill, out), { env: box.env() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/generated tasks reused from .*\(no generator call/);
    expect(existsSync(path.join(out, "generation"))).toBe(false);
    const log = await readJsonLines(path.join(out, "model-requests.jsonl"));
    expect(log.length).toBeGreaterThan(0);
    expect(await generatorRequests(path.join(out, "model-requests.jsonl"))).toEqual([]);
    const ev = await readEval(out);
    expect(ev.task_source).toBe("generated (cached)");
    expect(ev.generated?.cached).toBe(true);
    expect(ev.generated?.file).toBe(frozenFile);
    expect(ev.tasks).toEqual(["write-greeting", "record-status"]);
  }, 240_000);

  it("several agents share the one frozen set, written by the first: a dry run plans it on each", async () => {
    const r = await runCli(
      evalArgs(skill, box.dir("gen-agents"), "--agent", "claude,codex", "--dry-run"),
      {
        env: box.env(),
      },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/unknown agent/);
    for (const task of ["write-greeting", "record-status"])
      for (const agent of ["claude", "codex"])
        expect(r.stdout).toContain(`${task}-WITH_SKILL@${agent}-r1`);
  }, 60_000);

  it("--regenerate asks again and replaces the frozen set", async () => {
    const before = JSON.parse(await readFile(frozenFile.replace(/\.yaml$/, ".json"), "utf8")) as {
      generation: { generated_at: string };
    };
    const out = box.dir("gen-3");
    const r = await runCli(evalArgs(skill, out, "--regenerate", "--task", "write-greeting"), {
      env: box.env(),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(
      await generatorRequests(path.join(out, "generation", "model-requests.jsonl")),
    ).toHaveLength(1);
    const after = JSON.parse(await readFile(frozenFile.replace(/\.yaml$/, ".json"), "utf8")) as {
      generation: { generated_at: string };
    };
    expect(after.generation.generated_at).not.toBe(before.generation.generated_at);
  }, 240_000);

  it("without --generate and nothing frozen, exit 2 says how to get tasks", async () => {
    const fresh = await skillCopy("no-tasks");
    const r = await runCli(evalArgs(fresh, box.dir("none")), { env: box.env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no tasks to run: .*pass --generate/);
  });
});

describe("eval --generate: the answer is checked against the manifest schema", () => {
  it("a bad first answer is repaired once, in the same session", async () => {
    const skill = await skillCopy("repair", "MODE-REPAIR");
    const out = box.dir("repair-out");
    const r = await runCli(evalArgs(skill, out, "--generate", "--task", "write-greeting"), {
      env: box.env(),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/\(2 attempt\(s\)/);
    expect(await generatorRequests(path.join(out, "generation", "model-requests.jsonl"))).toEqual([
      { rule: "generator-first-invalid", rep: 1 },
      { rule: "generator", rep: 2 },
    ]);
    // The repair request says what was wrong: the second task has no expect.
    const repair = (await readJsonLines(path.join(out, "generation", "model-requests.jsonl"))).find(
      (l) => (l.run as { rep: number }).rep === 2,
    );
    // Position 1: the resumed conversation holds the first answer.
    expect((repair?.facts as { position: number }).position).toBe(1);
    expect((repair?.facts as { user_text: string }).user_text).toMatch(
      /could not be used: tasks\[1\]\.expect: /,
    );
    expect((await readEval(out)).generated?.record?.generation.attempts).toBe(2);
  }, 240_000);

  it("two bad answers: exit 1 with the problem, nothing frozen, nothing run", async () => {
    const skill = await skillCopy("broken", "MODE-BROKEN");
    const out = box.dir("broken-out");
    const r = await runCli(evalArgs(skill, out, "--generate"), { env: box.env() });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(
      /did not write usable eval tasks in 2 attempts \(expected 2 to 4 tasks, got 1\); its transcripts are in .*generation/,
    );
    expect(existsSync(path.join(skill, ".skillbench", "generated"))).toBe(false);
    expect(existsSync(path.join(out, "runs"))).toBe(false);
    expect(await generatorRequests(path.join(out, "generation", "model-requests.jsonl"))).toEqual([
      { rule: "generator-broken", rep: 1 },
      { rule: "generator-broken", rep: 2 },
    ]);
  }, 240_000);
});
