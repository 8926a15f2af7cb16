import { f2 } from "../format.js";
import { signed } from "./fmt.js";
import type { Comparison, DimensionCell } from "./types.js";

/**
 * The verdict table's `Skill adherence` row, beside the lift rows (docs/trajectory.md): how much
 * of the Skill's declared steps each arm's runs met, where the Skill fired. None when no run
 * scored skill_adherence (no steps declared), so other comparisons read as before. Pure.
 */
export function adherenceRows(c: Comparison): string[][] {
  const row = c.rubric.dimensions.find((d) => d.name === "skill_adherence");
  if (row === undefined) return [];
  const { candidate, baseline } = c.roles;
  const arm = (name: string, x: DimensionCell | null | undefined): string =>
    x === null || x === undefined || x.n === 0
      ? `\`${name}\` N/A`
      : `\`${name}\` ${f2(x.mean)} (${x.n} run${x.n === 1 ? "" : "s"})`;
  return [
    [
      "Skill adherence",
      `${arm(candidate, row.cells[candidate])}, ${arm(baseline, row.cells[baseline])}${row.delta === null ? "" : `, Δ ${signed(row.delta)}`}`,
      "share of the Skill's declared steps met, over the runs where the Skill fired (N/A: it fired in none)",
    ],
  ];
}
