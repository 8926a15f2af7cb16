import { z } from "zod";
import type { DimensionDef, RubricCheck, RubricProfile, ScoringInput } from "../../types.js";

/**
 * Custom TOML profiles in the original harness's hard-check format (docs/rubrics.md; `[hard_checks]` + `[[rubric]]` proxy entries). Every rubric
 * entry is a proxy of the hard checks: max_score when all pass, the midpoint when at least half
 * pass, else min_score. Unlike the original (scores on the 0..max scale), a dimension's score is
 * normalised to raw/max_score so that it fits [0, 1] like every other rubric; all weights are 1,
 * so weighted_score is the plain mean of the normalised entries.
 */

const ExitCode = z.literal(0, {
  error: "must be 0 (the only exit code a passed completion check can confirm)",
});

export const HardCheckProfileSchema = z
  .object({
    name: z.string().min(1).optional(),
    description: z.string().optional(),
    hard_checks: z
      .object({
        target_artifacts: z.array(z.string().min(1)).optional(),
        check_public_less_exit_code: ExitCode.optional(),
        stylelint_exit_code: ExitCode.optional(),
        build_exit_code: ExitCode.optional(),
      })
      .strict()
      .optional(),
    rubric: z
      .array(
        z
          .object({
            name: z
              .string()
              .regex(
                /^[A-Za-z][A-Za-z0-9_.-]*$/,
                "must start with a letter and use only letters, digits, _ . -",
              ),
            description: z.string().optional(),
            min_score: z.number().min(0).default(0),
            max_score: z.number().positive().default(2),
          })
          .strict()
          .refine((r) => r.min_score <= r.max_score, {
            error: "min_score must not exceed max_score",
            path: ["min_score"],
          }),
      )
      .optional(),
    /** Interaction defaults for the runner (mode, max_turns, ...); not used by the rubric. */
    interaction: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();
export type HardCheckProfileSpec = z.infer<typeof HardCheckProfileSchema>;

const EXIT_CODE_ALIASES: Record<string, readonly string[]> = {
  check_public_less_exit_code: ["check-public-less", "public-less-checker"],
  stylelint_exit_code: ["stylelint"],
  build_exit_code: ["build"],
};

interface HardCheck {
  check: RubricCheck;
  message: string;
}

function runHardChecks(spec: HardCheckProfileSpec, input: ScoringInput): HardCheck[] {
  const hc = spec.hard_checks ?? {};
  const out: HardCheck[] = [];
  const missing = (hc.target_artifacts ?? []).filter((g) => !input.fileExists(g));
  out.push({
    check: { name: "[HARD] target_artifacts", passed: missing.length === 0 },
    message:
      missing.length === 0
        ? "[HARD] target_artifacts: passed"
        : `[HARD] target_artifacts: missing ${missing.join(", ")}`,
  });
  const passed = input.baseline.passed.map((m) => m.toLowerCase());
  const failed = input.baseline.failed.map((m) => m.toLowerCase());
  for (const key of [
    "check_public_less_exit_code",
    "stylelint_exit_code",
    "build_exit_code",
  ] as const) {
    if (hc[key] === undefined) continue;
    const aliases = EXIT_CODE_ALIASES[key] ?? [];
    const inFailed = failed.some((m) => aliases.some((a) => m.includes(a)));
    const inPassed = passed.some((m) => aliases.some((a) => m.includes(a)));
    const ok = inPassed && !inFailed;
    const message = ok
      ? `[HARD] ${key}: 0`
      : inFailed
        ? `[HARD] ${key}: expected 0, completion reported failure`
        : `[HARD] ${key}: no completion evidence`;
    out.push({ check: { name: `[HARD] ${key}`, passed: ok }, message });
  }
  return out;
}

/** Proxy score on the entry's own scale. */
export function proxyScore(passedCount: number, total: number, min: number, max: number): number {
  if (passedCount === total) return max;
  if (passedCount * 2 >= total) return (min + max) / 2;
  return min;
}

export function hardCheckProfile(
  spec: HardCheckProfileSpec,
  fallbackName: string,
  source?: string,
): RubricProfile {
  const memo = new WeakMap<ScoringInput, HardCheck[]>();
  const checksOf = (input: ScoringInput): HardCheck[] => {
    let r = memo.get(input);
    if (r === undefined) {
      r = runHardChecks(spec, input);
      memo.set(input, r);
    }
    return r;
  };
  const dimensions: DimensionDef[] = (spec.rubric ?? []).map((r) => ({
    name: r.name,
    weight: 1,
    description: r.description ?? `hard-check proxy on ${r.min_score}..${r.max_score}`,
    evaluate: (input) => {
      const hc = checksOf(input);
      const p = hc.filter((c) => c.check.passed).length;
      const raw = proxyScore(p, hc.length, r.min_score, r.max_score);
      return {
        checks: hc.map((c) => c.check),
        score: raw / r.max_score,
        reason: `hard-check proxy ${p}/${hc.length} passed; raw ${raw.toFixed(2)} of ${r.max_score.toFixed(2)}; no LLM score used`,
      };
    },
  }));
  return {
    name: spec.name ?? fallbackName,
    description: spec.description ?? "Custom hard-check profile (docs/rubrics.md)",
    emptyChecks: { score: 0, reason: "no checks" },
    dimensions,
    hardFailures: (input) =>
      checksOf(input)
        .filter((c) => !c.check.passed)
        .map((c) => c.message),
    ...(source !== undefined ? { source } : {}),
  };
}
