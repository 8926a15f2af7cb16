import { issuesText } from "../core/errors.js";
import { HealthSummarySchema } from "../core/health.js";
import { z } from "zod";
import { PlanRecordSchema } from "../plan/plan-record.js";
import { readJsonFile, writeJsonAtomic } from "../util/fs.js";

/** metadata.json's schema tag. */
export const METADATA_SCHEMA = "skillbench.experiment.v1";

const BaselineFromSchema = z.object({
  dir: z.string(),
  treatment: z.string(),
  runs: z.array(z.string()),
  drift: z.array(z.string()),
});

/**
 * What the experiment's runs were run with beyond each run's own record (src/plan/fingerprint.ts
 * `ExperimentFingerprint`): the model endpoint's kind and script or host, and the judge.
 */
const ExperimentFingerprintSchema = z.object({
  endpoint: z.enum(["scripted", "live"]),
  endpoint_at: z.string().nullable(),
  judge: z.string().nullable(),
});

/** `--shard I/N`: the slice of the plan a folder holds (plan/shard.ts). */
const ShardSchema = z.object({
  index: z.number().int().positive(),
  count: z.number().int().positive(),
});

/** `skillbench merge`: the folders a merged folder was made of (runner/merge.ts). */
const MergeSchema = z.object({
  from: z.array(
    z.object({
      dir: z.string(),
      experiment_id: z.string(),
      shard: ShardSchema.nullable(),
      runs: z.number().int(),
    }),
  ),
  /** suite hashes and agent versions that differed, merged with --allow-drift */
  drift: z.array(z.string()),
});
/**
 * The budgets of the last invocation and what they left (docs/budgets.md): the experiment's
 * spend as metered (every recorded run's, earlier invocations' included) and the runs a budget
 * left unrun (they have no report: `--resume` runs them).
 */
export const BudgetRecordSchema = z.object({
  usd: z.number().nullable(),
  tokens: z.number().nullable(),
  max_run_usd: z.number().nullable(),
  spent_usd: z.number(),
  spent_tokens: z.number(),
  /** Why runs stopped starting; null when every run started. */
  refused: z.string().nullable(),
  unrun: z.array(z.string()),
  /** Runs a budget stopped (outcome `budget`). */
  stopped: z.array(z.string()),
  /**
   * The LLM judge's spend under the budget, apart from the runs' (absent: no judge call was
   * asked for): the experiment's, earlier invocations' (`--resume`) and every queue worker's
   * included: calls sent, calls refused, dollars, tokens, unpriced models.
   */
  judge: z
    .object({
      calls: z.number(),
      refused: z.number(),
      usd: z.number(),
      tokens: z.number(),
      unpriced: z.array(z.string()),
    })
    .optional(),
});
export type BudgetRecord = z.infer<typeof BudgetRecordSchema>;

const RolesSchema = z.object({
  candidate: z.string().optional(),
  baseline: z.string().optional(),
  control: z.string().optional(),
});

/**
 * metadata.json as `run` writes it: the experiment around its runs (written at the start of a
 * run, again at its end; `compare` adds the chosen roles). Every write is parsed with it.
 */
const ExperimentMetadataSchema = z
  .object({
    schema: z.literal(METADATA_SCHEMA),
    experiment_id: z.string(),
    started_at: z.string(),
    completed_at: z.string().nullable(),
    suite: z.object({ path: z.string(), hash: z.string() }),
    tasks: z.array(z.string()),
    treatments: z.array(z.string()),
    count: z.number().int(),
    concurrency: z.number().int(),
    /** The planned runs; reports outside it (left by an older plan) are not summarised. */
    matrix: z.array(
      z.object({
        run_id: z.string(),
        task: z.string(),
        treatment: z.string(),
        rep: z.number(),
        /** The run's agent (driver name); absent in folders written before runs had their own. */
        agent: z.string().optional(),
        /**
         * The run's model when it is not the experiment's `model` (a treatment's `model:` pin or
         * one of `--model a,b`'s others; plan/models.ts); absent: `model`.
         */
        model: z.string().nullable().optional(),
      }),
    ),
    /** What the last invocation asked for; the matrix may hold more on --resume. */
    last_invocation: z.object({
      asked: z.string(),
      runs: z.number().int(),
      kept_outside_request: z.number().int(),
    }),
    model: z.string().nullable(),
    profile: z.string().nullable(),
    margin: z.number().gt(0).lt(1).optional(),
    baseline_from: BaselineFromSchema.optional(),
    model_script: z.string().nullable(),
    fingerprint: ExperimentFingerprintSchema.optional(),
    /** The whole plan's fingerprint (plan/plan-record.ts): what `merge` checks folders by. */
    plan: PlanRecordSchema.optional(),
    /** `--shard I/N`: this folder holds that slice of the plan. */
    shard: ShardSchema.optional(),
    /** `skillbench merge`: what this folder was merged from. */
    merge: MergeSchema.optional(),
    versions: z.object({
      skillbench: z.string(),
      claude: z.string().nullable(),
      node: z.string(),
    }),
    agent: z.object({ name: z.string(), version: z.string().nullable() }),
    agent_bin: z.object({ path: z.string(), source: z.string() }),
    total_runs: z.number().int(),
    total_passed: z.number().int().nullable(),
    /** --decision-pattern: added to every task's decision_patterns. */
    decision_patterns: z.array(z.string()),
    comparison_roles: RolesSchema.optional(),
    budget: BudgetRecordSchema.optional(),
    /** The preflight's task health (docs/health.md): the verdict leaves its unsound tasks out. */
    health: HealthSummarySchema.optional(),
  })
  .loose();
