import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JudgeBlock } from "../../../src/core/judge.js";
import { InputError } from "../../../src/core/errors.js";
import { buildJudgeCalibration, levelOf } from "../../../src/judge/calibration/build.js";
import { judgeIdentityOf, type JudgeIdentity } from "../../../src/judge/calibration/identity.js";
import { parseLabels } from "../../../src/judge/calibration/labels.js";
import { requireJudgeCalibration } from "../../../src/judge/calibration/require.js";
import { recordCalibrationInHistory } from "../../../src/judge/calibration/history.js";

const F = "/l/labels.jsonl";

describe("parseLabels", () => {
  it("run labels (rater defaults to human) and pair labels; comments and blank lines skipped", () => {
    const l = parseLabels(
      F,
      [
        "# labels",
        '{"run_id": "a-r1", "dimension": "task_completion", "label": 0.5}',
        "",
        '{"run_id": "a-r1", "dimension": "task_completion", "label": 1, "rater": "ana"}',
        '{"task": "a", "repetition": 1, "preferred": "candidate"}',
      ].join("\n"),
    );
    expect(l.runs.map((r) => [r.rater, r.label, r.line])).toEqual([
      ["human", 0.5, 2],
      ["ana", 1, 4],
    ]);
    expect(l.pairs).toEqual([
      { task: "a", repetition: 1, preferred: "candidate", rater: "human", line: 5 },
    ]);
  });

  it.each([
    ["{", 1, "(line)", "not JSON"],
    ["[1]", 1, "(line)", "one JSON object per line"],
    [
      '{"run_id": "a", "dimension": "d", "label": 2}',
      1,
      "label",
      "expected {run_id, dimension, label: 0..1, rater?}",
    ],
    ['{"run_id": "a", "dimension": "d"}', 1, "label", ""],
    ['{"run_id": "a", "dimension": "d", "label": 1, "score": 1}', 1, "score", ""],
    ['{"task": "a", "repetition": 1, "preferred": "A"}', 1, "preferred", "candidate|baseline|tie"],
    [
      '{"run_id": "a", "dimension": "d", "label": 1}\n{"run_id": "a", "dimension": "d", "label": 0}',
      2,
      "rater",
      "human already labelled this run and dimension on line 1",
    ],
  ])("%s: line %i, field %s", (text, line, field, message) => {
    let err: unknown;
    try {
      parseLabels(F, text);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InputError);
    const e = err as InputError;
    expect(e.details).toEqual({ file: F, line, field });
    expect(e.message).toContain(`${F}:${line}: ${field}: `);
    expect(e.message).toContain(message);
  });

  it("an empty file is an error", () =>
    expect(() => parseLabels(F, "# nothing\n")).toThrow(`${F}: no labels`));
});

function block(model: string, scores: Record<string, number[]>): JudgeBlock {
  return {
    status: "enabled_and_successful",
    reason: "",
    profile: "generic",
    prompt_kind: "generic",
    model,
    transport: "http",
    agent: null,
    dimensions: Object.entries(scores).map(([name, samples]) => ({
      name,
      score: samples.reduce((a, b) => a + b, 0) / samples.length,
      reason: "",
      samples,
      spread: { min: Math.min(...samples), max: Math.max(...samples), stdev: 0 },
    })),
    lines: [],
    samples_requested: 2,
    samples_parsed: 2,
    calls: 2,
    repairs: 0,
    tokens: null,
    cost_usd: null,
    cached: false,
    prompt_hash: null,
    answer_chars: null,
  };
}

describe("levelOf", () => {
  it.each([
    [0, 3, 0],
    [0.24, 3, 0],
    [0.25, 3, 1],
    [0.74, 3, 1],
    [0.75, 3, 2],
    [1, 3, 2],
    [0.5, 2, 1],
    [0.49, 2, 0],
  ])("%f on %i levels → %i", (s, n, want) => expect(levelOf(s, n)).toBe(want));
});

