/**
 * `run --until-decided --max-count N` (docs/statistics.md §12): repetitions in rounds; after each
 * round the comparison is decided at the level the alpha-spending rule hands that look, and the
 * experiment stops when the band is decided (src/stats/sequential.ts `sequentialStops`), when
 * --max-count is reached, or when the run is interrupted. sequential.json records every look.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { InputError } from "../core/errors.js";
import { MAX_PLANNED_RUNS } from "../plan/matrix.js";
import { alphaSpent, sequentialStops, type Spending } from "../stats/index.js";
import { readSequential, writeSequential } from "../report/sequential/io.js";
import { SEQUENTIAL_SCHEMA, type Sequential } from "../report/sequential/types.js";
import { planSequential } from "../report/sequential/plan.js";
import { levelText } from "../report/comparison/interval.js";
import type { ArmCounts } from "../report/comparison/projection.js";
import { writeExperimentReports, writeExperimentReportsOf } from "./finish.js";
import { runSuite, type RunOptions, type RunSummary } from "./run-suite.js";

export interface UntilDecidedOptions {
  /** the most repetitions per task and treatment */
  maxCount: number;
  /** total two-sided α over all looks (default 0.05) */
  alpha?: number | undefined;
  spending?: Spending | undefined;
}

/** What a look needs of comparison.json (parsed, not cast). */
const CellSchema = z.object({ c: z.number().int(), n: z.number().int() }).loose().nullable();
const LookReadSchema = z
  .object({
    settings: z.object({ margin: z.number() }).loose(),
    roles: z.object({ candidate: z.string(), baseline: z.string() }).loose(),
    task_outcomes: z.array(
      z.object({ task: z.string(), cells: z.record(z.string(), CellSchema) }).loose(),
    ),
    verdict: z
      .object({
        band: z.enum(["improved", "non_inferior", "regressed", "inconclusive"]),
        delta: z.number().nullable(),
        ci: z.object({ low: z.number(), high: z.number(), level: z.number() }).nullable(),
      })
      .loose(),
  })
  .loose();

async function readLook(outDir: string): Promise<z.infer<typeof LookReadSchema>> {
  const file = path.join(outDir, "comparison.json");
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, "utf8"));
  } catch {
    throw new InputError(
      `--until-decided: ${outDir} has no comparison after this round: it needs two treatments with runs to compare`,
      { file, field: "--until-decided" },
    );
  }
  return LookReadSchema.parse(json);
}

/** The first round's size: --count, else a quarter of --max-count (at least 1). */
function firstRound(count: number | undefined, maxCount: number): number {
  return Math.min(maxCount, count ?? Math.max(1, Math.ceil(maxCount / 4)));
}

/** Run in rounds until the band is decided (or --max-count, or an interruption). */
export async function runUntilDecided(
  opts: RunOptions,
  seq: UntilDecidedOptions,
  run: (o: RunOptions) => Promise<RunSummary> = runSuite,
): Promise<RunSummary & { sequential: Sequential }> {
  const max = seq.maxCount;
  // Each round plans up to max repetitions of every task × treatment: bounded as a plan is.
  if (max > MAX_PLANNED_RUNS)
    throw new InputError(
      `--max-count ${max}: more than the ${MAX_PLANNED_RUNS.toLocaleString("en-US")} runs one experiment may hold`,
      { field: "--max-count" },
    );
  const alpha = seq.alpha ?? 0.05;
  const spending = seq.spending ?? "obrien_fleming";
  const round = firstRound(opts.count, max);
  let state: Sequential | null =
    opts.resume && opts.out ? await readSequential(path.resolve(opts.cwd ?? ".", opts.out)) : null;
  // Resuming: the last look is taken again (its round may not have finished).
  const resumedLast = state?.looks.pop();
  let count = resumedLast?.count ?? round;
  let out = opts.out;
  let resume = opts.resume;
  for (;;) {
    const res = await run({ ...opts, count, out, resume });
    out = res.outDir;
    resume = true;
    state ??= {
      schema: SEQUENTIAL_SCHEMA,
      alpha,
      spending,
      margin: opts.margin ?? 0.05,
      max_count: max,
      round,
      looks: [],
      status: "running",
    };
    const previous = state.looks[state.looks.length - 1]?.fraction ?? 0;
    const fraction = Math.min(1, count / state.max_count);
    const spent = alphaSpent(fraction, state.alpha, state.spending);
    state.looks.push({
      count,
      fraction,
      alpha_spent: spent,
      alpha_look: Math.max(0, spent - alphaSpent(previous, state.alpha, state.spending)),
      band: null,
      delta: null,
      ci: null,
    });
    await writeSequential(res.outDir, state);
    await writeExperimentReports(res.outDir, { ks: opts.ks, html: false });
    const c = await readLook(res.outDir);
    const look = state.looks[state.looks.length - 1];
    if (look)
      Object.assign(look, { band: c.verdict.band, delta: c.verdict.delta, ci: c.verdict.ci });
    state.margin = c.settings.margin;
    // Plan ahead (docs/statistics.md §12): at the first look, can --max-count decide at this
    // number of tasks if the first round's rates hold? Said once, kept in sequential.json.
    if (state.looks.length === 1 && !state.plan) {
      const arm = (t: string): ArmCounts => ({
        n: c.task_outcomes.map((r) => r.cells[t]?.n ?? 0),
        c: c.task_outcomes.map((r) => r.cells[t]?.c ?? 0),
      });
      state.plan = planSequential({
        a: arm(c.roles.candidate),
        b: arm(c.roles.baseline),
        count,
        round: state.round,
        maxCount: state.max_count,
        alpha: state.alpha,
        spending: state.spending,
        margin: state.margin,
      });
      if (state.plan) opts.onProgress?.({ type: "note", message: state.plan.text });
    }
    const stops =
      c.verdict.ci !== null && sequentialStops(c.verdict.band, c.verdict.ci.high, state.margin);
    state.status =
      res.incomplete.length > 0 || opts.stopSignal?.aborted
        ? "stopped"
        : stops
          ? "decided"
          : count >= state.max_count
            ? "max_count"
            : "running";
    opts.onProgress?.({
      type: "note",
      message: `look ${state.looks.length}: ${count} of at most ${state.max_count} repetitions, band ${c.verdict.band} at level ${levelText(1 - (look?.alpha_look ?? 0))} — ${
        state.status === "running"
          ? `next round: ${Math.min(state.max_count, count + state.round)}`
          : state.status
      }`,
    });
    if (state.status !== "running") {
      await writeSequential(res.outDir, state);
      const { files, comparison, source } = await writeExperimentReportsOf(res.outDir, {
        ks: opts.ks,
        html: opts.html,
      });
      return { ...res, files, comparison, source, sequential: state };
    }
    await writeSequential(res.outDir, state);
    count = Math.min(state.max_count, count + state.round);
  }
}
