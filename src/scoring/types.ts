import type { Evidence } from "../core/evidence.js";
import type { JudgeBlock } from "../core/judge.js";
import type { ToolVocabulary } from "../evidence/derive.js";
import type { Steps } from "../trajectory/schema.js";

/**
 * A read-only view of the run's workspace after the agent ran. Paths are workspace-relative,
 * POSIX separators. Implementations: `makeFsWorkspaceView` (fs-view.ts, does I/O) and
 * `makeMemoryWorkspaceView` (workspace-view.ts, pure, for tests).
 */
export interface WorkspaceView {
  /** The path exists (file or folder), or the glob (`*?[`, `**`) matches at least one file or folder. */
  exists(pathOrGlob: string): boolean;
  /** UTF-8 text; null when missing, unreadable, binary (contains NUL), larger than 1 MiB, or escaping the workspace. */
  read(rel: string): string | null;
  /** Every file's relative path (symlinks listed, never followed into), sorted. */
  list(): string[];
  /** The path itself is a symbolic link. */
  isSymlink(rel: string): boolean;
}

type InteractionMode = "none" | "auto_user" | "interactive";

interface RubricInteraction {
  mode: InteractionMode;
  max_turns: number;
  /** Subject turns actually run; null when unknown. */
  actual_turns: number | null;
  /** Decision points detected in the subject's turns (auto_user loop). */
  decision_points?: number;
  /** Replies taken from `decision_reply` / `decision_replies`. */
  deterministic_replies?: number;
  /** Replies written by the simulated user. */
  simulated_replies?: number;
}

interface RubricTask {
  required_skills: string[];
  expected_artifacts: { paths: string[] }[];
  require_skill_invocation: boolean;
  /** Workspace-relative folder of the Skill package an authoring run must produce. */
  skill_package_path?: string | null;
  route_conformance_expected_node_order?: string[] | null;
  /** Workspace-relative SKILL.md paths (or folders) of the node Skills, when not the default names. */
  generated_node_skills?: string[] | null;
  /** The Skill's declared steps (docs/trajectory.md); null: none declared. */
  skill_steps?: Steps | null;
}

/**
 * Everything a rubric may look at, as the runner passes it. Pure data plus lookups. The fields
 * marked optional were added for the built-in and declarative profiles;
 * `scoreRubric` fills them in (see `ScoringInput`), so older callers keep working.
 */
export interface RubricInput {
  evidence: Evidence;
  /** Real validator checks only (no [RUBRIC] lines). */
  baseline: { passed: string[]; failed: string[] };
  task: RubricTask;
  interaction: RubricInteraction;
  /** Treatment name (e.g. `CONTROL`); default "". */
  treatment?: string;
  /** The workspace after the run; default: a view that only knows `fileExists`. */
  workspace?: WorkspaceView;
  /** Does this workspace-relative path exist / does this glob match? Default: `workspace.exists`. */
  fileExists?: (relPathOrGlob: string) => boolean;
  /** What the run's agent's tools do (its driver's); default: none known (every call `other`). */
  tool_vocabulary?: ToolVocabulary;
}

/** What dimensions see: a `RubricInput` with every optional part filled in. */
export interface ScoringInput extends RubricInput {
  task: Required<RubricTask>;
  tool_vocabulary: ToolVocabulary;
  interaction: Required<RubricInteraction>;
  treatment: string;
  workspace: WorkspaceView;
  fileExists: (relPathOrGlob: string) => boolean;
  /** True when the runner passed reply counts (deterministic/simulated); false when they were defaulted to 0. */
  reply_counts_known: boolean;
}

/** One binary check behind a dimension's score. */
export interface RubricCheck {
  name: string;
  passed: boolean;
}

/** What a dimension's `evaluate` returns. */
export interface DimensionEvaluation {
  checks: RubricCheck[];
  reason: string;
  /** When set, the dimension does not apply (score null); this is the reason shown. */
  na?: string;
  /** Score in [0, 1] when it is not passed/total of `checks`. */
  score?: number;
  /**
   * The task does not configure this dimension at all (skill_adherence without declared steps):
   * it is left out of the result, not N/A, so that the rubric of a task that never asked for it
   * reads as it did before the dimension existed.
   */
  absent?: true;
}

export interface DimensionDef {
  name: string;
  weight: number;
  /** One line for documentation and reports. */
  description?: string;
  evaluate: (input: ScoringInput) => DimensionEvaluation;
}

export interface DimensionResult {
  name: string;
  weight: number;
  /** In [0, 1]; null = not applicable. */
  score: number | null;
  reason: string;
  checks: RubricCheck[];
}

/** Validator checks as pass/fail message lists. */
export interface CheckLists {
  passed: readonly string[];
  failed: readonly string[];
}

/** A profile's defaults for the `auto_user` loop (docs/interaction.md §1). */
export interface ProfileInteractionDefaults {
  mode: "none" | "auto_user";
  max_turns: number;
  /** The simulated user's instructions when nothing more specific is given. */
  simulator_prompt: string;
}

