import { randomBytes } from "node:crypto";
import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { InputError } from "../core/errors.js";
import { buildComparison, verdictLines, type Comparison } from "../report/comparison/index.js";
import { DEFAULT_MARGIN } from "../report/comparison/band.js";
import { readComparisonSource, type ComparisonSource } from "../report/comparison/write.js";
import type { RunOptions, RunSummary } from "../runner/run-suite.js";
import { readSequential } from "../report/sequential/io.js";
import { writeFileAtomic, writeJsonAtomic } from "../util/fs.js";
import { requireJudgeCalibration } from "../judge/calibration/require.js";
import { historySourceTarget } from "../history/results-folders.js";
import { judgeDimensionValue } from "../report/judge-status.js";
import {
  compileManifest,
  DEFAULT_TRIALS,
  profileOf,
  resolveSkillName,
  SKILL_TREATMENT,
  type CompiledSuite,
} from "./compile.js";
import {
  decideGates,
  judgeGates,
  parseGates,
  renderGatesMarkdown,
  type GateReport,
  type GateSpec,
} from "./gates.js";
import { findManifest, loadManifest, type LoadedManifest } from "./load.js";
import { resolveGeneratedTasks, type GeneratedTasks } from "./generate.js";
import { MANIFEST_KIND, type TaskEntry } from "./schema.js";

/**
 * `skillbench eval SKILL_DIR`: the Skill's manifest → a compiled suite inside the results
 * folder → the one run pipeline → the verdict and the quality gates. See docs/manifest.md.
 */

export type TaskSource =
  "authored" | "quick" | "generated (cached)" | "generated (edited by hand)" | "generated (new)";

export interface EvalOptions extends Omit<RunOptions, "suite"> {
  /** The Skill folder, or its manifest file. */
  skill: string;
  /** One smoke task instead of the manifest's tasks. */
  quick?: boolean | undefined;
  /** `--generate`: the agent writes tasks for a Skill whose manifest has none (generate.ts). */
  generate?: boolean | undefined;
  /** `--regenerate`: replace the frozen generated tasks. */
  regenerate?: boolean | undefined;
  /** Where generated tasks are frozen (default `<Skill>/.skillbench/generated`). */
  generatedCacheDir?: string | undefined;
  /** `--accept-edited`: run frozen generated tasks edited by hand (else refused, exit 2). */
  acceptEdited?: boolean | undefined;
  /** `--judge-calibration`: a calibration for `minJudge<Dimension>` gates besides the results folder's. */
  judgeCalibration?: string | undefined;
  /** `--judge-alpha-min`: wins over the manifest's `evaluation.judgeAlphaMin`. */
  judgeAlphaMin?: number | undefined;
  /**
   * Tasks for a Skill whose manifest has none; default: the frozen generated tasks, generated
   * first with `generate` (resolveGeneratedTasks).
   */
  resolveGenerated?:
    | ((
        m: LoadedManifest,
        ctx: { skillName: string; profile: string; outDir: string },
      ) => Promise<GeneratedTasks | null>)
    | undefined;
  /** Notes for the console (generation progress). */
  onNote?: ((message: string) => void) | undefined;
  /** The pipeline (default runSuite; the CLI passes its Ctrl-C aware wrapper). */
  run: (o: RunOptions) => Promise<RunSummary>;
}

export interface PreparedEval {
  loaded: LoadedManifest;
  /** false: the Skill has no manifest and one was synthesized (skill name and folder only). */
  manifestFound: boolean;
  outDir: string;
  compiled: CompiledSuite;
  taskSource: TaskSource;
  /** The frozen generated tasks in use (null: authored or quick tasks). */
  generated: GeneratedTasks | null;
  gates: GateSpec[];
}

export interface EvalSummary extends PreparedEval {
  run: RunSummary;
  gateReport: GateReport;
  comparison: Comparison | null;
  /** The verdict line(s) for the console. */
  verdict: string[];
  files: string[];
}

function stamp(): string {
  const d = new Date();
  const p = (n: number): string => String(n).padStart(2, "0");
  return `${d.getFullYear()}${p(d.getMonth() + 1)}${p(d.getDate())}-${p(d.getHours())}${p(d.getMinutes())}${p(d.getSeconds())}-${randomBytes(3).toString("hex")}`;
}

/** The Skill's manifest, or one synthesized from its folder (a SKILL.md is required). */
export async function loadOrSynthesize(
  target: string,
): Promise<{ loaded: LoadedManifest; found: boolean }> {
  const abs = path.resolve(target);
  const file = await findManifest(abs);
  if (file) return { loaded: await loadManifest(file), found: true };
  const isDir = await stat(abs).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (!isDir) throw new InputError(`${abs}: no such Skill folder`, { file: abs });
  const skillMd = await stat(path.join(abs, "SKILL.md")).catch(() => null);
  if (!skillMd)
    throw new InputError(
      `${abs}: not a Skill folder: no SKILL.md, and no eval.yaml or comet/eval.yaml`,
      { file: abs },
    );
  return {
    found: false,
    loaded: {
      file: path.join(abs, "eval.yaml"),
      skillDir: abs,
      manifest: {
        apiVersion: "comet.eval/v1alpha1",
        kind: MANIFEST_KIND,
        metadata: {},
        skill: {},
      },
      tasks: [],
    },
  };
}

