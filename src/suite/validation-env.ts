import type { SuiteConfig } from "./types.js";

/**
 * The variables a suite's `validation:` setting gives every validator (docs/manifest.md):
 * its `env`, and PYTHONPATH from `python_path` (the folders the sandbox shows read-only). Pure.
 */
export function validatorEnv(config: SuiteConfig): Record<string, string> {
  const v = config.validation;
  if (v === undefined) return {};
  return {
    ...v.env,
    ...(v.python_path.length > 0 ? { PYTHONPATH: v.python_path.join(":") } : {}),
  };
}
