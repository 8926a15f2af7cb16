/**
 * What `runSuite` records of the whole plan and of its `--shard` slice in metadata.json
 * (plan/plan-record.ts, plan/shard.ts), and the `--resume` check that a shard folder is resumed
 * as the same shard.
 */
import { reportAgentName } from "../agents/index.js";
import { InputError } from "../core/errors.js";
import type { ExperimentFingerprint } from "../plan/fingerprint.js";
import { interactionText, interactionSettingsHash } from "../plan/fingerprint.js";
import type { RunSpec } from "../plan/matrix.js";
import { planRecord, type PlanArm, type PlanRecord } from "../plan/plan-record.js";
import { settleRun, type PlanSettings } from "../plan/run-plan.js";
import { shardText, type Shard } from "../plan/shard.js";
import { experimentPaths } from "../store/layout.js";
import { readExperimentMetadata, type ExperimentMetadata } from "../store/metadata.js";

/** Where an interaction setting came from, not what it is: not part of the plan. */
const NOT_SETTINGS = new Set(["mode_source", "max_turns_source", "decision_patterns_cli"]);

/**
 * The plan record of the whole plan (every shard's runs): one arm per task × treatment × agent ×
 * model, in plan order, each settled as its first repetition would be.
 */
export function wholePlanRecord(
  wholePlan: readonly RunSpec[],
  count: number,
  settings: PlanSettings,
  experiment: ExperimentFingerprint,
): PlanRecord {
  const arms: PlanArm[] = [];
  const seen = new Set<string>();
  for (const spec of wholePlan) {
    const key = `${spec.task}\0${spec.treatment}\0${spec.agent}\0${spec.model ?? ""}`;
    if (seen.has(key)) continue;
    seen.add(key);
    // The prompt's run id does not enter the record: a fixed one keeps this pure.
    const plan = settleRun(settings, spec, "plan-record");
    const interaction = Object.fromEntries(
      Object.entries(plan.interaction).filter(([k]) => !NOT_SETTINGS.has(k)),
    );
    arms.push({
      task: spec.task,
      treatment: spec.treatment,
      agent: spec.agent,
      settings: {
        agent: reportAgentName(spec.agent),
        model: plan.model ?? "CLI default",
        endpoint: experiment.endpoint,
        endpoint_at: experiment.endpoint_at,
        sandbox: plan.sandbox.kind,
        profile: plan.profile,
        judge: experiment.judge,
        interaction: interactionText(plan.interaction.mode, plan.interaction.max_turns),
        interaction_settings: interactionSettingsHash(interaction),
        timeout_sec: String(plan.timeout_sec),
        // By name: their content is in the suite's hash, which `merge` names apart.
        skills:
          plan.treatment_files.skills
            .map((s) => s.name)
            .sort()
            .join(", ") || "none",
      },
    });
  }
  return planRecord(arms, count, wholePlan.length);
}

/**
 * Record the plan in metadata.json (in place) and, for a shard, the shard and the whole plan's task
 * and treatment order (the reports list them in that order; a slice may start with another).
 */
export function recordPlan(
  metadata: ExperimentMetadata,
  record: PlanRecord,
  wholePlan: readonly RunSpec[],
  shard: Shard | undefined,
): void {
  metadata.plan = record;
  if (!shard) return;
  const first = <T>(xs: Iterable<T>): T[] => [...new Set(xs)];
  metadata.tasks = first([...wholePlan.map((r) => r.task), ...metadata.tasks]);
  metadata.treatments = first([...wholePlan.map((r) => r.treatment), ...metadata.treatments]);
  metadata.shard = shard;
}

/**
 * `--resume` of a folder another shard wrote, or of a whole experiment with `--shard`, would mix
 * slices: refused. Resuming a shard without `--shard` completes the whole plan, and is allowed.
 */
export async function checkShardResume(outDir: string, shard: Shard | undefined): Promise<void> {
  const file = experimentPaths(outDir).metadata;
  const prev = await readExperimentMetadata(file);
  if (!prev || !shard) return;
  const was = prev.shard;
  if (was && was.index === shard.index && was.count === shard.count) return;
  if (!was && prev.matrix.length === 0) return;
  throw new InputError(
    was
      ? `--resume --shard ${shardText(shard)}: ${outDir} holds shard ${shardText(was)}: resume it with --shard ${shardText(was)} (or without --shard to complete the whole plan)`
      : `--resume --shard ${shardText(shard)}: ${outDir} holds a whole experiment, not a shard: resume it without --shard`,
    { file, field: "--shard" },
  );
}
