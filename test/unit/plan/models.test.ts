/**
 * Models as a matrix axis (docs/agents.md, "Models as a matrix axis"): treatment `model:` pins, the
 * `--model a,b` default list, run ids, shards, plan records, run keys, model-server paths and the
 * scripted model's `when: model`.
 */
import { describe, expect, it } from "vitest";
import { InputError } from "../../../src/core/errors.js";
import { parseModelScript } from "../../../src/model/load-script.js";
import { requestFacts } from "../../../src/model/request-facts.js";
import { parseRunPath, runBaseUrl } from "../../../src/model/run-path.js";
import { whenMatches } from "../../../src/model/select-step.js";
import { agentsOfTreatments } from "../../../src/plan/agents.js";
import { modelSlug, planRuns, runIdNamesModel, type RunSpec } from "../../../src/plan/matrix.js";
import { modelsOfTreatments, parseModelList } from "../../../src/plan/models.js";
import { planDifferences, planRecord, type ArmSettings } from "../../../src/plan/plan-record.js";
import { shardOfEach } from "../../../src/plan/shard.js";
import { runKey } from "../../../src/runner/context.js";
import { load, loadError, oneTask } from "../suite/make-suite.js";

const TREATMENTS = `
CONTROL: {description: none}
ONE: {model: small}
BOTH: {model: [large, small]}
SLASHED: {model: ["openai/gpt-4.1", "gpt-4.1:mini"]}
`;

const planOf = async (
  treatments: string,
  defaults: (string | null)[],
  opts: { agent?: string; count?: number } = {},
): Promise<RunSpec[]> => {
  const { suite } = await load(oneTask("", { "treatments/t.yaml": treatments }));
  return planRuns({
    tasks: [{ name: "t", default_treatments: [] }],
    treatments: suite.treatments.map((t) => t.name),
    treatmentFilter: null,
    count: opts.count ?? 1,
    agentsOf: agentsOfTreatments(suite, { agent: opts.agent ?? "claude" }),
    modelsOf: modelsOfTreatments(suite, defaults),
  });
};

describe("treatment model pins", () => {
  it("reads model: as one id or a list", async () => {
    const { suite } = await load(oneTask("", { "treatments/t.yaml": TREATMENTS }));
    expect(Object.fromEntries(suite.treatments.map((t) => [t.name, t.models ?? null]))).toEqual({
      CONTROL: null,
      ONE: ["small"],
      BOTH: ["large", "small"],
      SLASHED: ["openai/gpt-4.1", "gpt-4.1:mini"],
    });
  });

  it.each([
    ["a model listed twice", "X: {model: [a, a]}\n", 'X.model: model "a" is listed twice'],
    ["an empty list", "X: {model: []}\n", "X.model: name at least one model, or leave it out"],
    ["a comma", 'X: {model: "a,b"}\n', 'X.model: model "a,b" must be one word'],
    ["white space", 'X: {model: "a b"}\n', 'X.model: model "a b" must be one word'],
    ["a number", "X: {model: 3}\n", "X.model: expected a string or a list of strings"],
  ])("refuses %s, naming file and field", async (_n, yaml, message) => {
    const err = await loadError(oneTask("", { "treatments/t.yaml": yaml }));
    expect(err).toContain("treatments/t.yaml");
    expect(err).toContain(message);
  });
});

describe("parseModelList (--model)", () => {
  it.each<[string | null, (string | null)[]]>([
    [null, [null]],
    ["", [null]],
    ["claude-sonnet-4-5", ["claude-sonnet-4-5"]],
    // One id without a comma stays exactly what was given, as before models were an axis.
    ["odd id", ["odd id"]],
    ["large,small", ["large", "small"]],
    [" large , small ,large", ["large", "small"]],
  ])("%j → %j", (text, want) => expect(parseModelList(text)).toEqual(want));

  it.each([["a,,b"], ["a,"], ["a, b c"]])("refuses %j naming --model", (text) => {
    expect(() => parseModelList(text)).toThrow(InputError);
    expect(() => parseModelList(text)).toThrow(/^--model /);
  });
});

