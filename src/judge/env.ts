import { buildAgentEnv } from "../agents/claude/env.js";
import type { ActiveJudgeConfig } from "./config.js";

/**
 * The judge CLI's environment is built, never inherited: nothing of the
 * subject's ANTHROPIC_* settings or credentials, nor any other host variable
 * beyond PATH, the locale and the retry knobs. The judge's own settings map onto
 * the variables the CLI reads. Pure.
 */
export interface JudgeEnvInput {
  hostEnv: Record<string, string | undefined>;
  config: ActiveJudgeConfig;
  home: string;
  configDir: string;
  tmpDir: string;
}

/** Not credentials: honoured so that tests and users can make the judge fail fast. */
const RETRY_VARS = ["CLAUDE_CODE_MAX_RETRIES", "API_TIMEOUT_MS"];

/**
 * Used as ANTHROPIC_API_KEY when the judge has a base URL but no credential (an
 * endpoint that needs none, such as a local proxy): the CLI refuses to start
 * without some key. It is never a real secret.
 */
export const JUDGE_PLACEHOLDER_KEY = "skillbench-judge-no-credential";

export function buildJudgeEnv(i: JudgeEnvInput): Record<string, string> {
  const cred = i.config.credential;
  // The same built environment as any agent of skillbench's (src/agents/claude/env.ts),
  // with the judge's endpoint and credential, and no declared variable of the subject's.
  return {
    ...buildAgentEnv({
      hostEnv: i.hostEnv,
      home: i.home,
      configDir: i.configDir,
      tmpDir: i.tmpDir,
      baseUrl: i.config.baseUrl ?? undefined,
      authToken: cred?.kind === "token" ? cred.value : undefined,
      apiKey: cred?.kind === "api_key" ? cred.value : cred ? undefined : JUDGE_PLACEHOLDER_KEY,
      model: i.config.model,
      passEnv: RETRY_VARS,
    }),
    COMET_EVAL_AGENT_ROLE: "judge",
  };
}
