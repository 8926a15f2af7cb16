/**
 * The content keys of an experiment's runs (docs/reuse.md): what every run shares in its key
 * (endpoint, judge, declared environment, suite profiles' files), read once, and the keyer the
 * runs' records are written with (`RunContext.runKey`) and `--reuse` compares with.
 */
import { readFile } from "node:fs/promises";
import type { RunKeyParts, RunKeyRecord } from "../core/run-key.js";
import type { ExperimentFingerprint } from "../plan/fingerprint.js";
import {
  environmentHash,
  plannedKeyParts,
  runKeyOf,
  treatmentContentHash,
  type ExperimentKeyParts,
} from "../plan/run-key.js";
import type { RunPlan } from "../plan/run-plan.js";
import type { Suite } from "../suite/index.js";
import { sha256 } from "../util/hash.js";

export interface RunKeyer {
  /** the key parts of a planned run, with the docker image it runs in (null: none or not known) */
  parts: (plan: RunPlan, image: string | null) => RunKeyParts;
  /** the key of a finished run */
  record: (plan: RunPlan, image: string | null) => RunKeyRecord;
}

export async function runKeyer(
  suite: Suite,
  fingerprint: ExperimentFingerprint & { judge: string },
  env: { declared: Record<string, string>; passNames: readonly string[] },
): Promise<RunKeyer> {
  const profileHashes: Record<string, string> = {};
  for (const p of suite.profiles)
    profileHashes[p.name] = `sha256:${sha256(await readFile(p.file))}`;
  const experiment: ExperimentKeyParts = {
    ...fingerprint,
    environment: environmentHash({ ...env, validation: suite.config.validation }),
    profileHashes,
  };
  const treatmentHashes = new Map(suite.treatments.map((t) => [t.name, treatmentContentHash(t)]));
  const taskHashes = new Map(suite.tasks.map((t) => [t.name, t.hash]));
  const parts = (plan: RunPlan, image: string | null): RunKeyParts =>
    plannedKeyParts(
      plan,
      {
        task: taskHashes.get(plan.task) ?? "",
        treatment: treatmentHashes.get(plan.treatment) ?? "",
      },
      experiment,
      image,
    );
  return { parts, record: (plan, image) => runKeyOf(parts(plan, image)) };
}
