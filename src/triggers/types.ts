/**
 * Types of the trigger evaluation (docs/triggers.md): queries, probes, one probe's outcome and
 * the stored record of a probe. Stored records are parsed with these schemas, never cast.
 */
import { z } from "zod";

/** How a query asks for the Skill (optional; the generator labels its queries). */
export const QUERY_KINDS = ["explicit", "implicit", "contextual", "negative"] as const;

/** One query: a user prompt and whether the Skill under test should fire on it. */
export interface TriggerQuery {
  /** Stable id (`q01`, … or the file's own `id`): names the probe folders and the model run. */
  id: string;
  query: string;
  should_trigger: boolean;
  kind?: (typeof QUERY_KINDS)[number];
}

/** A description variant of the Skill under test (`--description-file`), or its own description. */
export interface DescriptionVariant {
  /** Short name used in probe ids and reports (`current`, or the file's base name). */
  name: string;
  description: string;
  /** The file it came from; null for the Skill's own description. */
  file: string | null;
}

/** One probe: a query asked once, under one description variant, in a fresh workspace. */
export interface ProbeSpec {
  /** `<variant>/<query id>/r<rep>`: unique, also the probe's folder under probes/. */
  probe_id: string;
  variant: string;
  query_id: string;
  rep: number;
}

/** Why a probe could not give an answer: never counted as "did not trigger". */
export const INVALID_REASONS = ["api_error", "timeout", "crash", "harness_error"] as const;
export type InvalidReason = (typeof INVALID_REASONS)[number];

/** How a decision was seen in the agent's stream. */
export const DECISION_VIA = ["skill_tool", "skill_files", "slash_command"] as const;

export const ProbeOutcomeSchema = z.discriminatedUnion("kind", [
  /** The Skill under test was chosen. */
  z.object({ kind: z.literal("target"), via: z.enum(DECISION_VIA) }),
  /** Another Skill (a neighbour, a decoy or one the agent ships with) was chosen. */
  z.object({ kind: z.literal("other"), skill: z.string(), via: z.enum(DECISION_VIA) }),
  /** No Skill was chosen: the first turn ended, or the turn budget ran out. */
  z.object({ kind: z.literal("none"), why: z.enum(["turn_ended", "turn_budget"]) }),
  /** No answer: an API error, a timeout, a crash of the agent or of skillbench. */
  z.object({ kind: z.literal("invalid"), reason: z.enum(INVALID_REASONS), detail: z.string() }),
]);
export type ProbeOutcome = z.infer<typeof ProbeOutcomeSchema>;

export const AttemptRecordSchema = z.object({
  attempt: z.number().int().min(1),
  outcome: ProbeOutcomeSchema,
  /** The driver's word for how the agent process ended (`completed`, `aborted` when stopped early, …). */
  agent_outcome: z.string(),
  /** The process was stopped as soon as the decision was known. */
  stopped_early: z.boolean(),
  duration_ms: z.number().min(0),
  detail: z.string(),
});
export type AttemptRecord = z.infer<typeof AttemptRecordSchema>;

/** `probes/<probe_id>/probe.json`: every attempt of one probe; the last one is its outcome. */
export const ProbeRecordSchema = z.object({
  schema: z.literal("skillbench.trigger-probe.v1"),
  probe_id: z.string(),
  variant: z.string(),
  query_id: z.string(),
  rep: z.number().int().min(1),
  attempts: z.array(AttemptRecordSchema).min(1),
  outcome: ProbeOutcomeSchema,
});
export type ProbeRecord = z.infer<typeof ProbeRecordSchema>;
