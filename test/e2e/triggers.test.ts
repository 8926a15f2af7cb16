/**
 * `skillbench triggers` end to end: the built CLI, the real claude binary and the scripted model
 * (test/fixtures/triggers/model-script.yaml: rules that call the Skill tool depending on the
 * query and on which Skills, with which descriptions, are listed). Three evaluations: -j 1 and
 * -j 4 of the same plan (same counts), and a two-description comparison.
 */
import { readFile, readdir } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  REPO_ROOT,
  makeSandbox,
  readJsonLines,
  runCli,
  type CliResult,
  type Sandbox,
} from "../helpers/cli.js";

const FIX = path.join(REPO_ROOT, "examples", "trigger-eval");
const SKILL = path.join(FIX, "changelog-writer");

function triggersArgs(out: string, ...extra: string[]): string[] {
  return [
    "triggers",
    SKILL,
    "--queries",
    path.join(FIX, "queries.yaml"),
    "--model-script",
    path.join(FIX, "model-script.yaml"),
    "--out",
    out,
    "--env",
    "CLAUDE_CODE_MAX_RETRIES=0",
    "--timeout",
    "60",
    ...extra,
  ];
}

interface Json {
  [k: string]: unknown;
}
async function readJson(file: string): Promise<Json> {
  return JSON.parse(await readFile(file, "utf8")) as Json;
}

interface QueryRow {
  id: string;
  runs: number;
  triggered: number;
  invalid: number;
  other_skills: Record<string, number>;
  rate: number | null;
}
interface Rate {
  value: number | null;
  ci: { low: number; high: number } | null;
  count: number;
  of: number;
}
interface Variant {
  name: string;
  queries: QueryRow[];
  precision: Rate;
  recall: Rate;
  f1: number | null;
  false_trigger_rate: Rate;
  confusion: { skill: string; took_positive: number; took_negative: number; queries: string[] }[];
  invalid_runs: number;
  invalid_probes: number;
}
interface ProbeJson {
  probe_id: string;
  attempts: {
    attempt: number;
    outcome: { kind: string; reason?: string; skill?: string; via?: string };
    agent_outcome: string;
    stopped_early: boolean;
  }[];
  outcome: { kind: string; skill?: string; via?: string };
}

async function probe(out: string, id: string): Promise<ProbeJson> {
  return (await readJson(path.join(out, "probes", id, "probe.json"))) as unknown as ProbeJson;
}

/** Every probe's final outcome and attempt count, by probe id. */
async function outcomes(out: string): Promise<Record<string, string>> {
  const report = await readJson(path.join(out, "triggers.json"));
  const rows = report.probes as { probe: string; outcome: string; attempts: number }[];
  return Object.fromEntries(rows.map((r) => [r.probe, `${r.outcome} ×${r.attempts}`]));
}

let sandbox: Sandbox;
let j1: CliResult;
let j4: CliResult;
let ab: CliResult;
const out1 = (): string => sandbox.dir("j1");
const out4 = (): string => sandbox.dir("j4");
const outAb = (): string => sandbox.dir("ab");

beforeAll(async () => {
  sandbox = await makeSandbox("triggers");
  const common = ["--neighbours", path.join(FIX, "neighbours"), "-n", "2", "--max-attempts", "2"];
  // -j 1 without a sandbox: each attempt's cwd (its own workspace's host path) is what tells the
  // workspaces apart below; in a sandbox every one is /workspace. -j 4 and the comparison run in
  // the default sandbox.
  j1 = await runCli(triggersArgs(out1(), ...common, "-j", "1", "--sandbox", "local"), {
    env: sandbox.env(),
  });
  j4 = await runCli(triggersArgs(out4(), ...common, "-j", "4"), { env: sandbox.env() });
  ab = await runCli(
    triggersArgs(
      outAb(),
      "--description-file",
      path.join(FIX, "desc-a.txt"),
      "--description-file",
      path.join(FIX, "desc-b.txt"),
      "-n",
      "1",
      "-j",
      "2",
    ),
    { env: sandbox.env() },
  );
}, 600_000);

afterAll(async () => {
  await sandbox?.remove();
});

