import { defaultAgent } from "../agents/registry.js";
import type { AgentEndpoint } from "../agents/types.js";
import type { ActiveJudgeConfig } from "./config.js";

/**
 * The judge CLI's environment is built, never inherited: nothing of the
 * subject's ANTHROPIC_* settings or credentials, nor any other host variable
 * beyond PATH, the locale and the retry knobs. The judge's own settings map onto
 * the variables the CLI reads. The CLI is the default agent's: its driver builds the environment
 * (for Claude Code it writes no file).
 */
export interface JudgeEnvInput {
  hostEnv: Record<string, string | undefined>;
  config: ActiveJudgeConfig;
  home: string;
  configDir: string;
  tmpDir: string;
}

/**
 * Used as ANTHROPIC_API_KEY when the judge has a base URL but no credential (an
 * endpoint that needs none, such as a local proxy): the CLI refuses to start
 * without some key. It is never a real secret.
 */
export const JUDGE_PLACEHOLDER_KEY = "skillbench-judge-no-credential";

/** The judge's own endpoint and credential (never the subject's), for any agent it runs through. */
export function judgeEndpoint(config: ActiveJudgeConfig): AgentEndpoint {
  const cred = config.credential;
  return {
    baseUrl: config.baseUrl ?? undefined,
    authToken: cred?.kind === "token" ? cred.value : undefined,
    apiKey: cred?.kind === "api_key" ? cred.value : cred ? undefined : JUDGE_PLACEHOLDER_KEY,
  };
}

export async function buildJudgeEnv(i: JudgeEnvInput): Promise<Record<string, string>> {
  const agent = defaultAgent();
  // The same built environment as any agent of skillbench's (the driver's `prepare`), with the
  // judge's endpoint and credential, and no declared variable of the subject's. The retry knobs
  // are not credentials: honoured so that tests and users can make the judge fail fast.
  const { env } = await agent.prepare({
    hostEnv: i.hostEnv,
    dirs: { home: i.home, config: i.configDir, tmp: i.tmpDir },
    endpoint: judgeEndpoint(i.config),
    model: i.config.model,
    passEnv: [...agent.retryKnobs],
  });
  return { ...env, COMET_EVAL_AGENT_ROLE: "judge" };
}
