/** The A/A calibration in summary.md, and the noise-floor line of a comparison. Pure. */
import { f2, table } from "../format.js";
import { percent, signed } from "../comparison/fmt.js";
import { unquotableFloor } from "./build.js";
import { MIN_PER_ARM, type Calibration, type NoiseFloor } from "./types.js";

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
      ["task", "runs", "passes", "pass rate", "pair disagreement"],
      c.tasks.map((t) => [
        t.task,
        String(t.runs),
        String(t.passes),
        f2(t.pass_rate),
        f2(t.pair_disagreement),
      ]),
    ),
    "",
    `Pair disagreement: the share of pairs of a task's runs that disagree (mean ${f2(c.mean_pair_disagreement)}). Flip rate (as in a comparison): the share of tasks whose runs disagree at all, ${percent(c.task_flip_rate)}.`,
    "",
  ];
  const r = c.split_by_rep;
  lines.push(
    r
      ? `- **First ${s.per_arm} repetitions vs the rest:** Δ pass rate ${signed(r.delta)} [${signed(r.ci.low)}, ${signed(r.ci.high)}] → ${BAND_WORD[r.band]}.`
      : `- **First ${s.per_arm} repetitions vs the rest:** no task has runs in both halves.`,
  );
  const m = c.resampled;
  const why = unquotableFloor(c);
  lines.push(
    m
      ? `- **${m.splits} random splits:** the verdict rule claimed a difference (improved or regressed) in ${percent(m.claim_rate)} of them (improved ${m.bands.improved}, regressed ${m.bands.regressed}, non-inferior ${m.bands.non_inferior}, inconclusive ${m.bands.inconclusive}); |Δ pass rate| between the halves: 95th percentile ${why ? f2(m.delta_abs_p95) : `**${f2(m.delta_abs_p95)}**`}, largest ${f2(m.delta_abs_max)}.`
      : "- **Random splits:** no task has 2 or more analysis-set runs.",
    "",
    floorLine(c),
    "",
  );
  return lines.join("\n");
}

/**
 * The calibration's noise floor in one line (summary.md and the console of `calibrate`), or why
 * it is not quoted (unquotableFloor).
 */
export function floorLine(c: Calibration): string {
  const why = unquotableFloor(c);
  const m = c.resampled;
  if (why !== null || !m)
    return `⚠️ **No noise floor quoted**: ${why ?? "no random split"}; a floor from so few runs is itself noise. Run \`skillbench calibrate --count ${MIN_PER_ARM}\` (or more) for one.`;
  return `📏 **Noise floor of \`${c.settings.treatment}\`**: two halves of the same treatment differ by up to ±${f2(m.delta_abs_p95)} in pass rate (95% of ${m.splits} splits, ${c.settings.per_arm} run(s) per arm), and the verdict rule claimed a difference in ${percent(m.claim_rate)} of them. A comparison with \`${c.settings.treatment}\` shows it beside its delta.`;
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
