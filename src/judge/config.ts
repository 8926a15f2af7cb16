import { z } from "zod";
import { InputError } from "../core/errors.js";
import type { JudgeTransportName } from "./types.js";

/**
 * Resolves whether and how the LLM judge runs. Pure: the environment, the CLI
 * flags and the suite's `judge` section come in as values.
 * Precedence: CLI > suite `judge` section > environment.
 */

const DEFAULT_JUDGE_MAX_TOKENS = 2048;
const DEFAULT_JUDGE_TIMEOUT_MS = 120_000;
const MAX_JUDGE_SAMPLES = 20;

export const MISSING_MODEL_REASON = "BENCH_JUDGE_MODEL is required when BENCH_LLM_JUDGE=1";
export const MISSING_CREDENTIAL_REASON =
  "BENCH_JUDGE_AUTH_TOKEN or BENCH_JUDGE_API_KEY is required when BENCH_JUDGE_BASE_URL is not set";

/** The suite config's `judge:` section (skillbench.yaml). Credentials never live in a file. */
const SuiteJudgeSectionSchema = z.strictObject({
  enabled: z.boolean().optional(),
  model: z.string().min(1).optional(),
  base_url: z.string().min(1).optional(),
  samples: z.number().int().min(1).max(MAX_JUDGE_SAMPLES).optional(),
  /** `pairwise`: candidate and baseline judged together, positions swapped (docs/judge.md). */
  mode: z.enum(["rubric", "pairwise"]).optional(),
});
type SuiteJudgeSection = z.infer<typeof SuiteJudgeSectionSchema>;

/** The judge's command-line flags (runner/judge-setup.ts's JudgeFlags adds `--judge-independent`). */
export interface JudgeCliOptions {
  judge?: boolean | undefined;
  judgeModel?: string | undefined;
  judgeBaseUrl?: string | undefined;
  judgeSamples?: number | undefined;
  /** `--judge-agent`: the judge goes through this agent's CLI (docs/judge.md). */
  judgeAgent?: string | undefined;
  /** `--judge pairwise` (or `rubric`): how the judge judges (docs/judge.md, "Pairwise"). */
  judgeMode?: "rubric" | "pairwise" | undefined;
}

export interface JudgeCredential {
  kind: "token" | "api_key";
  value: string;
}

export interface ActiveJudgeConfig {
  enabled: true;
  model: string;
  transport: JudgeTransportName;
  baseUrl: string | null;
  credential: JudgeCredential | null;
  samples: number;
  maxTokens: number;
  timeoutMs: number;
  /**
   * What identifies the endpoint in the answer cache, when the base URL does not (a scripted
   * model server gets a new port each time). Default: the base URL.
   */
  cacheEndpoint?: string | undefined;
  /**
   * `--judge-agent`: the agent whose CLI carries the judge (transport `cli`, even with a base URL
   * and a credential); absent: Claude Code when the transport is `cli`.
   */
  agent?: string | undefined;
  /**
   * `pairwise`: no per-run verdict; after the runs, each candidate and baseline pair is judged
   * together, twice, positions swapped (runner/pairwise-stage.ts). Absent: the per-run rubric judge.
   */
  mode?: "pairwise" | undefined;
}

export type JudgeConfig =
  { enabled: false } | { enabled: true; skipped: string } | ActiveJudgeConfig;

export function isActiveJudge(c: JudgeConfig): c is ActiveJudgeConfig {
  return c.enabled && !("skipped" in c);
}

const TRUTHY = new Set(["1", "true", "yes", "on"]);

function envFlagOn(value: string | undefined): boolean {
  return value !== undefined && TRUTHY.has(value.trim().toLowerCase());
}

function nonEmpty(v: string | undefined): string | undefined {
  return v !== undefined && v.trim() !== "" ? v.trim() : undefined;
}

/** Parse the suite's `judge` section (null/undefined: none). `true`/`false` are shorthands for `{enabled}`. */
function parseSuiteJudgeSection(raw: unknown, file = "skillbench.yaml"): SuiteJudgeSection | null {
  if (raw === undefined || raw === null) return null;
  if (typeof raw === "boolean") return { enabled: raw };
  const r = SuiteJudgeSectionSchema.safeParse(raw);
  if (!r.success) {
    const issue = r.error.issues[0];
    const where = ["judge", ...(issue?.path ?? []).map(String)].join(".");
    throw new InputError(`${file}: ${where}: ${issue?.message ?? "invalid judge section"}`, {
      file,
      field: where,
    });
  }
  return r.data;
}

export interface ResolveJudgeConfigInput {
  env: Record<string, string | undefined>;
  cli: JudgeCliOptions;
  /** The raw `judge` section of the suite config (unknown until parsed here). */
  suite?: unknown;
  /** Named in error messages. */
  suiteFile?: string;
}

export function resolveJudgeConfig(i: ResolveJudgeConfigInput): JudgeConfig {
  const section = parseSuiteJudgeSection(i.suite, i.suiteFile);
  const cliModel = nonEmpty(i.cli.judgeModel);
  const cliBase = nonEmpty(i.cli.judgeBaseUrl);
  let enabled: boolean;
  if (i.cli.judge !== undefined) enabled = i.cli.judge;
  else if (cliModel !== undefined || cliBase !== undefined) enabled = true;
  else if (section !== null) enabled = section.enabled ?? true;
  else enabled = envFlagOn(i.env.BENCH_LLM_JUDGE);
  if (!enabled) return { enabled: false };

  const samples = i.cli.judgeSamples ?? section?.samples ?? 1;
  if (!Number.isInteger(samples) || samples < 1 || samples > MAX_JUDGE_SAMPLES) {
    throw new InputError(
      `--judge-samples must be an integer from 1 to ${MAX_JUDGE_SAMPLES}, got ${String(samples)}`,
      {
        field: "--judge-samples",
      },
    );
  }
  const model = cliModel ?? section?.model ?? nonEmpty(i.env.BENCH_JUDGE_MODEL);
  if (model === undefined) return { enabled: true, skipped: MISSING_MODEL_REASON };
  const baseUrl = cliBase ?? section?.base_url ?? nonEmpty(i.env.BENCH_JUDGE_BASE_URL) ?? null;
  if (baseUrl !== null && !/^https?:\/\/[^\s]+$/i.test(baseUrl)) {
    throw new InputError(`judge base URL must be an http(s) URL, got ${JSON.stringify(baseUrl)}`, {
      field: "judge.base_url",
    });
  }
  const token = nonEmpty(i.env.BENCH_JUDGE_AUTH_TOKEN);
  const key = nonEmpty(i.env.BENCH_JUDGE_API_KEY);
  const credential: JudgeCredential | null =
    token !== undefined
      ? { kind: "token", value: token }
      : key !== undefined
        ? { kind: "api_key", value: key }
        : null;
  if (credential === null && baseUrl === null)
    return { enabled: true, skipped: MISSING_CREDENTIAL_REASON };
  const agent = nonEmpty(i.cli.judgeAgent);
  const mode = i.cli.judgeMode ?? section?.mode;
  return {
    enabled: true,
    ...(mode === "pairwise" ? { mode } : {}),
    model,
    transport: agent === undefined && baseUrl !== null && credential !== null ? "http" : "cli",
    ...(agent !== undefined ? { agent } : {}),
    baseUrl,
    credential,
    samples,
    maxTokens: DEFAULT_JUDGE_MAX_TOKENS,
    timeoutMs: DEFAULT_JUDGE_TIMEOUT_MS,
  };
}