describe("planRuns with models", () => {
  it("uses the pin, else the default list; a treatment on several models names it in its run ids", async () => {
    const runs = await planOf(TREATMENTS, ["m1"]);
    expect(runs.map((r) => [r.run_id, r.model])).toEqual([
      ["t-CONTROL-r1", "m1"],
      ["t-ONE-r1", "small"],
      ["t-BOTH~large-r1", "large"],
      ["t-BOTH~small-r1", "small"],
      // Characters a name may not hold read as `_` in the id; the model itself is kept.
      ["t-SLASHED~openai_gpt-4.1-r1", "openai/gpt-4.1"],
      ["t-SLASHED~gpt-4.1_mini-r1", "gpt-4.1:mini"],
    ]);
  });

  it("crosses every unpinned treatment with --model a,b, after the agents, before the reps", async () => {
    const runs = await planOf("WITH: {}\n", ["large", "small"], {
      agent: "claude,codex",
      count: 2,
    });
    expect(runs.map((r) => r.run_id)).toEqual([
      "t-CONTROL@claude~large-r1",
      "t-CONTROL@claude~large-r2",
      "t-CONTROL@claude~small-r1",
      "t-CONTROL@claude~small-r2",
      "t-CONTROL@codex~large-r1",
      "t-CONTROL@codex~large-r2",
      "t-CONTROL@codex~small-r1",
      "t-CONTROL@codex~small-r2",
      "t-WITH@claude~large-r1",
      "t-WITH@claude~large-r2",
      "t-WITH@claude~small-r1",
      "t-WITH@claude~small-r2",
      "t-WITH@codex~large-r1",
      "t-WITH@codex~large-r2",
      "t-WITH@codex~small-r1",
      "t-WITH@codex~small-r2",
    ]);
  });

  it("keeps one model's ids and specs as before (no ~ part)", async () => {
    const runs = await planOf("WITH: {}\n", [null]);
    expect(runs.map((r) => [r.run_id, r.model])).toEqual([
      ["t-CONTROL-r1", null],
      ["t-WITH-r1", null],
    ]);
  });

  it("refuses two models of one treatment whose id parts are equal", async () => {
    await expect(planOf('X: {model: ["a/b", "a:b"]}\n', [null])).rejects.toThrow(
      /treatment X: models "a\/b" and "a:b" would share the run ids' model part ~a_b/,
    );
  });

  it("counts models in the plan's size limit", () => {
    expect(() =>
      planRuns({
        tasks: [{ name: "t", default_treatments: [] }],
        treatments: ["CONTROL"],
        treatmentFilter: null,
        count: 50_001,
        modelsOf: () => ["a", "b"],
      }),
    ).toThrow(/100,002 runs .* agents and models/);
  });

  it.each<[string, number, string | null, boolean]>([
    ["t-X~large-r1", 1, "large", true],
    ["t-X~openai_gpt-4.1-r2", 2, "openai/gpt-4.1", true],
    ["t-X-r1", 1, "large", false],
    ["t-X-r1", 1, null, false],
    ["t-X~large-r1", 2, "large", false],
  ])("runIdNamesModel(%s, r%d, %s) = %s", (run_id, rep, model, want) => {
    expect(runIdNamesModel({ run_id, rep, model })).toBe(want);
    expect(modelSlug("a/b:c@d e")).toBe("a_b_c_d_e");
  });
});

describe("shards, plan records and run keys see the model", () => {
  it("keeps a (task, rep) pair's runs of every model in one shard", async () => {
    const runs = await planOf("WITH: {}\n", ["large", "small"], { count: 3 });
    const of = shardOfEach(runs, 3);
    const byPair = new Map<string, Set<number>>();
    runs.forEach((r, i) => {
      const k = `${r.task}/${r.rep}`;
      byPair.set(k, (byPair.get(k) ?? new Set()).add(of[i] ?? 0));
    });
    expect([...byPair.values()].map((s) => s.size)).toEqual([1, 1, 1]);
    expect(new Set(of).size).toBe(3);
  });

  it("tells plans apart by their arms' models", () => {
    const settings = (model: string): ArmSettings =>
      ({ agent: "claude-code", model }) as unknown as ArmSettings;
    const arm = (model: string) => ({
      task: "t",
      treatment: "WITH",
      agent: "claude",
      settings: settings(model),
    });
    const a = planRecord([arm("large"), arm("small")], 1, 2);
    const b = planRecord([arm("large"), arm("tiny")], 1, 2);
    expect(a.fingerprint).not.toBe(b.fingerprint);
    expect(planDifferences(a, b, { a: "A", b: "B" })).toEqual(["model: A small, B tiny"]);
    const one = planRecord([arm("large")], 1, 1);
    expect(planDifferences(a, one, { a: "A", b: "B" })).toEqual([
      "planned only in A: t × WITH (claude)",
    ]);
  });

  it("puts the model in the run's key only when its id names it", () => {
    const plan = (run_id: string, model: string | null) => ({
      run_id,
      task: "t",
      treatment: "WITH",
      rep: 1,
      agent: { name: "claude" },
      model,
    });
    expect(runKey(plan("t-WITH-r1", "large"))).toEqual({
      task: "t",
      treatment: "WITH",
      rep: 1,
      agent: "claude",
    });
    expect(runKey(plan("t-WITH~large-r1", "large"))).toEqual({
      task: "t",
      treatment: "WITH",
      rep: 1,
      agent: "claude",
      model: "large",
    });
  });
});

describe("model-server paths and rules", () => {
  it.each<[string | undefined, string | undefined, string]>([
    ["codex", "openai/gpt-4.1", "/runs/t/WITH%40codex~openai%2Fgpt-4.1/2/subject"],
    [undefined, "a@b~c", "/runs/t/WITH~a%40b~c/2/subject"],
    ["claude", undefined, "/runs/t/WITH%40claude/2/subject"],
  ])("round-trips agent %s, model %s", (agent, model, path) => {
    const url = runBaseUrl("http://127.0.0.1:1/", {
      task: "t",
      treatment: "WITH",
      rep: 2,
      role: "subject",
      agent,
      model,
    });
    expect(new URL(url).pathname).toBe(path);
    const parsed = parseRunPath(`${new URL(url).pathname}/v1/messages`);
    expect(parsed).toEqual({
      ok: true,
      run: {
        task: "t",
        treatment: "WITH",
        rep: 2,
        role: "subject",
        ...(agent !== undefined ? { agent } : {}),
        ...(model !== undefined ? { model } : {}),
      },
      rest: "/v1/messages",
    });
  });

  it.each<[unknown, string | undefined, boolean]>([
    ["large", "large", true],
    [["small", "large"], "large", true],
    ["large", "large-2", false],
    ["large", undefined, false],
  ])("when model %j, request model %s → %s", (model, asked, want) => {
    const s = parseModelScript({ rules: [{ when: { model }, steps: [{ text: "x" }] }] });
    const facts = requestFacts({
      ...(asked !== undefined ? { model: asked } : {}),
      messages: [{ role: "user", content: "hi" }],
    });
    const run = { task: "t", treatment: "WITH", rep: 1, role: "subject" as const };
    expect(whenMatches(s.rules[0]!.when, run, facts)).toBe(want);
  });
});
