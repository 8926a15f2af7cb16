/**
 * `skillbench triggers CATALOG_DIR` end to end: the built CLI, the real claude binary and the
 * scripted model (test/fixtures/triggers-catalog/model-script.yaml, whose header holds the
 * hand-computed matrix). One catalog evaluation of three Skills, six queries, one probe each;
 * the refusals are bad input, found before any agent starts.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT, makeSandbox, runCli, type CliResult, type Sandbox } from "../helpers/cli.js";

const FIX = path.join(REPO_ROOT, "test", "fixtures", "triggers-catalog");
const CATALOG = path.join(FIX, "catalog");

let sandbox: Sandbox;
let run: CliResult;
const out = (): string => sandbox.dir("catalog");

interface Rate {
  value: number | null;
  ci: { low: number; high: number } | null;
  count: number;
  of: number;
}
interface CatalogJson {
  schema: string;
  skills: { name: string; queries: number }[];
  per_skill: { skill: string; tp: number; fp: number; fn: number; precision: Rate; recall: Rate }[];
  accuracy: Rate;
  matrix: { rows: string[]; columns: string[]; cells: number[][]; invalid: number };
  queries: { id: string; expected: string; chosen: Record<string, number> }[];
}

beforeAll(async () => {
  sandbox = await makeSandbox("triggers-catalog");
  run = await runCli(
    [
      "triggers",
      CATALOG,
      "--model-script",
      path.join(FIX, "model-script.yaml"),
      "--out",
      out(),
      "--env",
      "CLAUDE_CODE_MAX_RETRIES=0",
      "--no-decoys",
      "--no-history",
      "-n",
      "1",
      "-j",
      "3",
    ],
    { env: sandbox.env() },
  );
}, 300_000);

afterAll(async () => {
  await sandbox?.remove();
});

describe("triggers CATALOG_DIR", () => {
  it("asks every Skill's queries with all three installed, and writes the hand-computed matrix", async () => {
    expect(run.code, run.stderr).toBe(0);
    const r = JSON.parse(await readFile(path.join(out(), "triggers.json"), "utf8")) as CatalogJson;
    expect(r.schema).toBe("skillbench.triggers-catalog.v1");
    expect(r.skills.map((s) => [s.name, s.queries])).toEqual([
      ["changelog-writer", 2],
      ["docs-writer", 2],
      ["git-tagger", 2],
    ]);
    expect(r.matrix.rows).toEqual(["changelog-writer", "docs-writer", "git-tagger", "none"]);
    expect(r.matrix.columns).toEqual(["changelog-writer", "docs-writer", "git-tagger", "none"]);
    expect(r.matrix.cells).toEqual([
      [1, 0, 1, 0],
      [0, 0, 0, 1],
      [0, 0, 1, 0],
      [1, 0, 0, 1],
    ]);
    expect(r.matrix.invalid).toBe(0);
    const by = Object.fromEntries(r.per_skill.map((s) => [s.skill, s]));
    expect(by["changelog-writer"]).toMatchObject({ tp: 1, fp: 1, fn: 1 });
    expect(by["changelog-writer"]?.precision).toMatchObject({ value: 0.5, count: 1, of: 2 });
    expect(by["changelog-writer"]?.recall).toMatchObject({ value: 0.5, count: 1, of: 2 });
    // Wilson 95% of 1/2 (z = 1.96), by hand: 0.0945 … 0.9055.
    expect(by["changelog-writer"]?.recall.ci?.low).toBeCloseTo(0.0945, 3);
    expect(by["git-tagger"]?.precision).toMatchObject({ value: 0.5, count: 1, of: 2 });
    expect(by["git-tagger"]?.recall).toMatchObject({ value: 1, count: 1, of: 1 });
    expect(by["docs-writer"]?.precision).toMatchObject({ value: null, count: 0, of: 0 });
    expect(by["docs-writer"]?.recall).toMatchObject({ value: 0, count: 0, of: 1 });
    expect(r.accuracy).toMatchObject({ value: 0.5, count: 3, of: 6 });
    const q = Object.fromEntries(r.queries.map((x) => [x.id, x]));
    expect(q["changelog-writer.q02"]).toMatchObject({
      expected: "changelog-writer",
      chosen: { "git-tagger": 1 },
    });
    expect(q["docs-writer.q02"]).toMatchObject({
      expected: "none",
      chosen: { "changelog-writer": 1 },
    });
  });

  it("shows the matrix and the per-Skill rates in triggers.md and triggers.html", async () => {
    const md = await readFile(path.join(out(), "triggers.md"), "utf8");
    expect(md).toContain("| changelog-writer | 1 | 0 | 1 | 0 |");
    expect(md).toContain("| none | 1 | 0 | 0 | 1 |");
    expect(md).toMatch(
      /\| git-tagger \| 2 \| 0\.50 \| \[0\.09, 0\.91\] \| 1\/2 \| 1\.00 \| \[0\.21, 1\.00\] \| 1\/1 \|/,
    );
    const html = await readFile(path.join(out(), "triggers.html"), "utf8");
    expect(html).toContain(
      '<tr><th>docs-writer</th><td>0</td><td class="diag">0</td><td>0</td><td class="off">1</td></tr>',
    );
    expect(html).toMatch(/<td>git-tagger<\/td><td>0\.50<\/td>/);
    expect(run.stdout).toMatch(/catalog: accuracy 0\.50 \(3\/6\)/);
  });

  it("refuses a folder that is both a Skill and a catalog, and Skill-only flags, by name (exit 2)", async () => {
    const amb = await runCli(
      ["triggers", path.join(FIX, "ambiguous"), "--out", sandbox.dir("amb")],
      {
        env: sandbox.env(),
      },
    );
    expect(amb.code).toBe(2);
    expect(amb.stderr).toMatch(/ambiguous: it holds a SKILL\.md and Skill folders \(docs-writer\)/);
    const flag = await runCli(
      [
        "triggers",
        CATALOG,
        "--queries",
        path.join(FIX, "model-script.yaml"),
        "--out",
        sandbox.dir("q"),
      ],
      { env: sandbox.env() },
    );
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/--queries: not with a catalog/);
  });
});
