/**
 * The run digest: the part of a run's report.json that the experiment-level reports read
 * (summary tables and per-run sections, the comparison, pass@k, calibration, thresholds,
 * JUnit, the HTML run table). It leaves out what only one run's own page shows: the rubric's
 * per-dimension reasons and checks (`rubric_lines` has them as text), the transcript's text
 * and file lists, the interaction's turns and the artifact paths. A run report is a
 * digest (every field a digest has, a report has with the same type), so code that takes
 * digests takes reports too. Why it exists: docs/ARCHITECTURE.md "The run index".
 */
import { z } from "zod";
import { RunReportSchema, type RunReport } from "./report.js";

const R = RunReportSchema.shape;

const RubricDigestSchema = R.rubric.unwrap().extend({
  dimensions: z.array(
    R.rubric.unwrap().shape.dimensions.element.pick({ name: true, weight: true, score: true }),
  ),
});

const EventsDigestSchema = R.events_summary.unwrap().omit({
  model_usage: true,
  files_created: true,
  files_modified: true,
  skill_files_touched: true,
  session_ids: true,
  final_response: true,
});

/** The interaction block without its turns (its counters, e.g. `nudges`, are kept). */
const InteractionDigestSchema = z
  .object({
    mode: z.enum(["none", "auto_user"]),
    max_turns: z.number().int(),
    actual_turns: z.number().int(),
    end_reason: z.string(),
  })
  .loose();

export const RunDigestSchema = RunReportSchema.omit({
  rubric: true,
  events_summary: true,
  interaction: true,
  artifacts: true,
}).extend({
  rubric: RubricDigestSchema.nullable(),
  events_summary: EventsDigestSchema.nullable(),
  interaction: InteractionDigestSchema.nullable(),
});
export type RunDigest = z.infer<typeof RunDigestSchema>;

/** The digest of a parsed report: its fields, the left-out ones dropped (no copy of the rest). */
export function digestOf(r: RunReport): RunDigest {
  const { artifacts: _artifacts, rubric, events_summary: es, interaction, ...rest } = r;
  let interactionDigest: RunDigest["interaction"] = null;
  if (interaction) {
    const { turns: _turns, ...counters } = interaction;
    interactionDigest = counters;
  }
  let eventsDigest: RunDigest["events_summary"] = null;
  if (es) {
    const {
      model_usage: _mu,
      files_created: _fc,
      files_modified: _fm,
      skill_files_touched: _sft,
      session_ids: _sid,
      final_response: _fr,
      ...kept
    } = es;
    eventsDigest = kept;
  }
  return {
    ...rest,
    rubric: rubric
      ? {
          ...rubric,
          dimensions: rubric.dimensions.map((d) => ({
            name: d.name,
            weight: d.weight,
            score: d.score,
          })),
        }
      : null,
    events_summary: eventsDigest,
    interaction: interactionDigest,
  };
}