/** `--quick`: one smoke task that any Skill can be asked to do. */
function quickTask(skillName: string): TaskEntry {
  return {
    name: "skill-smoke",
    prompt: `Use the ${skillName} Skill if it applies. Write a file SKILL_SMOKE.md that says in two or three sentences what the ${skillName} Skill is for and when you would use it.`,
    expect: { files: ["SKILL_SMOKE.md"], contains: { "SKILL_SMOKE.md": ["\\S"] } },
  };
}

/** Load, choose the tasks, compile into `<out>/suite`. Throws InputError before anything runs. */
export async function prepareEval(opts: Omit<EvalOptions, "run">): Promise<PreparedEval> {
  const cwd = opts.cwd ?? process.cwd();
  const { loaded, found } = await loadOrSynthesize(path.resolve(cwd, opts.skill));
  const ev = loaded.manifest.evaluation;
  const { gates, errors } = parseGates(ev?.qualityGates ?? {});
  if (errors.length > 0)
    throw new InputError(
      errors
        .map((e) => `${loaded.file}: evaluation.qualityGates.${e.key}: ${e.message}`)
        .join("\n"),
      { file: loaded.file, field: `evaluation.qualityGates.${errors[0]?.key ?? ""}` },
    );
  if ((ev?.recommendedTasks ?? []).length > 0 && loaded.tasks.length === 0)
    throw new InputError(
      `${loaded.file}: evaluation.recommendedTasks: skillbench bundles no tasks to recommend; write the tasks under evaluation.tasks (inline, or source: a task folder)`,
      { file: loaded.file, field: "evaluation.recommendedTasks" },
    );
  const outDir = path.resolve(cwd, opts.out ?? path.join(".skillbench", "runs", `eval-${stamp()}`));
  if (!opts.resume) {
    const existing = await readdir(path.join(outDir, "runs")).catch(() => [] as string[]);
    if (existing.length > 0)
      throw new InputError(
        `${outDir} already holds runs: pass --resume to complete it, or choose another --out`,
        { file: outDir, field: "--out" },
      );
  }
  let tasks: TaskEntry[] | undefined;
  let taskSource: TaskSource = "authored";
  let generated: GeneratedTasks | null = null;
  if (opts.quick) {
    tasks = [quickTask(await resolveSkillName(loaded))];
    taskSource = "quick";
  } else if (loaded.tasks.length === 0) {
    const ctx = {
      skillName: await resolveSkillName(loaded),
      profile: profileOf(loaded),
      outDir,
    };
    generated = opts.resolveGenerated
      ? await opts.resolveGenerated(loaded, ctx)
      : await resolveGeneratedTasks(loaded, ctx, { ...opts, cacheDir: opts.generatedCacheDir });
    if (!generated)
      throw new InputError(
        `${found ? loaded.file : loaded.skillDir}: no tasks to run: add evaluation.tasks to ${found ? "the manifest" : "an eval.yaml (skillbench init --skill DIR writes one)"}, pass --generate to have the agent write some (frozen for later evals), or --quick for one smoke task`,
        { file: loaded.file, field: "evaluation.tasks" },
      );
    tasks = generated.tasks;
    taskSource = !generated.cached
      ? "generated (new)"
      : generated.edited === null
        ? "generated (cached)"
        : "generated (edited by hand)";
  } else if (opts.generate || opts.regenerate)
    opts.onNote?.(
      `--generate: ${loaded.file} has ${loaded.tasks.length} task(s) of its own; they are used and nothing is generated`,
    );
  const compiled = await compileManifest(loaded, {
    outDir: path.join(outDir, "suite"),
    tasks,
    onWarning: (w) => opts.onNote?.(`warning: ${w.file}: ${w.message}`),
  });
  if (ev?.baselineTreatments && compiled.baselines.length > 0 && gates.length === 0) {
    // With a frozen baseline and no gates, "no regression against the baseline" decides.
    gates.push({ key: "noRegression (default with a baseline)", kind: "no_regression" });
  }
  return { loaded, manifestFound: found, outDir, compiled, taskSource, generated, gates };
}

/** The reading the run's reports were written from (read here only when it wrote none). */
async function experimentSource(res: RunSummary): Promise<ComparisonSource> {
  return res.source ?? (await readComparisonSource(res.outDir));
}

/**
 * The run's comparison (the one comparison_report.md was written from) when it is the one the
 * eval decides with: SKILL against `against` at the eval's margin. Its noise floor is left out,
 * as the eval's own comparison never showed one (it looks for no calibration beside the folder).
 */