describe("skillbench triggers (-j 1)", () => {
  it("exits 1 because a probe stayed invalid, and writes triggers.json and triggers.md", async () => {
    expect(j1.code, j1.stderr).toBe(1);
    expect(j1.stdout).toMatch(/current: precision 0\.67, recall 0\.50, F1 0\.57/);
    const md = await readFile(path.join(out1(), "triggers.md"), "utf8");
    expect(md).toMatch(/Scripted model/);
    expect(md).toMatch(/\| precision \| 0\.67 \| \[0\.30, 0\.90\] \| 4\/6 \|/);
    const html = await readFile(path.join(out1(), "triggers.html"), "utf8");
    expect(html).toMatch(
      /<td>precision<\/td><td>0\.67<\/td><td>\[0\.30, 0\.90\]<\/td><td>4\/6<\/td>/,
    );
    expect(html).toMatch(/<td>git-tagger<\/td><td>2<\/td><td>0<\/td><td>q03<\/td>/);
  });

  it("precision, recall, F1 and the false-trigger rate equal the hand-computed values", async () => {
    // Answered probes: q01 2 TP, q02 2 TP, q03 2 FN (git-tagger), q04 2 FN (nothing),
    // q05 1 TN (+1 invalid), q06 2 FP, q07 2 TN (dependency-updater).
    const r = (await readJson(path.join(out1(), "triggers.json"))) as unknown as Variant & {
      skill: string;
      agent: { name: string };
      variants: Variant[];
    };
    expect(r.skill).toBe("changelog-writer");
    expect(r.agent.name).toBe("claude-code");
    expect(r.precision).toMatchObject({ count: 4, of: 6 });
    expect(r.precision.value).toBeCloseTo(4 / 6, 12);
    // Wilson 95% for 4/6 and 4/8, computed by hand (z = 1.96).
    expect(r.precision.ci?.low).toBeCloseTo(0.2999, 3);
    expect(r.precision.ci?.high).toBeCloseTo(0.9032, 3);
    expect(r.recall).toMatchObject({ value: 0.5, count: 4, of: 8 });
    expect(r.recall.ci?.low).toBeCloseTo(0.2152, 3);
    expect(r.recall.ci?.high).toBeCloseTo(0.7848, 3);
    expect(r.f1).toBeCloseTo(4 / 7, 12);
    expect(r.false_trigger_rate).toMatchObject({ value: 2 / 5, count: 2, of: 5 });
    const byId = Object.fromEntries(r.queries.map((q) => [q.id, q]));
    expect(byId.q01).toMatchObject({ runs: 2, triggered: 2, rate: 1 });
    expect(byId.q04).toMatchObject({ runs: 2, triggered: 0, rate: 0, other_skills: {} });
    expect(byId.q06).toMatchObject({ runs: 2, triggered: 2, rate: 1 });
  });

  it("an API error is invalid, re-run, and never counted as not triggered", async () => {
    const r = (await readJson(path.join(out1(), "triggers.json"))) as unknown as Variant;
    const q05 = r.queries.find((q) => q.id === "q05");
    expect(q05).toMatchObject({ runs: 1, triggered: 0, invalid: 1, rate: 0 });
    expect(r.invalid_runs).toBe(3);
    const once = await probe(out1(), "current/q05/r1");
    expect(once.attempts.map((a) => a.outcome.kind)).toEqual(["invalid", "none"]);
    expect(once.attempts[0]?.outcome.reason).toBe("api_error");
    const always = await probe(out1(), "current/q05/r2");
    expect(always.attempts.map((a) => a.outcome.kind)).toEqual(["invalid", "invalid"]);
    expect(always.outcome.kind).toBe("invalid");
    const md = await readFile(path.join(out1(), "triggers.md"), "utf8");
    expect(md).toMatch(/current\/q05\/r2 \| 2 \| api_error \| no \(limit reached\)/);
  });

  it("neighbours and decoys show up in the confusion list", async () => {
    const r = (await readJson(path.join(out1(), "triggers.json"))) as unknown as Variant & {
      installed: { neighbours: string[]; decoys: string[] };
    };
    expect(r.installed.neighbours).toEqual(["git-tagger"]);
    expect(r.installed.decoys).toContain("dependency-updater");
    expect(r.confusion).toEqual([
      { skill: "dependency-updater", took_positive: 0, took_negative: 2, queries: ["q07"] },
      { skill: "git-tagger", took_positive: 2, took_negative: 0, queries: ["q03"] },
    ]);
  });

  it("a probe stops as soon as the Skill is chosen (the next request would hang)", async () => {
    const p = await probe(out1(), "current/q01/r1");
    expect(p.outcome).toEqual({ kind: "target", via: "skill_tool" });
    expect(p.attempts[0]).toMatchObject({ stopped_early: true, agent_outcome: "aborted" });
    const other = await probe(out1(), "current/q03/r2");
    expect(other.outcome).toEqual({ kind: "other", skill: "git-tagger", via: "skill_tool" });
  });

  it("every probe attempt ran in its own workspace with the Skills installed beside each other", async () => {
    const cwds: string[] = [];
    const files: string[] = [];
    const listed = new Set<string>();
    const probesDir = path.join(out1(), "probes", "current");
    for (const q of await readdir(probesDir))
      for (const rep of await readdir(path.join(probesDir, q)))
        for (const f of await readdir(path.join(probesDir, q, rep))) {
          if (!f.endsWith(".stdout.jsonl")) continue;
          files.push(`${q}/${rep}/${f}`);
          const lines = await readJsonLines(path.join(probesDir, q, rep, f));
          const init = lines.find((l) => l.type === "system" && l.subtype === "init");
          if (typeof init?.cwd === "string") cwds.push(init.cwd);
        }
    expect(cwds.length, `attempt transcripts with an init event (of ${files.join(", ")})`).toBe(
      14 + 2,
    ); // 14 probes, two of them re-run once
    expect(new Set(cwds).size).toBe(cwds.length);
    for (const l of await readJsonLines(path.join(out1(), "model.jsonl"))) {
      const facts = l.facts as { skills?: string[] } | undefined;
      for (const s of facts?.skills ?? []) listed.add(s);
    }
    for (const s of ["changelog-writer", "git-tagger", "release-notes", "dependency-updater"])
      expect(listed).toContain(s);
  });
});