export type ExperimentMetadata = z.infer<typeof ExperimentMetadataSchema>;

/**
 * metadata.json as `run` writes it (the schema every write is parsed with), for `merge`, which
 * writes a merged one from it; null when there is none or it does not parse.
 */
export async function readExperimentMetadata(file: string): Promise<ExperimentMetadata | null> {
  const parsed = parseExperimentMetadata(await readJsonFile(file).catch(() => null));
  return "data" in parsed ? parsed.data : null;
}

/** metadata.json's JSON parsed as `run` writes it, or what does not parse (field: message; …). */
export function parseExperimentMetadata(
  json: unknown,
): { data: ExperimentMetadata } | { problem: string } {
  const parsed = ExperimentMetadataSchema.safeParse(json);
  if (parsed.success) return { data: parsed.data };
  return { problem: issuesText(parsed.error) };
}

/** A planned run as read: its id (the reports read no more of it) and whatever else it holds. */
const PlannedRunSchema = z.object({ run_id: z.string() }).loose();
type PlannedRun = z.infer<typeof PlannedRunSchema>;

/** metadata.json as read: lenient, so that folders written by older versions still render. */
const MetadataSchema = z
  .object({
    schema: z.string(),
    experiment_id: z.string(),
    started_at: z.string().nullable(),
    completed_at: z.string().nullable(),
    suite: z.object({ path: z.string(), hash: z.string() }),
    treatments: z.array(z.string()),
    model: z.string().nullable(),
    versions: z.object({ skillbench: z.string(), claude: z.string().nullable() }).loose(),
    /**
     * The planned runs; reports outside it (left by an older plan) are not summarised. Each
     * record is checked by PlannedRunSchema and kept as read, not copied: a copy of a record per
     * run was, at 100,000 runs, the largest memory a report needed at once.
     */
    matrix: z
      .custom<PlannedRun[]>(
        (v) => Array.isArray(v) && v.every((r) => PlannedRunSchema.safeParse(r).success),
      )
      .optional(),
    /** `run --baseline-from`: where the frozen baseline came from and how it differs. */
    baseline_from: BaselineFromSchema.optional().catch(undefined),
    /** The endpoint and judge the runs were run with; absent in folders written before it was recorded. */
    fingerprint: ExperimentFingerprintSchema.optional().catch(undefined),
    /** The verdict's non-inferiority margin (`run --margin`), reused by report, compare and rescore. */
    margin: z.number().gt(0).lt(1).optional().catch(undefined),
    /** Treatment roles chosen with `compare --candidate/--baseline/--control`, reused by report and rescore. */
    comparison_roles: RolesSchema.optional(),
    /** The budgets and what they left unrun (absent: no budget was given). */
    budget: BudgetRecordSchema.optional().catch(undefined),
    /** The preflight's task health (docs/health.md); absent before it existed or with --preflight off. */
    health: HealthSummarySchema.optional().catch(undefined),
    /** What the last `--resume` asked for (run-suite.ts). */
    last_invocation: z
      .object({ asked: z.string(), kept_outside_request: z.number().optional() })
      .loose()
      .optional()
      .catch(undefined),
  })
  .loose();
export type Metadata = z.infer<typeof MetadataSchema>;

export async function readMetadata(file: string): Promise<Metadata | null> {
  const json = await readJsonFile(file).catch(() => null);
  const parsed = MetadataSchema.safeParse(json);
  return parsed.success ? parsed.data : null;
}

/** Write metadata.json atomically, parsed with its schema first. */
export async function writeMetadata(file: string, meta: ExperimentMetadata): Promise<void> {
  await writeJsonAtomic(file, ExperimentMetadataSchema.parse(meta));
}

/**
 * Record the treatment roles `compare` was asked for in an existing metadata.json (the rest
 * kept as it is); nothing when the file is missing or unreadable.
 */
export async function recordComparisonRoles(
  file: string,
  roles: z.infer<typeof RolesSchema>,
): Promise<void> {
  const raw = await readJsonFile(file).catch(() => null);
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return;
  await writeJsonAtomic(file, { ...raw, comparison_roles: RolesSchema.parse(roles) });
}

/**
 * What a folder's metadata.json says about whose results it holds: null when there is no
 * skillbench metadata.json (no file, not JSON, or no experiment_id); the suite's path and hash
 * when it records them.
 */
export async function readResultsOwner(
  file: string,
): Promise<{ suitePath: string | null; suiteHash: string | null } | null> {
  const json = await readJsonFile(file).catch(() => null);
  if (json === null || typeof json !== "object" || !("experiment_id" in json)) return null;
  const parsed = z
    .object({
      suite: z
        .object({
          path: z.string().optional().catch(undefined),
          hash: z.string().optional().catch(undefined),
        })
        .loose()
        .optional()
        .catch(undefined),
    })
    .loose()
    .safeParse(json);
  const suite = parsed.success ? parsed.data.suite : undefined;
  return { suitePath: suite?.path ?? null, suiteHash: suite?.hash ?? null };
}