function sameAsEval(
  c: Comparison | null | undefined,
  against: string,
  margin: number | undefined,
): Comparison | null {
  if (!c || c.roles.candidate !== SKILL_TREATMENT || c.roles.baseline !== against) return null;
  if (c.settings.margin !== (margin ?? DEFAULT_MARGIN)) return null;
  return { ...c, noise_floor: null };
}

/** Run a prepared eval and decide its gates. */
export async function runPreparedEval(p: PreparedEval, opts: EvalOptions): Promise<EvalSummary> {
  const trials = p.loaded.manifest.evaluation?.trials ?? DEFAULT_TRIALS;
  const {
    skill: _skill,
    quick: _q,
    generate: _gen,
    regenerate: _regen,
    generatedCacheDir: _cache,
    acceptEdited: _edited,
    judgeCalibration: _calibration,
    judgeAlphaMin: _alphaMin,
    resolveGenerated: _g,
    onNote: _n,
    run,
    ...runOpts
  } = opts;
  await writeFileAtomic(
    path.join(p.outDir, "eval.yaml"),
    p.manifestFound
      ? await readFile(p.loaded.file, "utf8")
      : "# no manifest: synthesized from the Skill folder\n",
  );
  const res = await run({
    ...runOpts,
    suite: p.compiled.dir,
    out: p.outDir,
    count: opts.count ?? trials,
    sandbox: opts.sandbox ?? "auto",
  });
  // The run's one reading of the folder (the one its reports were written from): its planned runs.
  const source = await experimentSource(res);
  const reports = source.reports;
  const ran = new Set(reports.map((r) => r.treatment));
  const baseline = p.compiled.baselines.find((b) => ran.has(b.name))?.name ?? null;
  let comparison: Comparison | null = null;
  if (ran.has(SKILL_TREATMENT) && ran.size >= 2) {
    const against = baseline ?? (ran.has("CONTROL") ? "CONTROL" : null);
    if (against)
      comparison =
        sameAsEval(res.comparison, against, opts.margin) ??
        // Roles or margin other than the eval's (stored `compare --candidate` roles, a margin
        // kept from an earlier run): the eval's own, from the same reading, as before.
        buildComparison({
          reports,
          metadata: source.metadata,
          candidate: SKILL_TREATMENT,
          baseline: against,
          ks: opts.ks,
          // `eval --until-decided`: the band at the last look's level, as comparison.json has it
          sequential: await readSequential(p.outDir),
          margin: opts.margin,
        });
  }
  const gateReport = decideGates(p.gates, {
    reports,
    candidate: SKILL_TREATMENT,
    baseline,
    comparison,
  });
  // A gate on a judge dimension is refused (exit 2) without a calibration of this judge; one the
  // judge left N/A on a run has already failed with its cause (fail closed): no calibration
  // could make it pass, so it is not refused for the want of one.
  await requireJudgeCalibration({
    demands: judgeGates(p.gates)
      .filter((g) => judgeDimensionValue(reports, SKILL_TREATMENT, g.dimension).value !== null)
      .map((g) => ({
        gate: `${p.loaded.file}: evaluation.qualityGates.${g.key}`,
        dimension: g.dimension,
        field: `evaluation.qualityGates.${g.key}`,
        file: p.loaded.file,
      })),
    blocks: reports.map((r) => r.judge),
    outDirs: [p.outDir],
    file: opts.judgeCalibration,
    alphaMin: opts.judgeAlphaMin ?? p.loaded.manifest.evaluation?.judgeAlphaMin,
    history: historySourceTarget(opts.history, p.outDir, opts.cwd ?? process.cwd()),
  });
  const verdict: string[] = [];
  if (comparison) {
    verdict.push(...verdictLines(comparison));
  } else
    verdict.push(`No comparison: ${SKILL_TREATMENT} and another treatment must both have runs.`);
  const gatesMd = renderGatesMarkdown(gateReport);
  const files = [path.join(p.outDir, "quality_gates.md"), path.join(p.outDir, "eval.json")];
  await writeFileAtomic(
    files[0] ?? "",
    `# Quality gates\n\n${gatesMd.replace(/^## Quality gates\n\n/, "")}`,
  );
  await writeJsonAtomic(files[1] ?? "", {
    schema: "skillbench.eval.v1",
    skill_dir: p.loaded.skillDir,
    manifest: p.manifestFound ? p.loaded.file : null,
    skill: p.compiled.skillName,
    profile: p.compiled.profile,
    task_source: p.taskSource,
    generated: p.generated
      ? {
          file: p.generated.file,
          record_file: p.generated.recordFile,
          key: p.generated.key,
          cached: p.generated.cached,
          edited_by_hand: p.generated.edited,
          record: p.generated.record,
        }
      : null,
    tasks: p.compiled.tasks,
    treatments: p.compiled.treatments,
    baselines: p.compiled.baselines.map((b) => ({ name: b.name, origin: b.origin })),
    candidate: SKILL_TREATMENT,
    compared_with: comparison?.roles.baseline ?? null,
    verdict: comparison?.verdict.kind ?? null,
    quality_gates: gateReport,
  });
  return { ...p, run: res, gateReport, comparison, verdict, files };
}