describe("skillbench triggers -j 4", () => {
  it("gives the same counts and outcomes as -j 1", async () => {
    expect(j4.code, j4.stderr).toBe(1);
    expect(await outcomes(out4())).toEqual(await outcomes(out1()));
    const strip = (r: Json) => ({
      queries: r.queries,
      precision: r.precision,
      recall: r.recall,
      f1: r.f1,
      false_trigger_rate: r.false_trigger_rate,
      confusion: r.confusion,
      invalid_runs: r.invalid_runs,
    });
    expect(strip(await readJson(path.join(out4(), "triggers.json")))).toEqual(
      strip(await readJson(path.join(out1(), "triggers.json"))),
    );
  });
});

describe("skillbench triggers --description-file A --description-file B", () => {
  it("compares the descriptions on the same queries and picks the better one", async () => {
    expect(ab.code, ab.stderr).toBe(0);
    const r = (await readJson(path.join(outAb(), "triggers.json"))) as unknown as {
      variants: Variant[];
      comparison: {
        better: string | null;
        candidate: string;
        baseline: string;
        sign_test: { pos: number; neg: number };
      }[];
    };
    expect(r.variants.map((v) => v.name)).toEqual(["desc-a", "desc-b"]);
    // Only desc-b's description mentions "what changed": q04, and q03 (no git-tagger neighbour
    // here to take it), trigger under it alone; every other query answers the same.
    const hits = (v: Variant | undefined) =>
      v?.queries.map((q) => `${q.id}:${q.triggered}/${q.runs}`);
    expect(hits(r.variants[0])).toEqual([
      "q01:1/1",
      "q02:1/1",
      "q03:0/1",
      "q04:0/1",
      "q05:0/1",
      "q06:1/1",
      "q07:0/1",
    ]);
    expect(hits(r.variants[1])).toEqual([
      "q01:1/1",
      "q02:1/1",
      "q03:1/1",
      "q04:1/1",
      "q05:0/1",
      "q06:1/1",
      "q07:0/1",
    ]);
    expect(r.comparison).toHaveLength(1);
    expect(r.comparison[0]).toMatchObject({
      better: "desc-b",
      candidate: "desc-b",
      baseline: "desc-a",
    });
    expect(r.comparison[0]?.sign_test).toMatchObject({ pos: 2, neg: 0 });
    const b04 = await probe(outAb(), "desc-b/q04/r1");
    expect(b04.outcome).toEqual({ kind: "target", via: "skill_files" });
    expect(ab.stdout).toMatch(/desc-b triggers better than desc-a/);
    const md = await readFile(path.join(outAb(), "triggers.md"), "utf8");
    expect(md).toMatch(/## Description comparison/);
    expect(md).toMatch(/not distinguishable from noise/);
  });

  it("installs the variant's description in the workspace's SKILL.md", async () => {
    const lines = await readJsonLines(path.join(outAb(), "model.jsonl"));
    const rules = lines
      .filter((l) => (l.run as { task?: string } | undefined)?.task === "q04")
      .map(
        (l) =>
          `${(l.run as { treatment: string }).treatment}:${(l.rule as { name?: string } | null)?.name ?? ""}`,
      );
    expect(rules).toContain("desc-b:changelog-by-description");
    expect(rules).toContain("desc-a:no-skill");
  });
});

describe("skillbench triggers: bad input", () => {
  it("exits 2 naming the file, field and line before any agent runs", async () => {
    const bad = path.join(sandbox.root, "bad.yaml");
    await import("node:fs/promises").then((fs) =>
      fs.writeFile(bad, "- query: hello\n  should_trigger: maybe\n"),
    );
    const r = await runCli(
      [
        "triggers",
        SKILL,
        "--queries",
        bad,
        "--model-script",
        path.join(FIX, "model-script.yaml"),
        "--out",
        sandbox.dir("bad"),
      ],
      { env: sandbox.env() },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/bad\.yaml: \[0\]\.should_trigger \(line 2\): .*boolean/);
    const noQueries = await runCli(
      ["triggers", SKILL, "--model-script", path.join(FIX, "model-script.yaml")],
      {
        env: sandbox.env(),
      },
    );
    expect(noQueries.code).toBe(2);
    expect(noQueries.stderr).toMatch(/--queries FILE/);
  });
});
