/**
 * The history store end to end (issue 36 items 3 and 4), through the built CLI, the real claude
 * binary and the scripted model, on a copy of the demo suite in a git repository:
 * - three versions of the house-style Skill (three commits) are run; each `run` records its
 *   experiment in the SQLite store beside the results; the third version is run twice, once
 *   with a model that gets hello-file wrong: `history house-style` shows three versions with the
 *   git refs, and one flaky case (hello-file under WITH_SKILL, 1/1 then 0/1);
 * - the same folders imported into a real PostgreSQL server (`history import`) give the same
 *   history;
 * - a store that is down does not fail the run (one warning, the password never printed);
 * - bad input: a corrupt history file, a store URL nothing answers, a results folder of another
 *   schema: exit 2, a clear message, nothing lost.
 */
import { execFileSync } from "node:child_process";
import { cp, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeSandbox, REPO_ROOT, runCli, type Sandbox } from "../helpers/cli.js";
import { startPostgres, type TestPostgres } from "../helpers/postgres.js";
import { unusedPort } from "../helpers/redis.js";

const TIMEOUT = 420_000;
let sandbox: Sandbox;
let suite = "";
let db = "";
const outs: string[] = [];
let pg: TestPostgres | null = null;

function git(...args: string[]): string {
  return execFileSync("git", args, {
    cwd: suite,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@example.com",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@example.com",
    },
    encoding: "utf8",
  }).trim();
}

async function editSkill(line: string): Promise<string> {
  const file = path.join(suite, "skills", "house-style", "SKILL.md");
  await writeFile(file, `${await readFile(file, "utf8")}- ${line}\n`);
  git("add", "-A");
  git("commit", "-qm", line);
  return git("rev-parse", "HEAD");
}

/** One run of hello-file under both arms; `script` is the model script. */
async function runOnce(name: string, script: string, html = false): Promise<string> {
  const out = sandbox.dir(path.join("results", name));
  const r = await runCli(
    [
      "run",
      suite,
      "--model-script",
      script,
      "--task",
      "hello-file",
      "--count",
      "1",
      "--out",
      out,
      "--exit-zero",
      ...(html ? [] : ["--no-html"]),
    ],
    { env: sandbox.env() },
  );
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).not.toContain("not recorded");
  expect(r.stderr).not.toContain("was not written");
  outs.push(out);
  return out;
}

const refs: string[] = [];

beforeAll(async () => {
  sandbox = await makeSandbox("e2e-history");
  suite = sandbox.dir("suite");
  await cp(path.join(REPO_ROOT, "examples", "demo-suite"), suite, { recursive: true });
  const script = path.join(suite, "model-script.yaml");
  // The same model, getting the greeting wrong: hello-file fails under WITH_SKILL.
  const wrong = sandbox.dir("wrong-model-script.yaml");
  await writeFile(
    wrong,
    (await readFile(script, "utf8")).replace(
      'content: "Hello, skillbench!\\n"',
      'content: "Hi!\\n"',
    ),
  );
  git("init", "-q");
  git("add", "-A");
  git("commit", "-qm", "v1");
  refs.push(git("rev-parse", "HEAD"));
  await runOnce("v1", script);
  refs.push(await editSkill("Be brief."));
  await runOnce("v2", script);
  refs.push(await editSkill("Be kind."));
  await runOnce("v3a", script);
  // With its HTML report: the Skill's history page beside the results exists by then.
  await runOnce("v3b", wrong, true);
  db = path.join(sandbox.root, "results", ".skillbench", "history.db");
}, TIMEOUT);

afterAll(async () => {
  await pg?.stop();
  await sandbox?.remove();
});

interface HistoryJson {
  skill: string;
  versions: {
    label: string;
    git_ref: string | null;
    runs: number;
    passed: number;
    experiments: number;
  }[];
  flaky: { task: string; treatment: string; outcomes: { c: number; n: number }[] }[];
}

async function historyOf(store: string): Promise<HistoryJson> {
  const r = await runCli(["history", "house-style", "--history", store, "--json"], {
    env: sandbox.env(),
  });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as HistoryJson;
}

