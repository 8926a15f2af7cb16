import { isRecord } from "../core/json.js";
import { SANDBOX_CHOICES } from "./types.js";
import path from "node:path";
import { describe, type FileCtx, Table } from "./fields.js";
import type { SuiteConfig } from "./types.js";

/**
 * skillbench.yaml -> SuiteConfig. Pure. All fields are optional defaults for the
 * run flags; paths (`out`, `model_script`) are resolved against the suite root.
 * `task` / `treatment` may be a comma string or a list (joined with commas).
 * `env` values may be strings, numbers or booleans (kept as text).
 */

export const CONFIG_FILE = "skillbench.yaml";

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Validator variables skillbench sets itself (docs/manifest.md). */
const RESERVED_VALIDATOR_ENV = ["PATH", "HOME", "LANG", "WORKSPACE"];

export function emptyConfig(): SuiteConfig {
  return { env: {}, pass_env: [] };
}

function nameList(t: Table, key: string): string | undefined {
  const v = t.raw(key);
  if (v === undefined) return undefined;
  if (typeof v === "string") return v;
  const list = t.stringList(key);
  return list?.join(",");
}

export function readSuiteConfig(raw: unknown, ctx: FileCtx, root: string): SuiteConfig {
  const config = emptyConfig();
  if (raw === undefined || raw === null) return config;
  if (!isRecord(raw)) {
    ctx.problems.error({
      file: ctx.file,
      message: `expected a mapping of settings, got ${describe(raw, "yaml")}`,
    });
    return config;
  }
  const t = new Table(ctx, [], raw);
  const count = t.number("count", { integer: true, positive: true });
  if (count !== undefined) config.count = count;
  const concurrency = t.number("concurrency", { integer: true, positive: true });
  if (concurrency !== undefined) config.concurrency = concurrency;
  const out = t.string("out");
  if (out !== undefined && out !== "") config.out = path.resolve(root, out);
  for (const key of ["profile", "model"] as const) {
    const v = t.string(key);
    if (v !== undefined && v !== "") config[key] = v;
  }
  const task = nameList(t, "task");
  if (task !== undefined && task !== "") config.task = task;
  const treatment = nameList(t, "treatment");
  if (treatment !== undefined && treatment !== "") config.treatment = treatment;
  const timeout = t.number("timeout_sec", { positive: true });
  if (timeout !== undefined) config.timeout_sec = timeout;
  // The budgets' defaults (docs/budgets.md); the flags win.
  for (const key of ["budget_usd", "max_run_usd"] as const) {
    const v = t.number(key, { positive: true });
    if (v !== undefined) config[key] = v;
  }
  const budgetTokens = t.number("budget_tokens", { integer: true, positive: true });
  if (budgetTokens !== undefined) config.budget_tokens = budgetTokens;
  const sandbox = t.raw("sandbox");
  if (sandbox !== undefined) {
    const kind = SANDBOX_CHOICES.find((k) => k === sandbox);
    if (kind === undefined)
      t.expected(
        t.field("sandbox"),
        SANDBOX_CHOICES.map((k) => JSON.stringify(k)).join(" or "),
        sandbox,
      );
    else config.sandbox = kind;
  }
  const script = t.string("model_script");
  if (script !== undefined && script !== "") config.model_script = path.resolve(root, script);

  const env = t.table("env");
  if (env) {
    for (const [k, v] of Object.entries(env.data)) {
      env.raw(k);
      if (!ENV_NAME.test(k)) env.error(env.field(k), "not a valid environment variable name");
      else if (typeof v === "string" || typeof v === "number" || typeof v === "boolean")
        config.env[k] = String(v);
      else env.expected(env.field(k), "a string", v);
    }
  }
  const pass = t.stringList("pass_env");
  if (pass) {
    pass.forEach((name, i) => {
      if (ENV_NAME.test(name)) config.pass_env.push(name);
      else
        t.error(
          t.field("pass_env", i),
          `${JSON.stringify(name)} is not a valid environment variable name`,
        );
    });
  }
  const validation = t.table("validation");
  if (validation) {
    const pythonPath = (validation.stringOrList("python_path") ?? [])
      .filter((p) => p !== "")
      .map((p) => path.resolve(root, p));
    const venv: Record<string, string> = {};
    for (const [k, v] of Object.entries(validation.stringMap("env") ?? {})) {
      if (!ENV_NAME.test(k))
        validation.error(validation.field("env", k), "not a valid environment variable name");
      else if (k === "PYTHONPATH")
        validation.error(
          validation.field("env", k),
          "set PYTHONPATH with validation.python_path (its folders are made visible in the sandbox)",
        );
      else if (RESERVED_VALIDATOR_ENV.includes(k))
        validation.error(validation.field("env", k), "is set by skillbench for every validator");
      else venv[k] = v;
    }
    validation.warnUnknown();
    config.validation = { python_path: pythonPath, env: venv };
  }
  const judge = t.raw("judge");
  if (judge !== undefined) config.judge = judge;
  t.warnUnknown();
  return config;
}
