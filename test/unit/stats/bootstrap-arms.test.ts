/**
 * bootstrapIntervalsOfArms shares one pass over the random draws among arms with the same
 * number of tasks: each arm's intervals must be exactly what bootstrapIntervals gives
 * for that arm alone, with the same seed.
 */
import { describe, expect, it } from "vitest";
import { bootstrapIntervals, bootstrapIntervalsOfArms } from "../../../src/stats/bootstrap.js";
import { mulberry32 } from "../../../src/stats/prng.js";
import {
  macroPassAtK,
  macroPassHatK,
  pooledPassRate,
  type PerTaskOutcomes,
  type TaskStatistic,
} from "../../../src/stats/task-statistics.js";

/** Outcomes with the given run counts per task; pass probability p per task (0 or 1: constant tasks). */
function arm(seed: number, lens: number[], p: (task: number) => number): PerTaskOutcomes {
  const rng = mulberry32(seed);
  return lens.map((n, i) => Array.from({ length: n }, () => rng() < p(i)));
}

/** A statistic without a count form (takes the table-building path). */
const maxTaskRate: TaskStatistic = (perTask) =>
  perTask.length === 0
    ? null
    : Math.max(...perTask.map((runs) => runs.filter(Boolean).length / Math.max(1, runs.length)));

const stats = [
  macroPassAtK(1),
  macroPassAtK(3),
  macroPassHatK(2),
  macroPassHatK(6),
  macroPassHatK(2, "strict"),
  pooledPassRate,
];

function expectSameAsAlone(
  arms: PerTaskOutcomes[],
  statistics: TaskStatistic[],
  replicates: number,
  seed: number,
): void {
  const got = bootstrapIntervalsOfArms(arms, statistics, { replicates, seed });
  expect(got).toHaveLength(arms.length);
  arms.forEach((a, i) => {
    const alone = bootstrapIntervals(a, statistics, { replicates, seed });
    // toStrictEqual compares numbers with Object.is: bit for bit
    expect(got[i]).toStrictEqual(alone);
  });
}

describe("bootstrapIntervalsOfArms equals bootstrapIntervals arm by arm", () => {
  const lens = [5, 3, 8, 1, 5, 6, 2, 7];
  it("arms with the same run counts (shared draws), mixed and constant tasks", () => {
    const arms = [
      arm(1, lens, () => 0.5),
      arm(2, lens, (i) => (i % 3 === 0 ? 1 : 0.3)),
      arm(3, lens, (i) => (i % 2 === 0 ? 0 : 1)),
      arm(4, lens, () => 0.9),
    ];
    expectSameAsAlone(arms, stats, 300, 7);
  });

  it("arms with different layouts, an empty arm and a statistic without a count form", () => {
    const arms = [
      arm(5, lens, () => 0.4),
      arm(6, [4, 4, 4], () => 0.6),
      [],
      arm(7, lens, () => 0.7),
      arm(8, [4, 4, 4], () => 0.2),
      arm(9, [1, 1], () => 0.5),
    ];
    expectSameAsAlone(arms, [...stats, maxTaskRate], 200, 11);
  });

  it("arms with the same task count but other run counts per task (shared draws)", () => {
    const arms = [
      arm(10, lens, () => 0.5),
      arm(11, [1, 9, 2, 4, 4, 3, 12, 6], () => 0.6),
      arm(12, [2, 2, 2, 2, 2, 2, 2, 2], (i) => (i % 2 === 0 ? 0.5 : 1)),
      arm(13, [0, 5, 0, 3, 7, 1, 1, 30], () => 0.3),
    ];
    expectSameAsAlone(arms, [...stats, maxTaskRate], 300, 5);
  });

  it("more arms of one layout than one shared pass took with packed digits", () => {
    const arms = Array.from({ length: 40 }, (_, i) => arm(100 + i, [3, 5, 2], () => i / 40));
    expectSameAsAlone(arms, [macroPassAtK(2), pooledPassRate], 50, 3);
  });
});
