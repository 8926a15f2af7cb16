/**
 * The comparison's `judge` section (docs/judge.md): the judge's status over the runs, the notes
 * every report shows, and the pairwise verdicts when `--judge pairwise` stored them. Absent from
 * the comparison when no run was judged and no pair either, so the reports of an experiment
 * without the judge are unchanged. Pure.
 */
import type { RunDigest } from "../../core/digest.js";
import type { PairwiseFile } from "../../core/pairwise.js";
import { summarizePairs } from "../../stats/pairwise.js";
import { judgeNotes, sameFamilySentence } from "../judge-notes.js";
import { judgeStatusOf } from "../judge-status.js";
import { VERBOSITY_R, verbosityRows } from "../judge-verbosity.js";
import { interval, percent, pValue } from "./fmt.js";
import type { JudgeSection, PairwiseSection, Roles } from "./types.js";

/** The stored pairs summed up, when they compare the comparison's own candidate and baseline. */
function pairwiseOf(f: PairwiseFile | null | undefined, roles: Roles): PairwiseSection | null {
  if (!f || f.candidate !== roles.candidate || f.baseline !== roles.baseline) return null;
  const counted = f.pairs.flatMap((p) =>
    p.outcome === null ? [] : [{ task: p.task, outcome: p.outcome, disagree: p.disagree }],
  );
  return {
    model: f.model,
    candidate: f.candidate,
    baseline: f.baseline,
    ...summarizePairs(counted),
    failed: f.pairs
      .filter((p) => p.outcome === null)
      .map((p) => ({
        task: p.task,
        rep: p.rep,
        reason: p.first.preferred === null ? p.first.reason : p.second.reason,
      })),
    tokens: f.tokens,
    cost_usd: f.cost_usd,
  };
}

export function judgeSection(
  reports: readonly RunDigest[],
  roles: Roles,
  treatments: readonly string[],
  pairwise?: PairwiseFile | null,
): JudgeSection | undefined {
  const status = judgeStatusOf(reports);
  const pairs = pairwiseOf(pairwise, roles);
  if (status === null && pairs === null) return undefined;
  const notes = judgeNotes(reports);
  const pairFamily = pairs ? sameFamilySentence(reports, pairs.model) : null;
  if (pairFamily !== null) notes.push(pairFamily);
  if (pairs && pairs.failed.length > 0)
    notes.push(
      `The pairwise judge failed on ${pairs.failed.length} pair(s); they are not counted (${pairs.failed
        .slice(0, 3)
        .map((f) => `${f.task} r${f.rep}: ${f.reason}`)
        .join("; ")}).`,
    );
  const verbosity = verbosityRows(reports, treatments);
  return {
    ...(status ?? { runs_judged: 0, failed: [] }),
    notes,
    ...(verbosity.length > 0 ? { verbosity } : {}),
    ...(pairs ? { pairwise: pairs } : {}),
  };
}

/** The notes as the comparison report's block quotes (after its header); null when none. */
export function renderJudgeNotes(j: JudgeSection | undefined): string | null {
  if (!j || j.notes.length === 0) return null;
  return j.notes.map((n) => `> ⚠️ ${n}`).join("\n>\n");
}

/** comparison_report.md's verbosity line (judge score against answer length per arm); null without lengths. */
export function renderVerbosity(j: JudgeSection | undefined): string | null {
  const rows = j?.verbosity;
  if (!rows || rows.length === 0) return null;
  return `_LLM judge score against answer length (Pearson r per arm; r ≥ ${VERBOSITY_R} over 3+ runs is flagged as verbosity bias): ${rows
    .map(
      (r) =>
        `${r.treatment} ${r.r === null ? "—" : r.r.toFixed(2)} (${r.runs} runs)${r.flagged ? " ⚠️ flagged" : ""}`,
    )
    .join("; ")}._`;
}

/** comparison_report.md's "Pairwise judge" section; null without pairwise verdicts. */
export function renderPairwise(j: JudgeSection | undefined): string | null {
  const p = j?.pairwise;
  if (!p) return null;
  const st = p.sign_test;
  return [
    "## Pairwise judge (positions swapped)",
    "",
    `_Each task and repetition's \`${p.candidate}\` and \`${p.baseline}\` runs were judged together by \`${p.model}\`, twice, with positions swapped; a preference counts only when both orders agree, else the pair is a tie. Position bias = the share of pairs whose two orders disagreed._`,
    "",
    "| Pairs | Candidate wins | Baseline wins | Ties | Position bias | Win rate (ties left out) | Sign test over tasks |",
    "|---|---|---|---|---|---|---|",
    `| ${p.pairs} | ${p.wins} | ${p.losses} | ${p.ties} | ${p.position_bias === null ? "—" : p.position_bias.toFixed(2)} | ${p.win_rate === null ? "—" : `${percent(p.win_rate)} ${interval(p.win_rate_ci)}`} | ${st.tasks_better} better, ${st.tasks_worse} worse, ${st.tasks_even} even; p = ${st.p === null ? "—" : pValue(st.p)} |`,
    ...(p.failed.length > 0
      ? ["", `_${p.failed.length} pair(s) not counted: the judge failed (see the note above)._`]
      : []),
  ].join("\n");
}
