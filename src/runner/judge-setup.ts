import path from "node:path";
import {
  isActiveJudge,
  JudgeCache,
  resolveJudgeConfig,
  type JudgeCliOptions,
  type JudgeConfig,
} from "../judge/index.js";
import { runBaseUrl } from "../model/index.js";
import { agentFamily, modelFamily } from "../core/model-family.js";
import { InputError } from "../core/errors.js";
import type { RunKey } from "./context.js";

export interface JudgeFlags extends JudgeCliOptions {
  /** `--judge-independent`: refuse a judge of the agents' own model family (exit 2) */
  judgeIndependent?: boolean | undefined;
}

/**
 * `--judge-independent` (docs/judge.md, "Independence"): an input error when the judge's model is
 * of the same known family as an agent's (its model, else its own vendor).
 */
export function refuseSameFamily(
  flags: JudgeFlags,
  config: JudgeConfig,
  agents: readonly { agent: string; model: string | null }[],
): void {
  if (!flags.judgeIndependent || !isActiveJudge(config)) return;
  const jf = modelFamily(config.model);
  const same = agents.find((a) => jf !== "unknown" && agentFamily(a.model, a.agent) === jf);
  if (same)
    throw new InputError(
      `--judge-independent: the judge model ${config.model} is of the ${jf} family, as is the agent ${same.agent}${same.model ? ` (model ${same.model})` : ""}; choose a judge of another family`,
      { field: "--judge-independent" },
    );
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
