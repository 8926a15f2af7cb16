/**
 * The run digest: the part of a run's report.json that the experiment-level reports read
 * (summary tables and per-run sections, the comparison, pass@k, calibration, thresholds,
 * JUnit, the HTML run table). It leaves out what only one run's own page shows: the rubric's
 * per-dimension reasons and checks (`rubric_lines` has them as text), the transcript's text
 * and file lists, the interaction's turns and per-run texts (session ids, matched patterns), the
 * sandbox's network policy and protection lists (only kind, reason and limits are kept) and the
 * artifact paths. What differs in every run costs memory in every digest and a value of its own
 * in the run index, so a digest keeps no more of it than the experiment reports read. A run report is a
 * digest (every field a digest has, a report has with the same type), so code that takes
 * digests takes reports too. The digests read from a results folder are held packed
 * (store/packed-digests.ts: the same fields, read through getters). Why it exists:
 * docs/ARCHITECTURE.md "Run digests and the run index".
 */
import { z } from "zod";
import { RunReportSchema } from "./report.js";
import { SandboxRecordSchema } from "./sandbox.js";

const R = RunReportSchema.shape;

const RubricDigestSchema = R.rubric.unwrap().extend({
  dimensions: z.array(
    R.rubric.unwrap().shape.dimensions.element.pick({ name: true, weight: true, score: true }),
  ),
});

const ES = R.events_summary.unwrap().shape;
const EventsDigestSchema = R.events_summary
  .unwrap()
  .omit({
    duration_api_seconds: true,
    input_tokens: true,
    output_tokens: true,
    cache_read_input_tokens: true,
    cache_creation_input_tokens: true,
    commands_run: true,
    api_retries: true,
    peak_context_tokens: true,
    subagent_tool_calls: true,
    model_usage: true,
    files_created: true,
    files_modified: true,
    skill_files_touched: true,
    session_ids: true,
    final_response: true,
  })
  .extend({
    // The tokens by kind (summary.md's and the HTML's per-treatment and per-task tables).
    // Optional: digests written before they were kept (an index line, a test's digest) lack them.
    input_tokens: ES.input_tokens.optional(),
    output_tokens: ES.output_tokens.optional(),
    cache_read_input_tokens: ES.cache_read_input_tokens.optional(),
    cache_creation_input_tokens: ES.cache_creation_input_tokens.optional(),
  });

/**
 * The interaction block without its turns and its per-run texts (session ids, matched patterns,
 * the end's detail): its mode, turns, end reason and numeric counters (e.g. `nudges`), which the
 * per-run sections show (digestOf keeps only those; the schema lets a full report's block pass,
 * since a report is a digest). Session ids differ in every run: kept, they would make every run's block
 * a value of its own in memory and in the run index.
 */
const InteractionDigestSchema = z
  .object({
    mode: z.enum(["none", "auto_user"]),
    max_turns: z.number().int(),
    actual_turns: z.number().int(),
    end_reason: z.string(),
  })
  .loose();

/**
 * The sandbox record's kind, reason and limits (what the experiment reports say of isolation);
 * its network policy names each run's own model endpoint and stays in report.json, as do its
 * lists of what it protects (the run's page shows them).
 */
const SandboxDigestSchema = SandboxRecordSchema.pick({ kind: true, why: true, limits: true });

export const RunDigestSchema = RunReportSchema.omit({
  schema: true,
  run_uuid: true,
  timestamp: true,
  harness_error: true,
  exit_code: true,
  agent_outcome: true,
  rubric: true,
  events_summary: true,
  interaction: true,
  sandbox: true,
  artifacts: true,
  run_key: true,
}).extend({
  rubric: RubricDigestSchema.nullable(),
  events_summary: EventsDigestSchema.nullable(),
  interaction: InteractionDigestSchema.nullable(),
  sandbox: SandboxDigestSchema.nullable(),
});
export type RunDigest = z.infer<typeof RunDigestSchema>;

