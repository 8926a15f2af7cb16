import type { ActiveJudgeConfig } from './config.js';

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

const LOCALE = ['LANG', 'LC_ALL', 'LC_CTYPE', 'TZ'];
/** Not credentials: honoured so that tests and users can make the judge fail fast. */
const RETRY_VARS = ['CLAUDE_CODE_MAX_RETRIES', 'API_TIMEOUT_MS'];

/**
 * Used as ANTHROPIC_API_KEY when the judge has a base URL but no credential (an
 * endpoint that needs none, such as a local proxy): the CLI refuses to start
 * without some key. It is never a real secret.
 */
export const JUDGE_PLACEHOLDER_KEY = 'skillbench-judge-no-credential';

export function buildJudgeEnv(i: JudgeEnvInput): Record<string, string> {
  const env: Record<string, string> = {
    PATH: i.hostEnv.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: i.home,
    CLAUDE_CONFIG_DIR: i.configDir,
    CLAUDE_CODE_TMPDIR: i.tmpDir,
    TMPDIR: i.tmpDir,
    IS_SANDBOX: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    COMET_EVAL_AGENT_ROLE: 'judge',
    ANTHROPIC_MODEL: i.config.model,
  };
  for (const k of [...LOCALE, ...RETRY_VARS]) {
    const v = i.hostEnv[k];
    if (v !== undefined) env[k] = v;
  }
  if (i.config.baseUrl !== null) env.ANTHROPIC_BASE_URL = i.config.baseUrl;
  const cred = i.config.credential;
  if (cred?.kind === 'token') env.ANTHROPIC_AUTH_TOKEN = cred.value;
  else if (cred?.kind === 'api_key') env.ANTHROPIC_API_KEY = cred.value;
  else env.ANTHROPIC_API_KEY = JUDGE_PLACEHOLDER_KEY;
  return env;
}
