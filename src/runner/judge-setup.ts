import path from "node:path";
import { isActiveJudge, JudgeCache, resolveJudgeConfig, type JudgeConfig } from "../judge/index.js";
import { runBaseUrl } from "../model/index.js";
import type { RunKey } from "./context.js";

export interface JudgeFlags {
  judge?: boolean | undefined;
  judgeModel?: string | undefined;
  judgeBaseUrl?: string | undefined;
  judgeSamples?: number | undefined;
  judgeAgent?: string | undefined;
  /** `--judge pairwise` / `--judge rubric` */
  judgeMode?: "rubric" | "pairwise" | undefined;
}

export interface JudgeSetup {
  /** The judge settings for one run (per-run endpoint when the scripted model serves it). */
  judgeFor: (run: RunKey) => JudgeConfig;
  /**
   * Pairwise mode (docs/judge.md, "Pairwise"): the settings for a pair, by its candidate run;
   * `judgeFor` is then off (no per-run verdict). Null in the per-run rubric mode.
   */
  pairFor: ((run: RunKey) => JudgeConfig) | null;
  cache: JudgeCache | null;
  config: JudgeConfig;
}

/**
 * Resolve the judge once for an experiment. With a scripted model server and no
 * judge endpoint of the user's own, the scripted server plays the judge (role
 * `judge`), each run through its own base URL.
 */
export function setupJudge(opts: {
  flags: JudgeFlags;
  hostEnv: Record<string, string | undefined>;
  suiteSection: unknown;
  outDir: string;
  scriptedServerUrl: string | null;
  /** Whether the scripted model has a `role: judge` rule. */
  scriptHasJudge?: boolean;
  /** Identifies the scripted model for the judge cache (e.g. a hash of the script). */
  scriptId?: string;
}): JudgeSetup {
  const scripted =
    opts.scriptedServerUrl !== null &&
    !opts.hostEnv.BENCH_JUDGE_BASE_URL &&
    !opts.flags.judgeBaseUrl;
  const env = scripted
    ? {
        ...opts.hostEnv,
        BENCH_JUDGE_BASE_URL: opts.scriptedServerUrl ?? "",
        BENCH_JUDGE_API_KEY: "sk-skillbench-scripted",
      }
    : opts.hostEnv;
  const config = resolveJudgeConfig({
    env,
    cli: opts.flags,
    suite: opts.suiteSection,
    suiteFile: "skillbench.yaml",
  });
  // A scripted model with no judge rule would answer the judge with a subject's step: say so instead.
  if (scripted && isActiveJudge(config) && opts.scriptHasJudge === false) {
    const skipped: JudgeConfig = {
      enabled: true,
      skipped: "the model script has no `role: judge` rule to play the judge",
    };
    return { judgeFor: () => skipped, pairFor: null, cache: null, config: skipped };
  }
  const cache = config.enabled ? new JudgeCache(path.join(opts.outDir, "judge-cache")) : null;
  const url = opts.scriptedServerUrl;
  const judgeFor = (run: RunKey): JudgeConfig =>
    scripted && url && isActiveJudge(config)
      ? {
          ...config,
          baseUrl: runBaseUrl(url, { ...run, role: "judge" }),
          cacheEndpoint: `scripted-model:${opts.scriptId ?? ""}:${run.task}/${run.treatment}/${run.rep}`,
        }
      : config;
  if (isActiveJudge(config) && config.mode === "pairwise")
    return { judgeFor: () => ({ enabled: false }), pairFor: judgeFor, cache: null, config };
  return { judgeFor, pairFor: null, cache, config };
}

/** The judge part of the runs' fingerprint (src/plan/fingerprint.ts). */
export function judgeFingerprint(config: JudgeConfig): string {
  if (!config.enabled) return "off";
  if (!isActiveJudge(config)) return "skipped";
  const via =
    config.transport === "cli" ? `cli${config.agent ? ` (${config.agent})` : ""}` : "http";
  return `${config.model} via ${via}, ${config.samples} sample(s)${config.mode === "pairwise" ? ", pairwise" : ""}`;
}