describe("judgeIdentityOf", () => {
  it("one model, prompt kind and profile: the identity; the prompt digest is the template's", async () => {
    const a = await judgeIdentityOf([block("m", { task_completion: [1] }), null]);
    const b = await judgeIdentityOf([block("m", { task_completion: [0] })]);
    expect(a.ok && b.ok).toBe(true);
    if (!a.ok || !b.ok) return;
    // the scores differ, the instrument does not
    expect(a.identity).toEqual(b.identity);
    expect(a.identity.prompt_digest).toMatch(/^[0-9a-f]{64}$/);
    // a custom criterion adds to the generic prompt: another template
    const c = await judgeIdentityOf([block("m", { task_completion: [1], custom_0: [1] })]);
    expect(c.ok && c.identity.prompt_digest).not.toBe(a.identity.prompt_digest);
  });
  it("two judge models, or none judged: says what is missing", async () => {
    expect(await judgeIdentityOf([block("m1", {}), block("m2", {})])).toEqual({
      ok: false,
      missing: ["one judge model (the runs were judged with m1, m2)"],
    });
    expect(await judgeIdentityOf([null])).toMatchObject({
      ok: false,
      missing: [
        "judge model (no run was judged successfully)",
        "prompt kind (no run was judged successfully)",
        "rubric profile (no run was judged successfully)",
      ],
    });
  });
});

