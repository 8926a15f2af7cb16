/**
 * `skillbench triggers CATALOG_DIR` end to end: the built CLI, the real claude binary and the
 * scripted model (test/fixtures/triggers-catalog/model-script.yaml, whose header holds the
 * hand-computed matrix). One catalog evaluation of three Skills, six queries, one probe each;
 * the refusals are bad input, found before any agent starts. Beside it (the three run at once), the
 * description optimiser (`--optimise 1`, test/fixtures/triggers-optimise): six queries, two rounds
 * of one probe each and one proposal, scripted so that round 1 wins on train and loses on held-out;
 * and the optimiser under a budget its first three probes exceed.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT, makeSandbox, runCli, type CliResult, type Sandbox } from "../helpers/cli.js";

const FIX = path.join(REPO_ROOT, "test", "fixtures", "triggers-catalog");
const CATALOG = path.join(FIX, "catalog");

let sandbox: Sandbox;
let run: CliResult;
let opt: CliResult;
let broke: CliResult;
const out = (): string => sandbox.dir("catalog");
const optOut = (): string => sandbox.dir("optimise");
const OPT = path.join(REPO_ROOT, "test", "fixtures", "triggers-optimise");

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
  const optimise = runCli(
    [
      "triggers",
      path.join(REPO_ROOT, "examples", "trigger-eval", "changelog-writer"),
      "--queries",
      path.join(OPT, "queries.yaml"),
      "--model-script",
      path.join(OPT, "model-script.yaml"),
      "--optimise",
      "1",
      "--budget-usd",
      "5",
      // A table that prices Claude Code's default model (the shipped one does not).
      "--pricing",
      path.join(OPT, "pricing.yaml"),
      "--out",
      optOut(),
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
  const catalog = runCli(
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
  // A budget the first probes already exceed: round 0's three probes start at once (-j 3), then
  // no probe and no proposal starts.
  const overBudget = runCli(
    [
      "triggers",
      path.join(REPO_ROOT, "examples", "trigger-eval", "changelog-writer"),
      "--queries",
      path.join(OPT, "queries.yaml"),
      "--model-script",
      path.join(OPT, "model-script.yaml"),
      "--optimise",
      "1",
      "--budget-usd",
      "0.000001",
      "--pricing",
      path.join(OPT, "pricing.yaml"),
      "--out",
      sandbox.dir("broke"),
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
  [run, opt, broke] = await Promise.all([catalog, optimise, overBudget]);
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

interface Score {
  accuracy: number | null;
  correct: number;
  answered: number;
}
interface OptimiseJson {
  split: { train: string[]; held_out: string[] };
  rounds: {
    round: number;
    description: string;
    train: Score;
    held_out: Score;
    cost_usd: number;
    kept: boolean;
  }[];
  kept: number;
  description: string;
  held_out_accuracy: number | null;
  spent_usd: number;
}

describe("triggers SKILL --optimise", () => {
  const ORIGINAL =
    "Write CHANGELOG.md entries in Keep a Changelog style. Use when the user asks for a changelog entry.";

  it("keeps the description that wins on held-out, not round 1's, which wins on train only", async () => {
    expect(opt.code, opt.stderr).toBe(0);
    const o = JSON.parse(
      await readFile(path.join(optOut(), "optimise.json"), "utf8"),
    ) as OptimiseJson;
    expect(o.split).toEqual({ train: ["p1", "p3", "n2", "n3"], held_out: ["p2", "n1"] });
    const [r0, r1] = o.rounds;
    expect(r0).toMatchObject({
      description: ORIGINAL,
      train: { accuracy: 0.75, correct: 3, answered: 4 },
      held_out: { accuracy: 1, correct: 2, answered: 2 },
      kept: true,
    });
    // The proposer saw only the train failure (p3), never a held-out query.
    expect(r1).toMatchObject({
      description: "Write changelog entries and release notes for any release-related request.",
      train: { accuracy: 1, correct: 4, answered: 4 },
      held_out: { accuracy: 0.5, correct: 1, answered: 2 },
      kept: false,
    });
    expect(o.kept).toBe(0);
    expect(o.held_out_accuracy).toBe(1);
    expect(await readFile(path.join(optOut(), "optimised-description.txt"), "utf8")).toBe(
      `${ORIGINAL}\n`,
    );
  });

  it("reports the held-out score, and a table of rounds with their cost", async () => {
    const r = JSON.parse(await readFile(path.join(optOut(), "triggers.json"), "utf8")) as {
      queries: { id: string }[];
      accuracy: { value: number; count: number; of: number };
      variants: { name: string }[];
      optimiser: { kept: number };
    };
    expect(r.queries.map((q) => q.id)).toEqual(["p2", "n1"]);
    expect(r.accuracy).toMatchObject({ value: 1, count: 2, of: 2 });
    expect(r.variants.map((v) => v.name)).toEqual(["round-0"]);
    expect(r.optimiser.kept).toBe(0);
    const o = JSON.parse(
      await readFile(path.join(optOut(), "optimise.json"), "utf8"),
    ) as OptimiseJson;
    // Every probe and the proposal were metered and priced: each round cost something.
    for (const round of o.rounds) expect(round.cost_usd).toBeGreaterThan(0);
    expect(o.spent_usd).toBeCloseTo(
      (o.rounds[0]?.cost_usd ?? 0) + (o.rounds[1]?.cost_usd ?? 0),
      10,
    );
    const md = await readFile(path.join(optOut(), "triggers.md"), "utf8");
    expect(md).toContain("**Kept: round 0**, held-out accuracy 1.00 (2/2)");
    expect(md).toMatch(
      /\| 1 \| 0 \| 1\.00 \(4\/4\) \| 0\.50 \(1\/2\) \| \d+\.\d{4} \| {2}\| Write changelog entries/,
    );
  });
});

describe("triggers --optimise under --budget-usd", () => {
  it("starts nothing more once the metered spend is over the budget, and says so (exit 1)", async () => {
    expect(broke.code, broke.stderr).toBe(1);
    expect(broke.stderr).toMatch(
      /--budget-usd: the experiment spent \$0\.\d+, over its budget of \$0\.0000 \(--budget-usd\): no further probe starts/,
    );
    const o = JSON.parse(
      await readFile(path.join(sandbox.dir("broke"), "optimise.json"), "utf8"),
    ) as OptimiseJson & { stopped: string; rounds: { not_run: number }[] };
    expect(o.rounds).toHaveLength(1);
    expect(o.rounds[0]?.not_run).toBe(3);
    expect(o.stopped).toMatch(/over its budget/);
    expect(o.spent_usd).toBeGreaterThan(0.000001);
  });
});