/**
 * A rubric profile: the one interface between the core and a profile (docs/rubrics.md,
 * docs/ARCHITECTURE.md "Extension points"). The built-ins live one per folder under
 * `src/scoring/profiles/<name>/` and are listed in `registry.ts`; suite profiles are built from
 * `profiles/*.toml` by `load-profile.ts`. Only `name`, `dimensions` and `emptyChecks` are
 * required; every hook has a default that is right for a profile that needs nothing special.
 */
export interface RubricProfile {
  /** The profile's id: `--profile`, `[evaluation] profile`, `report.json` `rubric.profile`. */
  name: string;
  description?: string;
  dimensions: DimensionDef[];
  /** Score and reason of a dimension that returns no checks and no explicit score or N/A. */
  emptyChecks: { score: number; reason: string };
  /** Failures that make the run fail (they are not rubric lines). */
  hardFailures?: (input: ScoringInput, dims: DimensionResult[]) => string[];
  /**
   * The validator checks that count for a run of this treatment (its pass/fail and report), and
   * those dropped. Default: every check counts.
   */
  checksForRun?: (
    treatment: string,
    baseline: CheckLists,
  ) => { passed: string[]; failed: string[]; dropped: string[] };
  /** Put, with a blank line, in front of the rendered instruction of every run (a contract). */
  promptPrefix?: string;
  /** Defaults of the `auto_user` loop; default: single-turn, 12 turns, the generic simulator. */
  interaction?: ProfileInteractionDefaults;
  /** The LLM judge's prompt for runs of this profile (docs/judge.md, Prompts); default: the generic one. */
  judge?: ProfileJudge;
  /**
   * Agent hooks its Skill asks for once a treatment installs it, in every run whatever the run's
   * profile (the original harness adds them by the Skill alone): `installed(rel)` tells whether a
   * workspace-relative path exists after the Skills are copied, `skillsDir` is where they are.
   */
  skillHooks?: (installed: (rel: string) => boolean, skillsDir: string) => SkillHooks | null;
  /**
   * Picks the profile for a task whose task.toml names none (docs/tasks.md), by its category and
   * name; the first built-in that claims a task takes it.
   */
  claimsTask?: (category: string, name: string) => boolean;
  /** task.toml's `[interaction].mode` of a task of this profile that sets none; default `none`. */
  taskInteractionMode?: "none" | "auto_user";
  /**
   * The Native treatment (docs/manifest.md, "Treatments"): its block in front of its runs' prompts,
   * whatever the run's profile; the first built-in that sets it defines it.
   */
  native?: NativeTreatmentHooks;
  /** Where a suite profile came from (absolute file); absent for built-ins. */
  source?: string;
}

/**
 * What a profile's judge may read of a run's workspace. The judge hands it in
 * (judge/workspace-reader.ts), so that a profile reads no disk of its own. Paths are
 * workspace-relative, POSIX separators.
 */
export interface JudgeWorkspace {
  /** Real sub-folders (never symlinks) of `rel`, sorted; none when it is missing. */
  subdirs(rel: string): Promise<string[]>;
  /** The files directly in `rel` whose names end with `ext`, as `<rel>/<name>`, sorted. */
  files(rel: string, ext: string): Promise<string[]>;
  /** The file's text when it is a text file inside the workspace (the judge's size cap); else null. */
  readText(rel: string): Promise<string | null>;
}

/** A profile's own LLM-judge prompt (docs/judge.md, Prompts). */
export interface ProfileJudge {
  /** The judge block's `prompt_kind`. */
  kind: NonNullable<JudgeBlock["prompt_kind"]>;
  /** The dimensions the judge scores, in this order. */
  dimensions: readonly string[];
  /** The prompt up to its answer format (the judge appends that), or why the run is not judged. */
  prompt(ws: JudgeWorkspace): Promise<{ prompt: string } | { skipped: string }>;
}

/** Agent hooks in Claude Code's settings shape (`hooks.<Event>[]`), as a treatment's `hooks:`. */
export type SkillHooks = Record<
  string,
  { matcher?: string; hooks: { type: "command"; command: string; timeout?: number }[] }[]
>;

/** What a Native treatment's run is told to leave behind (task.toml `[evaluation] native_terminal`). */
type NativeTerminal = "archive" | "active" | "active-blocked";

/** A Native treatment: one marked `native: true`, or one of the names in `treatments`. */
export interface NativeTreatmentHooks {
  /** Treatment names that are Native without saying so, with the clarification mode each pins. */
  treatments: Readonly<Record<string, { clarification_mode: "sequential" | "batch" | null }>>;
  /** The block put in front of a Native run's prompt. */
  prefix: (terminal: NativeTerminal, clarificationMode: "sequential" | "batch" | null) => string;
}

export interface RubricResult {
  profile: string;
  dimensions: DimensionResult[];
  /** Σ(score·weight)/Σ(weight) over applicable dimensions; 0 when none apply. */
  weighted_score: number;
  /** Plain mean of applicable dimension scores; null when none apply. */
  rubric_avg: number | null;
  /** `[RUBRIC] <dim>: <score> - <reason>` per dimension, then `[RUBRIC] weighted_score: <x>`. */
  rubric_lines: string[];
  hard_failures: string[];
}
