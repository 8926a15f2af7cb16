/**
 * `--reuse DIR` (issue 35 item 3, docs/reuse.md) end to end with the real claude binary and the
 * scripted model (which logs every request it serves: model-requests.jsonl):
 *  - a second `eval` of an unchanged Skill with --reuse starts no agent (the scripted model
 *    serves no request) and gives the same verdict; every run is marked reused_from, and the
 *    reports say how many runs came from where;
 *  - changing one task (its task.toml) reruns that task's runs only, and reuse.md says why;
 *  - a reuse folder of another harness version is refused, exit 2, with the version named;
 *  - `--reuse history` takes the runs of the folders the history store (`--history FILE`) knows,
 *    and a dry run's estimate reads the store's folders, counting only runs of the same task
 *    content (after the change, farewell's runs are not samples; greet's are).
 */
import { cp, mkdir, readFile, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  assertBuilt,
  makeSandbox,
  readJsonLines,
  readRunReport,
  REPO_ROOT,
  reportedRunIds,
  runCli,
  type CliResult,
  type Sandbox,
} from "../helpers/cli.js";

const FIXTURES = path.join(REPO_ROOT, "test", "fixtures", "skills");

let box: Sandbox;
let skill: string;
let first: CliResult;
let again: CliResult;
let changed: CliResult;
let fromHistory: CliResult;
let dryRun: CliResult;

function evalArgs(out: string, ...extra: string[]): string[] {
  return [
    "eval",
    skill,
    "--model-script",
    path.join(skill, "model-script.yaml"),
    "--out",
    out,
    "--env",
    "CLAUDE_CODE_MAX_RETRIES=0",
    "-j",
    "2",
    ...extra,
  ];
}

/** The model requests the scripted model served for a results folder (none: no agent started). */
async function modelRequests(out: string): Promise<number> {
  const log = path.join(out, "model-requests.jsonl");
  return existsSync(log) ? (await readJsonLines(log)).length : 0;
}

async function verdictOf(out: string): Promise<unknown> {
  const e = JSON.parse(await readFile(path.join(out, "eval.json"), "utf8")) as Record<
    string,
    unknown
  >;
  return { verdict: e.verdict, gates: (e.quality_gates as { ok: boolean }).ok };
}

beforeAll(async () => {
  assertBuilt();
  box = await makeSandbox("reuse");
  // The greeter Skill and the earlier version its manifest names as a baseline (../greeter-v1).
  await mkdir(box.dir("skills"));
  skill = path.join(box.dir("skills"), "greeter");
  await cp(path.join(FIXTURES, "greeter"), skill, { recursive: true });
  await cp(path.join(FIXTURES, "greeter-v1"), path.join(box.dir("skills"), "greeter-v1"), {
    recursive: true,
  });
  const store = box.dir("history.db");
  first = await runCli(evalArgs(box.dir("first"), "--history", store), { env: box.env() });
  again = await runCli(evalArgs(box.dir("again"), "--reuse", box.dir("first")), {
    env: box.env(),
  });
  fromHistory = await runCli(
    evalArgs(box.dir("from-history"), "--reuse", "history", "--history", store),
    { env: box.env() },
  );
  const toml = path.join(skill, "tasks", "farewell", "task.toml");
  await writeFile(
    toml,
    (await readFile(toml, "utf8")).replace(
      'description = "An authored task folder beside the inline tasks"',
      'description = "An authored task folder, edited"',
    ),
  );
  changed = await runCli(evalArgs(box.dir("changed"), "--reuse", box.dir("first")), {
    env: box.env(),
  });
  dryRun = await runCli(evalArgs(box.dir("dry"), "--dry-run", "--history", store), {
    env: box.env(),
  });
}, 400_000);

afterAll(async () => {
  await box.remove();
});

