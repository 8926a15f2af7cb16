import { z } from "zod";
import { StepsSchema } from "../trajectory/schema.js";
import { AgentHooksSchema } from "../core/hooks.js";

export const SANDBOX_CHOICES = ["local", "bwrap", "docker", "auto"] as const;
export const NETWORK_CHOICES = ["model-only", "host", "none"] as const;

/**
 * The loaded, normalised shape of a suite. snake_case fields mirror task.toml and
 * the treatment YAML files, so a spec can be compared with the file it came from.
 * Every spec is plain data (JSON-serialisable) and can be re-parsed with these
 * schemas when read back from a results folder.
 */

/** Task, treatment and skill names: safe as folder and file names. */
export const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
/** A model id as a treatment's `model:` or `--model` names it: one word, no comma. */
export const MODEL_ID = /^[^\s,]+$/;

export const NATIVE_TERMINALS = ["archive", "active", "active-blocked"] as const;
export const INTERACTION_MODES = ["none", "auto_user"] as const;

export const DEFAULT_CONTINUE_PROMPT = "Please continue with the next phase of the workflow.";
export const CONTROL_TREATMENT = "CONTROL";
export const CONTROL_DESCRIPTION = "No skills baseline";

/** `expected_artifacts` entry after normalisation: one or more workspace paths or globs. */
const ExpectedArtifactSchema = z.object({ paths: z.array(z.string()).min(1) });
export type ExpectedArtifact = z.infer<typeof ExpectedArtifactSchema>;

const HashSchema = z.string().regex(/^sha256:[0-9a-f]{64}$/);

export const TaskSpecSchema = z.object({
  /** Task identity: `[metadata].name`, else the folder name. */
  name: z.string().regex(NAME_PATTERN),
  /** Absolute path of the task folder. */
  dir: z.string(),
  /** The task folder as shown in messages (`tasks/x`; a single-task suite shows its folder name). */
  rel_dir: z.string(),
  metadata: z.object({
    name: z.string(),
    description: z.string(),
    difficulty: z.string(),
    category: z.string(),
    tags: z.array(z.string()),
    default_treatments: z.array(z.string()),
  }),
  template: z.object({ required: z.array(z.string()) }),
  environment: z.object({
    description: z.string(),
    dockerfile: z.string(),
    timeout_sec: z.number().positive(),
    cpus: z.number().positive().optional(),
    /** Docker-style size, e.g. "2g"; a bare number in task.toml is kept as bytes ("1048576"). */
    memory: z.string().optional(),
    pids: z.number().int().positive().optional(),
    /** The task's own --sandbox default (the command line wins). */
    sandbox: z.enum(SANDBOX_CHOICES).optional(),
    /** bwrap/docker network: only the model endpoint (default), the host's network, or none. */
    network: z.enum(NETWORK_CHOICES).optional(),
  }),
  validation: z.object({
    /** Paths relative to the task's validation/ folder; each exists there. */
    test_scripts: z.array(z.string()),
    /** Workspace-relative paths or globs; none escapes the workspace. */
    target_artifacts: z.array(z.string()),
    timeout: z.number().positive(),
  }),
  evaluation: z.object({
    /** `[evaluation].profile` exactly as written; null when absent or "". */
    profile: z.string().nullable(),
    /** Explicit profile, else the built-in that claims the task (`RubricProfile.claimsTask`), else `generic`. */
    inferred_profile: z.string(),
    required_skills: z.array(z.string()),
    expected_artifacts: z.array(ExpectedArtifactSchema),
    require_skill_invocation: z.boolean(),
    rubric_criteria: z.array(z.string()),
    native_terminal: z.enum(NATIVE_TERMINALS),
    /** Workspace-relative folder of the Skill package an authoring run produces. */
    skill_package_path: z.string().optional(),
    /** authoring-skill: the node ids the package's workflow route must list, in order. */
    route_conformance_expected_node_order: z.array(z.string()).optional(),
    /** authoring-skill: names of the node Skills expected beside the package. */
    generated_node_skills: z.array(z.string()).optional(),
    /** `[evaluation.steps]`: the Skill's expected steps, scored as skill_adherence (docs/trajectory.md). */
    steps: StepsSchema.optional(),
  }),
  interaction: z.object({
    mode: z.enum(INTERACTION_MODES),
    max_turns: z.number().int().positive(),
    mode_set: z.boolean().default(false),
    max_turns_set: z.boolean().default(false),
    simulator_prompt: z.string().nullable(),
    decision_patterns: z.array(z.string()),
    decision_reply: z.string().nullable(),
    decision_replies: z.array(z.string()),
    continue_prompt: z.string(),
    fresh_resume_marker: z.string().nullable(),
  }),
  setup: z.object({
    template_vars: z.record(z.string(), z.string()),
    /** Legacy `[[setup.data]]` handler entries, kept verbatim (nothing interprets them). */
    data: z.array(z.unknown()),
  }),
  /** Raw text of instruction.md (render it with renderInstruction). */
  instruction_template: z.string(),
  /** `sha256:<hex>` over task.toml, instruction.md and the environment/ validation/ data/ trees. */
  hash: HashSchema,
  environment_dir: z.string().nullable(),
  validation_dir: z.string().nullable(),
  data_dir: z.string().nullable(),
});
export type TaskSpec = z.infer<typeof TaskSpecSchema>;