describe("skillbench history", () => {
  it("shows three versions of the Skill with their git refs, and one flaky task", async () => {
    const h = await historyOf(db);
    expect(h.versions.map((v) => [v.git_ref, v.experiments, v.passed, v.runs])).toEqual([
      [refs[0], 1, 1, 1],
      [refs[1], 1, 1, 1],
      [refs[2], 2, 1, 2],
    ]);
    expect(h.flaky).toEqual([
      expect.objectContaining({
        task: "hello-file",
        treatment: "WITH_SKILL",
        outcomes: [
          expect.objectContaining({ c: 1, n: 1 }),
          expect.objectContaining({ c: 0, n: 1 }),
        ],
      }),
    ]);
    const md = await runCli(["history", "house-style", "--history", db], { env: sandbox.env() });
    expect(md.stdout).toContain("# History of house-style");
    expect(md.stdout).toContain("## Flaky cases (1)");
    expect(md.stdout).toMatch(/\| hello-file \| WITH_SKILL \| claude-code \| .* \| 1\/1, 0\/1 \|/);
    expect(md.stdout).toContain("(scripted)");
    const list = await runCli(["history", "--history", db], { env: sandbox.env() });
    expect(list.stdout).toMatch(/\| house-style \| 3 \| 4 \|/);
  });

  it("writes the Skill's history page beside the results, and the experiment's HTML links to it", async () => {
    const pageData = async (file: string): Promise<{ skill: string; versions: unknown[] }> => {
      const html = await readFile(file, "utf8");
      const m = /<script type="application\/json" id="skillbench-history">(.*?)<\/script>/s.exec(
        html,
      );
      return JSON.parse(m?.[1] ?? "null") as { skill: string; versions: unknown[] };
    };
    // Rewritten by the recorder after each run: all four experiments, three versions.
    const beside = path.join(sandbox.root, "results", ".skillbench", "history", "house-style.html");
    const page = await pageData(beside);
    expect(page.skill).toBe("house-style");
    expect(page.versions).toHaveLength(3);
    const summary = await readFile(path.join(outs[3] ?? "", "summary.html"), "utf8");
    expect(summary).toContain(
      '"history_page":{"skill":"house-style","href":"../.skillbench/history/house-style.html"}',
    );
    // The command writes it where it is told.
    const file = sandbox.dir(path.join("pages", "hs.html"));
    const r = await runCli(["history", "house-style", "--history", db, "--html", file], {
      env: sandbox.env(),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`wrote ${file}\n`);
    expect((await pageData(file)).versions).toHaveLength(3);
  });

  it(
    "gives the same history from a real PostgreSQL server",
    async () => {
      pg = await startPostgres();
      const imp = await runCli(["history", "import", ...outs, "--history", pg.url], {
        env: sandbox.env(),
      });
      expect(imp.code, imp.stderr).toBe(0);
      expect(imp.stdout).toContain(
        "4 experiment(s) recorded in postgres://skillbench:***@127.0.0.1",
      );
      expect(imp.stdout + imp.stderr).not.toContain(pg.password);
      const fromPg = await historyOf(pg.url);
      const fromFile = await historyOf(db);
      // Imported later, a folder whose Skill has changed since (v1, v2) gets no git ref rather
      // than HEAD's.
      const noRef = (v: HistoryJson["versions"][number]): object => ({
        ...v,
        git_ref: null,
        label: v.label.replace(/ \(.*\)$/, ""),
      });
      expect(fromPg.versions.map(noRef)).toEqual(fromFile.versions.map(noRef));
      expect(fromPg.versions.map((v) => v.git_ref)).toEqual([null, null, refs[2]]);
      expect(fromPg.flaky).toEqual(fromFile.flaky);
      // A run records into PostgreSQL at its end too.
      const out = sandbox.dir("results-pg");
      const r = await runCli(
        [
          "run",
          suite,
          "--model-script",
          path.join(suite, "model-script.yaml"),
          "--task",
          "hello-file",
          "--count",
          "1",
          "--out",
          out,
          "--exit-zero",
          "--no-html",
          "--history",
          pg.url,
        ],
        { env: sandbox.env() },
      );
      expect(r.code, r.stderr).toBe(0);
      expect((await historyOf(pg.url)).versions.at(-1)?.experiments).toBe(3);
    },
    TIMEOUT,
  );

  it(
    "a store that is down does not fail the run, and its password is never printed",
    async () => {
      const port = await unusedPort();
      const url = `postgres://skillbench:never-print-me@127.0.0.1:${port}/postgres`;
      const out = sandbox.dir("results-down");
      const r = await runCli(
        [
          "run",
          suite,
          "--model-script",
          path.join(suite, "model-script.yaml"),
          "--task",
          "hello-file",
          "--count",
          "1",
          "--out",
          out,
          "--exit-zero",
          "--no-html",
          "--history",
          url,
        ],
        { env: sandbox.env() },
      );
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain(
        `warning: the experiment was not recorded in the history store postgres://skillbench:***@127.0.0.1:${port}/postgres`,
      );
      expect(r.stderr).toContain(`skillbench history import ${out}`);
      expect(r.stdout + r.stderr).not.toContain("never-print-me");
      expect(JSON.parse(await readFile(path.join(out, "comparison.json"), "utf8"))).toHaveProperty(
        "verdict",
      );
    },
    TIMEOUT,
  );

  it("bad input: exit 2 with the file named, nothing lost", async () => {
    const corrupt = sandbox.dir("corrupt.db");
    await writeFile(corrupt, "not a database at all, only words ".repeat(40));
    const a = await runCli(["history", "--history", corrupt], { env: sandbox.env() });
    expect(a.code).toBe(2);
    expect(a.stderr).toContain(`${corrupt}: not a history store (SQLite)`);
    expect(await readFile(corrupt, "utf8")).toContain("not a database at all");

    const port = await unusedPort();
    const b = await runCli(["history", "--history", `postgres://u:pw-secret@127.0.0.1:${port}/x`], {
      env: sandbox.env(),
    });
    expect(b.code).toBe(2);
    expect(b.stderr).toContain(
      `postgres://u:***@127.0.0.1:${port}/x: cannot connect to the history store`,
    );
    expect(b.stderr).not.toContain("pw-secret");

    const other = sandbox.dir("other-schema");
    await cp(outs[0] ?? "", other, { recursive: true });
    const metaFile = path.join(other, "metadata.json");
    const meta = JSON.parse(await readFile(metaFile, "utf8")) as Record<string, unknown>;
    await writeFile(metaFile, JSON.stringify({ ...meta, schema: "skillbench.experiment.v9" }));
    const before = (await historyOf(db)).versions;
    const c = await runCli(["history", "import", other, "--history", db], { env: sandbox.env() });
    expect(c.code).toBe(2);
    expect(c.stderr).toContain(`${other}/metadata.json: schema skillbench.experiment.v9`);
    expect((await historyOf(db)).versions).toEqual(before);

    const none = await runCli(["history", "--history", sandbox.dir("missing.db")], {
      env: sandbox.env(),
    });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("no history store here");
  });
});