describe("eval --reuse of an unchanged Skill", () => {
  it("the first eval ran every run against the scripted model", async () => {
    expect(first.code, first.stderr).toBe(0);
    expect(await modelRequests(box.dir("first"))).toBeGreaterThan(0);
    const r = await readRunReport(box.dir("first"), "greet-WITH_SKILL-r1");
    expect(r.run_key?.key).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(r.reused_from).toBeUndefined();
  });

  it("starts no agent: the scripted model serves no request, and the verdict is the same", async () => {
    expect(again.code, again.stderr).toBe(0);
    expect(await modelRequests(box.dir("again"))).toBe(0);
    expect(await verdictOf(box.dir("again"))).toEqual(await verdictOf(box.dir("first")));
    expect(again.stderr).toContain(`reuse: 12 run(s) taken from ${box.dir("first")}`);
  });

  it("marks every run with its source, and every report says so", async () => {
    const ids = await reportedRunIds(box.dir("again"));
    expect(ids).toHaveLength(12);
    for (const id of ids) {
      const r = await readRunReport(box.dir("again"), id);
      expect(r.reused_from).toBe(box.dir("first"));
      expect(r.run_key).toEqual((await readRunReport(box.dir("first"), id)).run_key);
    }
    const line = `12 runs reused from ${box.dir("first")}`;
    for (const f of ["summary.md", "comparison_report.md", "summary.html"])
      expect(await readFile(path.join(box.dir("again"), f), "utf8"), f).toContain(line);
  });
});

describe("the history store as a source (--history FILE)", () => {
  it("--reuse history takes every run from the folder the store recorded: no agent starts", async () => {
    expect(fromHistory.code, fromHistory.stderr).toBe(0);
    expect(await modelRequests(box.dir("from-history"))).toBe(0);
    expect(fromHistory.stderr).toContain(`reuse: 12 run(s) taken from ${box.dir("first")}`);
    const r = await readRunReport(box.dir("from-history"), "greet-WITH_SKILL-r1");
    expect(r.reused_from).toBe(box.dir("first"));
  });

  it("the dry run's estimate names the store and counts only runs of the same task content", () => {
    expect(dryRun.code, dryRun.stderr).toBe(0);
    expect(dryRun.stdout).toContain(`(history store ${box.dir("history.db")})`);
    const source = (runsOf: string): string | undefined =>
      dryRun.stdout
        .split("\n")
        .find((l) => l.trim().startsWith(`${runsOf} `))
        ?.trim()
        .split(/\s+/)[1];
    // greet is unchanged since the recorded folders; farewell's task.toml changed after them.
    expect(source("greet/WITH_SKILL")).toBe("history");
    expect(source("farewell/WITH_SKILL")).toBe("agent-default");
  });
});

describe("eval --reuse after one task changed", () => {
  it("reruns that task's runs only and says why in reuse.md", async () => {
    expect(changed.code, changed.stderr).toBe(0);
    const out = box.dir("changed");
    const ids = await reportedRunIds(out);
    expect(ids).toHaveLength(12);
    const fresh: string[] = [];
    for (const id of ids)
      if ((await readRunReport(out, id)).reused_from === undefined) fresh.push(id);
    expect(fresh.sort()).toEqual(ids.filter((id) => id.startsWith("farewell-")).sort());
    expect(fresh).toHaveLength(6);
    const tasks = new Set(
      (await readJsonLines(path.join(out, "model-requests.jsonl"))).map(
        (l) => (l.run as { task?: string } | undefined)?.task,
      ),
    );
    expect([...tasks]).toEqual(["farewell"]);
    const md = await readFile(path.join(out, "reuse.md"), "utf8");
    expect(md).toContain("6 run(s) taken from earlier results");
    expect(md).toContain(`- farewell-WITH_SKILL-r1 (${box.dir("first")}): task hash differs`);
    expect(changed.stderr).toContain("reuse: farewell-CONTROL-r2 runs again: task hash differs");
  });
});

describe("--reuse bad input", () => {
  it("refuses a folder written by another skillbench version: exit 2, both versions named", async () => {
    const other = box.dir("other-version");
    await mkdir(other);
    const meta = JSON.parse(
      await readFile(path.join(box.dir("first"), "metadata.json"), "utf8"),
    ) as { versions: { skillbench: string } };
    meta.versions.skillbench = "0.0.9";
    await writeFile(path.join(other, "metadata.json"), JSON.stringify(meta));
    const r = await runCli(evalArgs(box.dir("refused"), "--reuse", other), { env: box.env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /--reuse .*other-version: written by skillbench 0\.0\.9, this is skillbench \d+\.\d+\.\d+: runs of another harness version are not reused/,
    );
    expect(await modelRequests(box.dir("refused"))).toBe(0);
  });

  it("refuses a folder that is not a results folder", async () => {
    const r = await runCli(evalArgs(box.dir("refused-2"), "--reuse", box.dir("skills")), {
      env: box.env(),
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("not a skillbench results folder");
  });
});
