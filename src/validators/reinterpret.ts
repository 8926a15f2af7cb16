import { z } from "zod";
import { artifactFailure } from "./check-artifacts.js";
import { normalizeValidatorResult } from "./normalize-result.js";
import type { ValidationReport } from "./types.js";

/** validation.json as stored (src/validators/types.ts ValidationReport). */
export const StoredValidationSchema = z.object({
  artifacts: z.array(
    z.object({
      path: z.string(),
      found: z.boolean(),
      matches: z.array(z.string()),
      problem: z.string().optional(),
    }),
  ),
  scripts: z.array(
    z.object({
      script: z.string(),
      status: z.enum(["ok", "crashed", "timeout", "no_json", "spawn_error"]),
      exit_code: z.number().nullable(),
      duration_ms: z.number(),
      stdout: z.string(),
      stderr: z.string(),
      raw_result: z.unknown(),
      passed: z.array(z.string()),
      failed: z.array(z.string()),
    }),
  ),
  passed: z.array(z.string()),
  failed: z.array(z.string()),
});

/**
 * Interpret stored validator output again (no validator runs): missing artifacts
 * fail as before; each script that returned JSON is normalised anew, so a change
 * to the normalisation rules reaches stored runs. Pure.
 */
export function reinterpretValidation(
  stored: z.infer<typeof StoredValidationSchema>,
): ValidationReport {
  const artifacts = stored.artifacts.map((a) => ({ ...a }));
  const missing = artifacts.filter((a) => !a.found).map(artifactFailure);
  if (missing.length > 0) return { artifacts, scripts: [], passed: [], failed: missing };
  const scripts = stored.scripts.map((s) => {
    if (s.status !== "ok") return { ...s };
    const r = normalizeValidatorResult(s.script, s.raw_result);
    return { ...s, passed: r.passed, failed: r.failed };
  });
  return {
    artifacts,
    scripts,
    passed: scripts.flatMap((s) => s.passed),
    failed: scripts.flatMap((s) => s.failed),
  };
}
