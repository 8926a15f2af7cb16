import { z } from "zod";
import { StepsSchema, ToolsExpectSchema } from "../trajectory/schema.js";

/**
 * The eval manifest (`eval.yaml` or `comet/eval.yaml` in a Skill folder): what to
 * evaluate, on which tasks, against which baselines, and which quality gates decide the
 * exit code. The original harness's `comet.eval/v1alpha1` `SkillEvalManifest` reads
 * unchanged; skillbench adds a few fields (docs/manifest.md lists them). Keys may be
 * camelCase or snake_case: `normalizeKeys` (load.ts) turns snake_case into camelCase
 * before this schema sees them, so the schema below is written in camelCase only.
 * Every object is strict: an unknown key is an error that names it.
 */

export const MANIFEST_API_VERSIONS = ["comet.eval/v1alpha1", "skillbench.eval/v1"] as const;
export const MANIFEST_KIND = "SkillEvalManifest";

/** Task names: also folder names and part of run ids. */
const TASK_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
const TaskName = z.string().regex(TASK_NAME, "must match ^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$");
const StringList = z.array(z.string());
const HttpUrl = z.string().regex(/^https?:\/\/[^\s]+$/, "must be a valid absolute http(s) URL");

const InteractionSchema = z.strictObject({
  mode: z.enum(["none", "auto_user"]).optional(),
  maxTurns: z.number().int().min(1).optional(),
  simulatorPrompt: z.string().optional(),
  freshResumeMarker: z.string().optional(),
  decisionPatterns: StringList.optional(),
  decisionReply: z.string().optional(),
  decisionReplies: StringList.optional(),
  continuePrompt: z.string().optional(),
});
export type ManifestInteraction = z.infer<typeof InteractionSchema>;

const CommandSchema = z.strictObject({
  run: z.string().min(1),
  /** Seconds, 1..3600 (default 120). */
  timeout: z.number().int().min(1).max(3600).optional(),
});

const JsonExpectSchema = z.strictObject({
  file: z.string().min(1),
  /** `a.b[0].c` (a leading `$.` is allowed). */
  path: z.string(),
  equals: z.unknown(),
});

/** What a run must leave behind; compiled into one validator (src/manifest/expect-validator.ts). */
export const ExpectSchema = z
  .strictObject({
    /** Files (or globs) that must exist. */
    files: StringList.optional(),
    /** Files (or globs) that must not exist. */
    absent: StringList.optional(),
    /** file → regexes its text must match. */
    contains: z.record(z.string(), StringList).optional(),
    /** file → regexes its text must not match. */
    notContains: z.record(z.string(), StringList).optional(),
    json: z.array(JsonExpectSchema).optional(),
    commands: z.array(CommandSchema).optional(),
    /** true: the Skill under evaluation was invoked; false: it was not. */
    skillInvoked: z.boolean().optional(),
    /** Trajectory assertions over the tool calls (docs/trajectory.md); keys as written. */
    tools: ToolsExpectSchema.optional(),
  })
  .refine(
    (e) =>
      (e.files?.length ?? 0) +
        (e.absent?.length ?? 0) +
        Object.keys(e.contains ?? {}).length +
        Object.keys(e.notContains ?? {}).length +
        (e.json?.length ?? 0) +
        (e.commands?.length ?? 0) +
        (e.skillInvoked === undefined ? 0 : 1) +
        (e.tools === undefined ? 0 : 1) >
      0,
    {
      error:
        "expect needs at least one check (files, absent, contains, notContains, json, commands, skillInvoked or tools)",
    },
  );
export type Expect = z.infer<typeof ExpectSchema>;

/** A workspace fixture: a folder (relative to the manifest's Skill) or files written inline. */
const WorkspaceSchema = z.union([z.string().min(1), z.record(z.string(), z.string())]);

/**
 * A reference solution (docs/health.md): files written over the workspace, then shell commands
 * run in it (compiled into the task's solution/files/ and solution/solve.sh).
 */
const SolutionSchema = z
  .strictObject({
    files: z.record(z.string(), z.string()).optional(),
    commands: StringList.optional(),
  })
  .refine((s) => Object.keys(s.files ?? {}).length + (s.commands?.length ?? 0) > 0, {
    error: "solution needs files or commands",
  });

export const InlineTaskSchema = z.strictObject({
  name: TaskName,
  prompt: z.string().min(1),
  workspace: WorkspaceSchema.optional(),
  expect: ExpectSchema,
  solution: SolutionSchema.optional(),
  rubric: StringList.optional(),
  interaction: InteractionSchema.optional(),
  category: z.string().optional(),
  profile: z.string().optional(),
  timeoutSec: z.number().int().min(1).optional(),
  /** The Skill's expected steps on this task (docs/trajectory.md); replaces `evaluation.steps`. */
  steps: StepsSchema.optional(),
});
export type InlineTask = z.infer<typeof InlineTaskSchema>;

/** An authored task folder (task.toml + instruction.md) inside the Skill package. */
export const SourceTaskSchema = z.strictObject({
  source: z.string().min(1),
  name: TaskName.optional(),
});
type SourceTask = z.infer<typeof SourceTaskSchema>;