const SkillSpecSchema = z.object({
  name: z.string().regex(NAME_PATTERN),
  source_type: z.enum(["path", "inline"]),
  /** Absolute folder that contains SKILL.md (path skills). */
  path: z.string().nullable(),
  /** SKILL.md text (inline skills). */
  content: z.string().nullable(),
  /** `sha256:<hex>` over sorted relpath + bytes of the folder, or over the inline content. */
  hash: HashSchema,
  /** `key_files:` Skill-relative files that hold its real knowledge (path Skills; absent: none). */
  key_files: z.array(z.string()).optional(),
});
export type SkillSpec = z.infer<typeof SkillSpecSchema>;

/** Native clarification modes a Native treatment can pin (docs/manifest.md, "Native treatments"). */
export const NATIVE_CLARIFICATION_MODES = ["sequential", "batch"] as const;
const NativeTreatmentSchema = z.object({
  clarification_mode: z.enum(NATIVE_CLARIFICATION_MODES).nullable(),
});
export type NativeTreatment = z.infer<typeof NativeTreatmentSchema>;

export const TreatmentSpecSchema = z.object({
  name: z.string().regex(NAME_PATTERN),
  description: z.string(),
  claude_md: z.string().nullable(),
  /** The agent(s) the treatment pins (`agent:`, docs/agents.md); absent: the `--agent` default. */
  agents: z.array(z.string()).optional(),
  /** The model(s) the treatment pins (`model:`, docs/agents.md); absent: the `--model` default. */
  models: z.array(z.string()).optional(),
  skills: z.array(SkillSpecSchema),
  /** Absolute path of the YAML file that defined it; null for the built-in CONTROL. */
  file: z.string().nullable(),
  /** Hints from the first skill entry; they override the task's values. */
  profile: z.string().optional(),
  required_skills: z.array(z.string()).optional(),
  require_skill_invocation: z.boolean().optional(),
  expected_artifacts: z.array(ExpectedArtifactSchema).optional(),
  route_conformance_expected_node_order: z.array(z.string()).optional(),
  generated_node_skills: z.array(z.string()).optional(),
  /** A Native treatment: its prompt gets the Native prefix (src/suite/prompt.ts). */
  native: NativeTreatmentSchema.optional(),
  /** Text put before every prompt of this treatment (after the Native prefix, if any). */
  prompt_prefix: z.string().optional(),
  /** Hooks installed in the agent's project settings (Claude Code's .claude/settings.json). */
  hooks: AgentHooksSchema.optional(),
});
export type TreatmentSpec = z.infer<typeof TreatmentSpecSchema>;

export const SuiteConfigSchema = z.object({
  count: z.number().int().positive().optional(),
  concurrency: z.number().int().positive().optional(),
  /** Absolute (resolved against the suite root). */
  out: z.string().optional(),
  profile: z.string().optional(),
  model: z.string().optional(),
  /** Comma list as for `--task` (a YAML list is joined with commas). */
  task: z.string().optional(),
  treatment: z.string().optional(),
  timeout_sec: z.number().positive().optional(),
  /** `--budget-usd`, `--budget-tokens`, `--max-run-usd` defaults (docs/budgets.md). */
  budget_usd: z.number().positive().optional(),
  budget_tokens: z.number().int().positive().optional(),
  max_run_usd: z.number().positive().optional(),
  sandbox: z.enum(SANDBOX_CHOICES).optional(),
  /** Absolute (resolved against the suite root). */
  model_script: z.string().optional(),
  /** Set for the agent. */
  env: z.record(z.string(), z.string()),
  /** Host variable names passed through to the agent. */
  pass_env: z.array(z.string()),
  judge: z.unknown().optional(),
  /** `validation:` — what the validators get besides the workspace (docs/manifest.md). */
  validation: z
    .object({
      /** Absolute folders (resolved against the suite root), joined into the validators' PYTHONPATH. */
      python_path: z.array(z.string()),
      /** Set for the validators only (never for the agent). */
      env: z.record(z.string(), z.string()),
    })
    .optional(),
});
export type SuiteConfig = z.infer<typeof SuiteConfigSchema>;

export interface SuiteWarning {
  /** Path shown to the user, relative to the suite (e.g. `tasks/x/task.toml`). */
  file: string;
  /** e.g. `[validation].timout` or `WITH_SKILL.skills[0]`. */
  field?: string;
  /** Self-contained text (includes the field); print as `${file}: ${message}`. */
  message: string;
}

export interface Suite {
  root: string;
  tasks: TaskSpec[];
  treatments: TreatmentSpec[];
  profiles: { name: string; file: string }[];
  config: SuiteConfig;
  simulatorInstructionFile: string | null;
  /** `sha256:<hex>` over the suite's files and the hashes of every treatment skill. */
  hash: string;
  /** Every warning also passed to `onWarning`, in the same order. */
  warnings: SuiteWarning[];
}

export interface LoadSuiteOptions {
  onWarning?: (w: SuiteWarning) => void;
  /** The `--task` list: an incomplete task folder it names is an error instead of a skip. */
  taskFilter?: string | undefined;
}
