/**
 * What a judge calibration is a calibration OF (docs/judge.md, "Calibration"): the judge model,
 * a digest of the judge's prompt template and the rubric (profile, prompt kind, dimensions). A
 * calibration only vouches for a gate on runs judged by the same model, prompt and rubric: a new
 * prompt or another model is another instrument, whose agreement with people is unknown.
 *
 * The prompt digest is the sha256 of the prompt as the current code builds it with placeholders
 * for everything that differs per run (workspace, baseline, instruction, criteria text), so any
 * change to the template's words changes it. It is computed from the code, not stored per run:
 * run reports record a `prompt_hash` of the filled-in prompt, which differs in every run.
 */
import type { JudgeBlock } from "../../core/judge.js";
import { profileJudge } from "../../scoring/index.js";
import type { JudgeWorkspace } from "../../scoring/types.js";
import { sha256 } from "../../util/hash.js";
import { buildGenericPrompt, withAnswerFormat } from "../prompts.js";

export interface JudgeIdentity {
  model: string;
  prompt_kind: string;
  /** sha256 of the prompt template (placeholders for the per-run parts). */
  prompt_digest: string;
  rubric: { profile: string; dimensions: string[] };
  /** sha256 of the rubric's JSON. */
  rubric_digest: string;
}

/** A workspace in which every path exists and reads as a placeholder naming it. */
const placeholderWorkspace: JudgeWorkspace = {
  subdirs: (rel) => Promise.resolve(rel.split("/").includes("_") ? [] : ["_"]),
  files: (rel, ext) => Promise.resolve([`${rel}/_${ext}`]),
  readText: (rel) => Promise.resolve(`{${rel}}`),
};

/** The prompt template of a profile's judge (its own prompt, else the generic one) for these dimensions. */
async function promptTemplate(profile: string, dimensions: readonly string[]): Promise<string> {
  const own = profileJudge(profile);
  if (own !== null) {
    const made = await own.prompt(placeholderWorkspace);
    const text = "prompt" in made ? made.prompt : `(skipped: ${made.skipped})`;
    return withAnswerFormat(text, own.dimensions);
  }
  const custom = dimensions.filter((d) => /^custom_\d+$/.test(d)).length;
  return buildGenericPrompt({
    baseline: { passed: [], failed: [] },
    rubricCriteria: Array.from({ length: custom }, (_x, i) => `{criterion ${i}}`),
    workspaceDump: "{workspace}",
    instruction: "{instruction}",
  });
}

/** What is missing to name a judge identity; empty when nothing is. */
export type IdentityResult =
  { ok: true; identity: JudgeIdentity } | { ok: false; missing: string[] };

/**
 * The identity of the judge that judged these runs: its one model, prompt kind and profile, and
 * the dimensions it scored. Runs the judge did not score successfully are left out; runs judged
 * by different models, prompt kinds or profiles are not one instrument (missing: says which).
 */
export async function judgeIdentityOf(
  blocks: ReadonlyArray<JudgeBlock | null>,
): Promise<IdentityResult> {
  const judged = blocks.filter(
    (b): b is JudgeBlock => b !== null && b.status === "enabled_and_successful",
  );
  const missing: string[] = [];
  const one = (what: string, values: Array<string | null>): string | null => {
    const set = [...new Set(values.filter((v): v is string => v !== null))].sort();
    if (set.length === 1) return set[0] as string;
    missing.push(
      set.length === 0
        ? `${what} (no run was judged successfully)`
        : `one ${what} (the runs were judged with ${set.join(", ")})`,
    );
    return null;
  };
  const model = one(
    "judge model",
    judged.map((b) => b.model),
  );
  const kind = one(
    "prompt kind",
    judged.map((b) => b.prompt_kind),
  );
  const profile = one(
    "rubric profile",
    judged.map((b) => b.profile),
  );
  if (model === null || kind === null || profile === null) return { ok: false, missing };
  const dimensions = [...new Set(judged.flatMap((b) => b.dimensions.map((d) => d.name)))].sort();
  const rubric = { profile, dimensions };
  return {
    ok: true,
    identity: {
      model,
      prompt_kind: kind,
      prompt_digest: sha256(await promptTemplate(profile, dimensions)),
      rubric,
      rubric_digest: sha256(JSON.stringify(rubric)),
    },
  };
}