/** Either form; the loader picks the schema by the presence of `source` (clearer errors than a union). */
export type TaskEntry = SourceTask | InlineTask;

/**
 * An earlier version of the Skill, frozen: a folder (`path`), or the Skill's own folder
 * at a git ref (`git`). A bare string is a path, or `git:REF`.
 */
const BaselineSchema = z.union([
  z.string().min(1),
  z
    .strictObject({
      name: z
        .string()
        .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/)
        .optional(),
      path: z.string().min(1).optional(),
      git: z.string().min(1).optional(),
      description: z.string().optional(),
    })
    .refine((b) => (b.path === undefined) !== (b.git === undefined), {
      error: "a baseline needs exactly one of path or git",
    }),
]);
export type BaselineEntry = z.infer<typeof BaselineSchema>;

/**
 * Quality gates: `minPassRate`, `minWeightedScore`, `minChecksPassRate`, `minPassAtK` /
 * `minPassHatK` (K a number: `minPassAt1`, `minPassHat3`), `min<Dimension>` for a rubric
 * dimension (`minSkillInvocation`), and `noRegression`. Parsed in gates.ts, so that an
 * unknown gate name is reported with the list of known ones.
 */
const QualityGatesSchema = z.record(z.string(), z.union([z.number(), z.boolean()]));

const EvaluationSchema = z.strictObject({
  /** Each entry is parsed with SourceTaskSchema or InlineTaskSchema by the loader. */
  tasks: z.array(z.unknown()).optional(),
  recommendedTasks: StringList.optional(),
  baselineTreatments: z.array(BaselineSchema).optional(),
  qualityGates: QualityGatesSchema.optional(),
  /** The α a judge calibration must show for a `minJudge<Dimension>` gate (default 0.67; docs/judge.md). */
  judgeAlphaMin: z.number().min(0).max(1).optional(),
  requiredOutputSchemas: StringList.optional(),
  expectedEvidence: z.array(z.record(z.string(), z.unknown())).optional(),
  requiredSkills: StringList.optional(),
  expectedArtifacts: StringList.optional(),
  generatedNodeSkills: StringList.optional(),
  routeConformance: z
    .strictObject({ task: z.string().optional(), expectedNodeOrder: StringList.optional() })
    .optional(),
  /** Repetitions of each task × treatment (default 5). */
  trials: z.number().int().min(1).optional(),
  /** The Skill's expected steps on every inline task (docs/trajectory.md), scored as skill_adherence. */
  steps: StepsSchema.optional(),
});

export const ManifestSchema = z.strictObject({
  $schema: z.string().optional(),
  apiVersion: z.enum(MANIFEST_API_VERSIONS),
  kind: z.literal(MANIFEST_KIND),
  metadata: z.strictObject({
    name: z.string().optional(),
    description: z.string().optional(),
    draftHash: z
      .string()
      .regex(/^[0-9a-f]{64}$/, "must be 64 lowercase hex digits")
      .optional(),
    generationHash: z.string().optional(),
    generationFile: z.string().optional(),
  }),
  skill: z.strictObject({
    name: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/)
      .optional(),
    /** The Skill folder, relative to the manifest's folder (default: the Skill folder). */
    source: z.string().optional(),
    profile: z.string().optional(),
    /**
     * `key_files:` the Skill files (relative to its folder) that hold its real knowledge: the
     * comparison splits the lift by whether a run read them (docs/statistics.md §9).
     */
    keyFiles: StringList.optional(),
  }),
  evaluation: EvaluationSchema.optional(),
  interaction: InteractionSchema.optional(),
  execution: z
    .strictObject({
      agent: z.string().optional(),
      model: z.string().optional(),
      baseUrl: HttpUrl.optional(),
    })
    .optional(),
  /**
   * The judge, as skillbench.yaml's `judge:` section (compile.ts `judgeConfig`): `mode`, `model`,
   * `baseUrl` and `samples` turn it on; the CLI's judge flags win. `agent` is accepted from the
   * original schema and not used (`--judge-agent`).
   */
  judge: z
    .strictObject({
      agent: z.string().optional(),
      model: z.string().optional(),
      baseUrl: HttpUrl.optional(),
      mode: z.enum(["rubric", "pairwise"]).optional(),
      samples: z.number().int().min(1).max(20).optional(),
    })
    .optional(),
  reporting: z
    .strictObject({ suite: z.string().optional(), config: z.string().optional() })
    .optional(),
  /**
   * Trigger evaluation (which prompts should and should not load the Skill). Kept as
   * written (keys unchanged) for the triggers stage to parse with its own schema.
   */
  triggers: z.unknown().optional(),
});
export type Manifest = z.infer<typeof ManifestSchema>;

/** Keys whose values are data (file names, JSON values, a section parsed elsewhere), never renamed. */
export const OPAQUE_KEYS = new Set([
  "contains",
  "notContains",
  "workspace",
  "equals",
  "triggers",
  "qualityGates",
  // Trajectory sections (docs/trajectory.md): tool names and input fields are data.
  "tools",
  "steps",
]);
