/** The A/A calibration in summary.md, and the noise-floor line of a comparison. Pure. */
import { f2, table } from "../format.js";
import { percent, signed } from "../comparison/fmt.js";
import type { Calibration, NoiseFloor } from "./types.js";

const BAND_WORD = {
  improved: "improved",
  non_inferior: "non-inferior",
  regressed: "regressed",
  inconclusive: "inconclusive",
} as const;

/** The `## A/A calibration` section of summary.md. */
export function renderCalibrationSection(c: Calibration): string {
  const s = c.settings;
  const lines = [
    "## A/A calibration",
    "",
    `\`${s.treatment}\` ran ${2 * s.per_arm} times per task (${s.per_arm} per arm) and its runs were split into two arms of the same treatment, so every difference between them is noise (docs/statistics.md §13). Analysis set: ${c.runs.analysis} of ${c.runs.raw} run(s) (${c.runs.excluded} excluded).`,
    "",
    table(
      ["task", "runs", "passes", "pass rate", "flip rate"],
      c.tasks.map((t) => [
        t.task,
        String(t.runs),
        String(t.passes),
        f2(t.pass_rate),
        f2(t.flip_rate),
      ]),
    ),
    "",
    `Flip rate: the share of pairs of a task's runs that disagree. Tasks whose runs disagree at all: ${percent(c.task_flip_rate)}; mean flip rate ${f2(c.pair_flip_rate)}.`,
    "",
  ];
  const r = c.split_by_rep;
  lines.push(
    r
      ? `- **First ${s.per_arm} repetitions vs the rest:** Δ pass rate ${signed(r.delta)} [${signed(r.ci.low)}, ${signed(r.ci.high)}] → ${BAND_WORD[r.band]}.`
      : `- **First ${s.per_arm} repetitions vs the rest:** no task has runs in both halves.`,
  );
  const m = c.resampled;
  lines.push(
    m
      ? `- **${m.splits} random splits:** the verdict rule claimed a difference (improved or regressed) in ${percent(m.claim_rate)} of them (improved ${m.bands.improved}, regressed ${m.bands.regressed}, non-inferior ${m.bands.non_inferior}, inconclusive ${m.bands.inconclusive}); |Δ pass rate| between the halves: 95th percentile **${f2(m.delta_abs_p95)}**, largest ${f2(m.delta_abs_max)}. That is the noise floor a comparison with \`${s.treatment}\` shows beside its delta.`
      : "- **Random splits:** no task has 2 or more analysis-set runs.",
    "",
  );
  return lines.join("\n");
}

/** One markdown paragraph: the noise floor beside the comparison's delta. */
export function renderNoiseFloor(n: NoiseFloor, delta: number | null): string {
  const where =
    n.delta_beyond_floor === null
      ? ""
      : n.delta_beyond_floor
        ? ` This comparison's Δ ${signed(delta)} lies beyond it.`
        : ` This comparison's Δ ${signed(delta)} is within it: a difference this size appears between two halves of the same treatment.`;
  return `📏 **Noise floor** (A/A calibration of \`${n.treatment}\`, the ${n.arm}, ${n.per_arm} run(s) per arm, \`${n.dir}\`): two halves of the same treatment differ by up to ±${f2(n.delta_abs_p95)} in pass rate (95% of ${n.splits} splits), and the verdict rule claimed a difference in ${percent(n.claim_rate)} of them.${where}`;
}
