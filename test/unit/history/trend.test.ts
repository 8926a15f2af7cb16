import { describe, expect, it } from "vitest";
import { HISTORY_RECORD_SCHEMA, type HistoryRecord } from "../../../src/history/record.js";
import { flakyCases, skillHistory, versionRows } from "../../../src/history/trend.js";

/** A record with a candidate arm of c/n and one task cell per treatment. */
function rec(
  id: string,
  skillHash: string,
  c: number,
  n: number,
  tasks: Record<string, [number, number]> = {},
  extra: Partial<HistoryRecord> = {},
): HistoryRecord {
  return {
    schema: HISTORY_RECORD_SCHEMA,
    experiment_id: id,
    kind: "eval",
    recorded_at: `2026-12-0${id.slice(-1)}T10:00:00.000Z`,
    started_at: null,
    results_dir: `/r/${id}`,
    skillbench_version: "0.1.0",
    skill: "s",
    skill_hash: skillHash,
    git: null,
    suite_hash: null,
    agent: "claude-code",
    agent_version: "2.1.328",
    model: null,
    endpoint: "real",
    candidate: "WITH_SKILL",
    baseline: "CONTROL",
    band: "improved",
    band_reason: null,
    delta: null,
    delta_interval: null,
    lift: null,
    invocation_rate: null,
    cost_usd: 1,
    runs: 2 * n,
    arms: [
      {
        treatment: "WITH_SKILL",
        role: "candidate",
        skill_hash: skillHash,
        runs: n,
        passed: c,
        pass_rate: c / n,
        interval: null,
        pass_hat_k: null,
        cost_usd: 0.5,
      },
    ],
    tasks: Object.entries(tasks).map(([task, [tc, tn]]) => ({
      task,
      task_hash: `h-${task}`,
      cells: { WITH_SKILL: { c: tc, n: tn } },
    })),
    triggers: [],
    health: [],
    ...extra,
  };
}

describe("versionRows", () => {
  it("pools each version's experiments and compares it with the previous version", () => {
    const rows = versionRows([
      rec("e1", "sha256:aaaa", 4, 10),
      rec("e2", "sha256:bbbb", 9, 10),
      rec("e3", "sha256:bbbb", 10, 10, {}, { cost_usd: 3 }),
    ]);
    expect(rows.map((r) => [r.label, r.experiments, r.passed, r.runs])).toEqual([
      ["aaaa", 1, 4, 10],
      ["bbbb", 2, 19, 20],
    ]);
    expect(rows[0]?.change).toBeNull();
    // 19/20 − 4/10 = 0.55; Newcombe's interval lies above 0.
    const change = rows[1]?.change;
    expect(change?.delta).toBeCloseTo(0.55, 12);
    expect(change?.reading).toBe("better");
    expect(change?.interval.low).toBeGreaterThan(0);
    // (1 + 3) / 2 experiments
    expect(rows[1]?.cost_per_verdict_usd).toBe(2);
  });

  it.each([
    [5, 10, 6, 10, "no clear change"],
    [10, 10, 2, 10, "worse"],
  ])("%i/%i then %i/%i reads %s", (c1, n1, c2, n2, reading) => {
    const rows = versionRows([rec("e1", "sha256:a", c1, n1), rec("e2", "sha256:b", c2, n2)]);
    expect(rows[1]?.change?.reading).toBe(reading);
  });

  it("a version that comes back keeps its first place", () => {
    const rows = versionRows([
      rec("e1", "sha256:a", 1, 2),
      rec("e2", "sha256:b", 1, 2),
      rec("e3", "sha256:a", 2, 2),
    ]);
    expect(rows.map((r) => [r.label, r.passed, r.runs])).toEqual([
      ["a", 3, 4],
      ["b", 1, 2],
    ]);
  });
});

describe("flakyCases", () => {
  it.each([
    [
      "pass then fail",
      [
        [1, 1],
        [0, 1],
      ],
      true,
    ],
    [
      "all pass",
      [
        [3, 3],
        [2, 3],
      ],
      false,
    ],
    [
      "majority pass then split",
      [
        [2, 3],
        [1, 2],
      ],
      true,
    ],
    [
      "fail, fail",
      [
        [0, 2],
        [0, 2],
      ],
      false,
    ],
    ["one experiment only", [[0, 1]], false],
  ] as const)("%s", (_name, cells, flaky) => {
    const records = cells.map(([c, n], i) => rec(`e${i + 1}`, "sha256:a", c, n, { t: [c, n] }));
    expect(flakyCases(records).length).toBe(flaky ? 1 : 0);
  });

  it("a changed Skill, task, agent version or model is not a flip", () => {
    const base = rec("e1", "sha256:a", 1, 1, { t: [1, 1] });
    for (const other of [
      rec("e2", "sha256:b", 0, 1, { t: [0, 1] }),
      rec("e2", "sha256:a", 0, 1, { t: [0, 1] }, { agent_version: "2.1.329" }),
      rec("e2", "sha256:a", 0, 1, { t: [0, 1] }, { model: "claude-sonnet-4-5" }),
      {
        ...rec("e2", "sha256:a", 0, 1, { t: [0, 1] }),
        tasks: [{ task: "t", task_hash: "h-other", cells: { WITH_SKILL: { c: 0, n: 1 } } }],
      },
    ])
      expect(flakyCases([base, other])).toEqual([]);
  });
});

describe("skillHistory", () => {
  it("keeps one Skill's records and lists its trigger figures", () => {
    const t = rec(
      "e3",
      "sha256:a",
      0,
      0,
      {},
      {
        kind: "triggers",
        arms: [],
        triggers: [{ description: "d1", precision: 1, recall: 0.5 }],
      },
    );
    const h = skillHistory("s", [
      rec("e1", "sha256:a", 1, 1),
      { ...rec("e2", "sha256:a", 1, 1), skill: "other" },
      t,
    ]);
    expect(h.versions.map((v) => v.experiments)).toEqual([1]);
    expect(h.triggers).toEqual([
      { experiment_id: "e3", description: "d1", precision: 1, recall: 0.5 },
    ]);
  });
});
