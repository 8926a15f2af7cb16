/**
 * The subject agent's environment is built, never inherited: only PATH, the
 * locale, a private HOME/config/tmp, the model endpoint and credential, the
 * sandbox flag, and the variables the user declared.
 */
export interface AgentEnvInput {
  hostEnv: Record<string, string | undefined>;
  home: string;
  configDir: string;
  tmpDir: string;
  baseUrl?: string | undefined;
  apiKey?: string | undefined;
  authToken?: string | undefined;
  model?: string | undefined;
  /** `--env KEY=VALUE` and the suite's `env:` */
  declared?: Record<string, string>;
  /** `--pass-env NAME`: host variables passed through by name. */
  passEnv?: string[];
}

const LOCALE = ["LANG", "LC_ALL", "LC_CTYPE", "TZ"];

export function buildAgentEnv(i: AgentEnvInput): Record<string, string> {
  const env: Record<string, string> = {
    PATH: i.hostEnv.PATH ?? "/usr/local/bin:/usr/bin:/bin",
    HOME: i.home,
    CLAUDE_CONFIG_DIR: i.configDir,
    CLAUDE_CODE_TMPDIR: i.tmpDir,
    TMPDIR: i.tmpDir,
    IS_SANDBOX: "1",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_TELEMETRY: "1",
    DISABLE_AUTOUPDATER: "1",
  };
  for (const k of LOCALE) {
    const v = i.hostEnv[k];
    if (v !== undefined) env[k] = v;
  }
  if (i.baseUrl) env.ANTHROPIC_BASE_URL = i.baseUrl;
  if (i.apiKey) env.ANTHROPIC_API_KEY = i.apiKey;
  if (i.authToken) env.ANTHROPIC_AUTH_TOKEN = i.authToken;
  if (i.model) env.ANTHROPIC_MODEL = i.model;
  for (const name of i.passEnv ?? []) {
    const v = i.hostEnv[name];
    if (v !== undefined) env[name] = v;
  }
  Object.assign(env, i.declared ?? {});
  return env;
}
