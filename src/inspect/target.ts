import { execFile } from "node:child_process";
import { mkdtemp, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { InputError } from "../core/errors.js";
import {
  compileManifest,
  DEFAULT_TRIALS,
  profileOf,
  resolveSkillName,
  SKILL_TREATMENT,
  type CompiledSuite,
} from "../manifest/compile.js";
import { resolveGeneratedTasks, type GenerateTasksOptions } from "../manifest/generate.js";
import { loadSuiteProfiles, resolveProfile } from "../scoring/index.js";
import { loadOrSynthesize } from "../manifest/eval.js";
import { findManifest } from "../manifest/load.js";
import type { GateSpec } from "../manifest/gates.js";
import { parseGates } from "../manifest/gates.js";
import { loadSuite, renderInstruction, type SuiteWarning } from "../suite/index.js";
import { validatorCommand } from "../validators/interpreter.js";
import { planSuite, type PlanOptions, type SuitePlan } from "./plan.js";
import { tempStem } from "../util/temp-names.js";

const run = promisify(execFile);

/**
 * `list` and `validate` take a suite folder or a Skill folder. A Skill folder (a manifest,
 * or a SKILL.md) is compiled as `eval` would compile it, into a temporary folder, and
 * planned with eval's defaults (5 trials or the manifest's, the best sandbox).
 */

export interface SkillInfo {
  skill: string;
  skill_dir: string;
  manifest: string | null;
  baselines: { name: string; origin: string }[];
  quality_gates: GateSpec[];
  /** false: the Skill has no tasks (eval --generate or --quick would supply them). */
  has_tasks: boolean;
  /** The frozen generated tasks planned (`eval --dry-run` of a Skill with none of its own). */
  generated_tasks?: string;
}

export interface TargetPlan extends SuitePlan {
  kind: "suite" | "skill";
  skill: SkillInfo | null;
}

/** A Skill folder (with a manifest or a SKILL.md) or a manifest file, rather than a suite. */
export async function isSkillFolder(abs: string): Promise<boolean> {
  if (await findManifest(abs)) {
    const s = await stat(abs).catch(() => null);
    // A manifest file, or a folder with one.
    return s !== null;
  }
  return (await stat(path.join(abs, "SKILL.md")).catch(() => null)) !== null;
}

/** Plan a suite or a Skill folder. The caller gets a compiled suite folder to inspect, then it is removed. */
export async function planTarget(
  target: string,
  opts: Omit<PlanOptions, "suite"> & {
    inspect?: (compiled: string, plan: SuitePlan, skill: SkillInfo | null) => Promise<void>;
    /**
     * `eval --dry-run`: a Skill with no tasks of its own is planned with its frozen generated
     * tasks, found as `eval` finds them (never generated here).
     */
    generated?: GenerateTasksOptions | undefined;
  },
): Promise<TargetPlan> {
  const abs = path.resolve(opts.cwd ?? process.cwd(), target);
  if (!(await stat(abs).catch(() => null)))
    throw new InputError(`${abs}: no such suite or Skill folder`, { file: abs });
  if (!(await isSkillFolder(abs))) {
    const plan = await planSuite({ ...opts, suite: abs });
    await opts.inspect?.(abs, plan, null);
    return { ...plan, kind: "suite", skill: null };
  }
  const { loaded, found } = await loadOrSynthesize(abs);
  const tmp = await mkdtemp(path.join(os.tmpdir(), tempStem("inspect", undefined, process.pid)));
  try {
    const generated =
      opts.generated && loaded.tasks.length === 0
        ? await resolveGeneratedTasks(
            loaded,
            { skillName: await resolveSkillName(loaded), profile: profileOf(loaded), outDir: tmp },
            { ...opts.generated, generate: false, regenerate: false },
          )
        : null;
    const compiled: CompiledSuite = await compileManifest(loaded, {
      outDir: path.join(tmp, "suite"),
      tasks: generated?.tasks,
      onWarning: opts.onWarning,
    });
    const skill: SkillInfo = {
      skill: compiled.skillName,
      skill_dir: loaded.skillDir,
      manifest: found ? loaded.file : null,
      baselines: compiled.baselines.map((b) => ({ name: b.name, origin: b.origin })),
      quality_gates: parseGates(loaded.manifest.evaluation?.qualityGates ?? {}).gates,
      has_tasks: compiled.tasks.length > 0,
      ...(generated ? { generated_tasks: generated.file } : {}),
    };
    if (compiled.tasks.length === 0)
      return {
        schema: "skillbench.plan.v1",
        suite: loaded.skillDir,
        tasks: [],
        treatments: compiled.treatments.map((name) => ({
          name,
          description: "",
          skills: [],
          profile: null,
        })),
        count: 0,
        concurrency: 1,
        model: null,
        model_script: null,
        runs: [],
        warnings: [],
        kind: "skill",
        skill,
      };
    const plan = await planSuite({
      ...opts,
      suite: compiled.dir,
      count: opts.count ?? loaded.manifest.evaluation?.trials ?? DEFAULT_TRIALS,
      sandbox: opts.sandbox ?? "auto",
    });
    await opts.inspect?.(compiled.dir, plan, skill);
    return { ...plan, suite: loaded.skillDir, kind: "skill", skill };
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

/** Can this validator start? Its interpreter exists and the file parses. Null when it can. */
export async function validatorProblem(file: string): Promise<string | null> {
  const cmd = validatorCommand(file, process.env.PATH);
  if ("error" in cmd) return cmd.error;
  const ext = path.extname(file).toLowerCase();
  const check: [string, string[]] | null =
    ext === ".py"
      ? [
          cmd.file,
          [
            "-c",
            "import ast,sys; ast.parse(open(sys.argv[1], encoding='utf-8').read(), sys.argv[1])",
            file,
          ],
        ]
      : ext === ".js" || ext === ".mjs" || ext === ".cjs"
        ? [process.execPath, ["--check", file]]
        : ext === ".sh"
          ? [cmd.file, ["-n", file]]
          : null;
  if (!check) return null;
  try {
    await run(check[0], check[1], { timeout: 30_000 });
    return null;
  } catch (e) {
    const err = e as { stderr?: string; message?: string };
    const lines = (err.stderr ?? err.message ?? "")
      .trim()
      .split("\n")
      .filter((l) => l.trim() !== "");
    return `does not parse: ${lines.slice(-3).join(" | ")}`;
  }
}

export interface ValidateResult {
  plan: TargetPlan;
  warnings: SuiteWarning[];
}

/**
 * Everything `run`/`eval` would refuse, found without running an agent: every file parses,
 * every validator exists and can start, every Skill and profile exists, every instruction
 * renders. Throws one InputError listing every problem.
 */
export async function validateTarget(
  target: string,
  opts: { cwd?: string; onWarning?: (w: SuiteWarning) => void } = {},
): Promise<ValidateResult> {
  const problems: string[] = [];
  let first: { file?: string; field?: string } = {};
  const plan = await planTarget(target, {
    ...opts,
    probe: false,
    inspect: async (dir, plan, skill) => {
      const suite = await loadSuite(dir);
      // A min<Dimension> gate must name a dimension of the profile the Skill's runs use.
      const profiles = await loadSuiteProfiles(suite.profiles);
      for (const g of skill?.quality_gates ?? []) {
        if (g.kind !== "dimension") continue;
        for (const name of new Set(
          plan.runs.filter((r) => r.treatment === SKILL_TREATMENT).map((r) => r.profile),
        )) {
          const dims = resolveProfile(name, profiles).dimensions.map((d) => d.name);
          if (!dims.includes(g.dimension)) {
            const field = `evaluation.qualityGates.${g.key}`;
            if (problems.length === 0) first = { file: skill?.manifest ?? undefined, field };
            problems.push(
              `${skill?.manifest ?? "eval.yaml"}: ${field}: profile ${name} has no dimension ${g.dimension} (it has: ${dims.join(", ")}; other gates: minPassRate, minWeightedScore, minChecksPassRate, minPassAt<K>, minPassHat<K>)`,
            );
          }
        }
      }
      for (const t of suite.tasks) {
        try {
          renderInstruction(t, { run_id: "00000000-0000-4000-8000-000000000000" });
        } catch (e) {
          problems.push(e instanceof Error ? e.message : String(e));
        }
        for (const s of t.validation.test_scripts) {
          const file = path.join(t.validation_dir ?? path.join(t.dir, "validation"), s);
          const why = await validatorProblem(file);
          if (why) {
            const shown = `${t.rel_dir}/validation/${s}`;
            if (problems.length === 0) first = { file: shown, field: "[validation].test_scripts" };
            problems.push(`${shown}: validator cannot start: ${why}`);
          }
        }
      }
    },
  });
  if (problems.length > 0)
    throw new InputError(
      problems.length === 1
        ? (problems[0] ?? "")
        : `${problems.length} problems\n  ${problems.join("\n  ")}`,
      first,
    );
  return { plan, warnings: plan.warnings };
}