describe("buildJudgeCalibration and requireJudgeCalibration", () => {
  let dir: string;
  const runs = [
    { run_id: "g1", judge: block("m", { task_completion: [1, 1] }) },
    { run_id: "g2", judge: block("m", { task_completion: [1, 0.5] }) },
    { run_id: "p1", judge: block("m", { task_completion: [0, 0] }) },
    { run_id: "p2", judge: null },
  ];
  let identity: JudgeIdentity;
  const labels = (text: string) => parseLabels(F, text);
  const row = (id: string, label: number, rater = "ana") =>
    JSON.stringify({ run_id: id, dimension: "task_completion", label, rater });

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "skillbench-judgecal-"));
    const id = await judgeIdentityOf(runs.map((r) => r.judge));
    if (!id.ok) throw new Error("no identity");
    identity = id.identity;
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("per dimension: α over judge and raters, κ per rater, confusion, repeatability", () => {
    const c = buildJudgeCalibration(
      runs,
      labels(
        [row("g1", 1), row("g2", 1), row("p1", 0), row("p2", 0), row("g1", 1, "ben")].join("\n"),
      ),
      identity,
      { createdAt: "t", replicates: 200 },
    );
    const d = c.dimensions[0];
    expect(d?.name).toBe("task_completion");
    // judge levels (g1 2, g2 1 (mean 0.75 → 2), p1 0, p2 —): g2's mean 0.75 rounds to level 2
    expect(d?.alpha_ordinal.estimate).toBe(1);
    expect(d?.raters.map((r) => [r.rater, r.units])).toEqual([
      ["ana", 3],
      ["ben", 1],
    ]);
    expect(d?.raters[0]?.confusion).toEqual([
      [1, 0, 0],
      [0, 0, 0],
      [0, 0, 2],
    ]);
    expect(c.notes).toEqual([
      "task_completion: 1 labelled run(s) have no judge score (the judge failed or was skipped there); they count only among the human raters",
    ]);
    // samples: g1 (2, 2), g2 (2, 1), p1 (0, 0): o_22 = 2, o_21 = o_12 = 1, o_00 = 2;
    // n_0 = 2, n_1 = 1, n_2 = 3, n = 6. Ordinal δ²(1,2) = (n_1 + n_2 − (n_1 + n_2)/2)² = 2² = 4,
    // δ²(0,1) = (2 + 1 − 1.5)² = 2.25, δ²(0,2) = (2 + 1 + 3 − 2.5)² = 12.25.
    // α = 1 − (n − 1)·(o_12 + o_21)·4 / Σ_{c≠k} n_c n_k δ²
    //   = 1 − 5·8 / (2·(2·1·2.25 + 2·3·12.25 + 1·3·4)) = 1 − 40 / (2·(4.5 + 73.5 + 12)) = 1 − 40/180
    expect(c.repeatability[0]?.alpha_ordinal.estimate).toBeCloseTo(1 - 40 / 180, 12);
    expect(c.repeatability[0]?.runs).toBe(3);
  });

  it("a label for a run or a dimension that is not there: the line and the field", () => {
    expect(() =>
      buildJudgeCalibration(runs, labels(row("zz", 1)), identity, { createdAt: "t" }),
    ).toThrow(`${F}:1: run_id: no run zz in this results folder`);
    expect(() =>
      buildJudgeCalibration(
        runs,
        labels('{"run_id": "g1", "dimension": "spec_drift", "label": 1}'),
        identity,
        { createdAt: "t" },
      ),
    ).toThrow(`${F}:1: dimension: spec_drift is not a judge dimension here`);
  });

  it("a gate needs a calibration of the same judge with α ≥ the threshold", async () => {
    const demand = { gate: "--fail-under judge.task_completion=0.5", dimension: "task_completion" };
    const base = { demands: [demand], blocks: runs.map((r) => r.judge), outDirs: [dir] };
    await expect(requireJudgeCalibration(base)).rejects.toThrow(/is refused.*none found at/);
    // nothing to gate on: nothing required
    expect(await requireJudgeCalibration({ ...base, demands: [] })).toEqual([]);
    const good = buildJudgeCalibration(
      runs,
      labels([row("g1", 1), row("g2", 1), row("p1", 0)].join("\n")),
      identity,
      { createdAt: "t", replicates: 50 },
    );
    await writeFile(path.join(dir, "judge-calibration.json"), JSON.stringify(good));
    expect(await requireJudgeCalibration(base)).toEqual([
      { gate: demand.gate, file: path.join(dir, "judge-calibration.json") },
    ]);
    // another prompt template: refused, naming the digests
    const other = path.join(dir, "other.json");
    await writeFile(
      other,
      JSON.stringify({ ...good, judge: { ...good.judge, prompt_digest: "f".repeat(64) } }),
    );
    await expect(requireJudgeCalibration({ ...base, outDirs: [], file: other })).rejects.toThrow(
      /prompt digest ffffffffffff calibrated, the runs' judge prompt is [0-9a-f]{12}/,
    );
    // α = 1 on this data, so no threshold refuses it; α undefined does
    const flat = buildJudgeCalibration(runs, labels(row("g1", 1)), identity, { createdAt: "t" });
    await writeFile(other, JSON.stringify(flat));
    await expect(requireJudgeCalibration({ ...base, outDirs: [], file: other })).rejects.toThrow(
      /α of task_completion is undefined/,
    );
    // a file that is not a calibration: the file and the field
    await writeFile(other, JSON.stringify({ ...good, levels: "three" }));
    await expect(requireJudgeCalibration({ ...base, outDirs: [], file: other })).rejects.toThrow(
      `${other}: levels: `,
    );
    // a missing --judge-calibration file is an error, not "no calibration"
    await expect(
      requireJudgeCalibration({ ...base, outDirs: [], file: path.join(dir, "nope.json") }),
    ).rejects.toThrow("cannot read the judge calibration (ENOENT)");
  });

  it("the history store vouches for a new folder; a store without it is named where it looked", async () => {
    const demand = { gate: "--fail-under judge.task_completion=0.5", dimension: "task_completion" };
    const fresh = path.join(dir, "fresh");
    const store = path.join(dir, "store", "history.db");
    const base = { demands: [demand], blocks: runs.map((r) => r.judge), outDirs: [fresh] };
    // a store file that does not exist is not created by looking
    await expect(requireJudgeCalibration({ ...base, history: store })).rejects.toThrow(
      `none found at ${path.join(fresh, "judge-calibration.json")}, the history store ${store})`,
    );
    expect(existsSync(store)).toBe(false);
    const good = buildJudgeCalibration(
      runs,
      labels([row("g1", 1), row("g2", 1), row("p1", 0)].join("\n")),
      identity,
      { createdAt: "2026-12-06T10:00:00.000Z", replicates: 50 },
    );
    // another judge model's calibration in the store does not vouch
    const elsewhere = { ...good, judge: { ...good.judge, model: "m2" } };
    expect(await recordCalibrationInHistory(store, "/r/other", elsewhere)).toEqual({
      ok: true,
      where: store,
    });
    await expect(requireJudgeCalibration({ ...base, history: store })).rejects.toThrow(
      `none found at ${path.join(fresh, "judge-calibration.json")}, the history store ${store})`,
    );
    expect(await recordCalibrationInHistory(store, "/r/first", good)).toMatchObject({ ok: true });
    expect(await requireJudgeCalibration({ ...base, history: store })).toEqual([
      {
        gate: demand.gate,
        file: `the history store ${store} (calibration of /r/first, 2026-12-06T10:00:00.000Z)`,
      },
    ]);
    // not looked at with no store (--no-history)
    await expect(requireJudgeCalibration({ ...base, history: null })).rejects.toThrow(
      /none found at/,
    );
    // a store that cannot be read: named in the refusal, with why
    const notStore = path.join(dir, "not-a-store.db");
    await writeFile(notStore, "not a database ".repeat(100));
    await expect(requireJudgeCalibration({ ...base, history: notStore })).rejects.toThrow(
      `the history store ${notStore} (not read: ${notStore}: not a history store (SQLite)`,
    );
    // recording into it is a warning, not a failure
    const rec = await recordCalibrationInHistory(notStore, "/r/x", good);
    expect(rec.ok).toBe(false);
    expect(rec.ok ? "" : rec.warning).toContain(
      `warning: the judge calibration was not recorded in the history store ${notStore}`,
    );
  });
});
