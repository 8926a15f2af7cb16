import type { AgentEnvRequest } from "./types.js";

const LOCALE = ["LANG", "LC_ALL", "LC_CTYPE", "TZ"];

/**
 * The environment every non-Claude agent starts from: built, never inherited. PATH, the locale,
 * a private HOME and TMPDIR, the `--pass-env` names; the driver adds its own state variables
 * and credential, and the declared variables (`--env`, the suite's `env:`) come last.
 */
export function baseAgentEnv(r: AgentEnvRequest): Record<string, string> {
  const env: Record<string, string> = {
    PATH: r.hostEnv.PATH ?? "/usr/local/bin:/usr/bin:/bin",
    HOME: r.dirs.home,
    TMPDIR: r.dirs.tmp,
  };
  for (const k of LOCALE) {
    const v = r.hostEnv[k];
    if (v !== undefined) env[k] = v;
  }
  for (const name of r.passEnv ?? []) {
    const v = r.hostEnv[name];
    if (v !== undefined) env[name] = v;
  }
  return env;
}

/** TOML basic string. */
export function tomlString(s: string): string {
  return JSON.stringify(s);
}