/**
 * report.json read for its digest (an unindexed reading, store/read.ts): the report's schema
 * version and the digest's fields, checked as strictly as RunReportSchema checks them; the
 * fields a digest leaves out are checked by the commands that read the run whole.
 */
export const ReportDigestSchema = RunDigestSchema.extend({ schema: R.schema });

/**
 * The digest of a parsed report (or of ReportDigestSchema's output, whose blocks may still hold
 * what a digest leaves out): its fields, the left-out ones dropped (the kept values are not copied).
 */
export function digestOf(r: RunDigest): RunDigest {
  const es = r.events_summary;
  let interaction: RunDigest["interaction"] = null;
  if (r.interaction) {
    const { mode, max_turns, actual_turns, end_reason } = r.interaction;
    const counters: Record<string, number> = {};
    for (const [k, v] of Object.entries(r.interaction))
      if (typeof v === "number" && k !== "max_turns" && k !== "actual_turns") counters[k] = v;
    interaction = { mode, max_turns, actual_turns, end_reason, ...counters };
  }
  const sb = r.sandbox;
  return compactDigest({
    ...r,
    rubric: r.rubric
      ? {
          profile: r.rubric.profile,
          weighted_score: r.rubric.weighted_score,
          rubric_avg: r.rubric.rubric_avg,
          dimensions: r.rubric.dimensions.map((d) => ({
            name: d.name,
            weight: d.weight,
            score: d.score,
          })),
        }
      : null,
    events_summary: es
      ? {
          duration_seconds: es.duration_seconds,
          num_turns: es.num_turns,
          tool_calls: es.tool_calls,
          input_tokens: es.input_tokens,
          output_tokens: es.output_tokens,
          cache_read_input_tokens: es.cache_read_input_tokens,
          cache_creation_input_tokens: es.cache_creation_input_tokens,
          total_tokens: es.total_tokens,
          total_cost_usd: es.total_cost_usd,
          skills_invoked: es.skills_invoked,
          scripts_used: es.scripts_used,
          profile: es.profile,
        }
      : null,
    interaction,
    sandbox: sb ? { kind: sb.kind, why: sb.why, limits: sb.limits } : null,
  });
}

/**
 * The digest's fields, and only those, as one object literal in a fixed order: every digest built
 * here shares one object shape, which holds them in less memory than objects assembled field by
 * field (the run index does that), and a report passed here loses the fields a digest leaves out.
 * The field values are not copied.
 */
export function compactDigest(d: RunDigest): RunDigest {
  return {
    run_id: d.run_id,
    experiment_id: d.experiment_id,
    task: d.task,
    treatment: d.treatment,
    rep: d.rep,
    passed: d.passed,
    status: d.status,
    outcome: d.outcome,
    outcome_detail: d.outcome_detail,
    checks_passed: d.checks_passed,
    checks_failed: d.checks_failed,
    failures: d.failures,
    model_api: d.model_api,
    rubric: d.rubric,
    rubric_lines: d.rubric_lines,
    events_summary: d.events_summary,
    skill_sources: d.skill_sources,
    sample_quality: d.sample_quality,
    failure_attribution: d.failure_attribution,
    interaction: d.interaction,
    judge: d.judge,
    model: d.model,
    sandbox: d.sandbox,
    agent: d.agent,
    hashes: d.hashes,
    timing: d.timing,
    ...(d.queue ? { queue: d.queue } : {}),
    ...(d.reused_from === undefined ? {} : { reused_from: d.reused_from }),
    ...(d.arm_integrity ? { arm_integrity: d.arm_integrity } : {}),
    // Only under a budget; such a digest is held as a plain object (store/packed-digests.ts).
    ...(d.metered ? { metered: d.metered } : {}),
    ...(d.skill_usage ? { skill_usage: d.skill_usage } : {}),
  };
}
