/**
 * The manifest's `judge:` section as the compiled suite's skillbench.yaml carries it
 * (docs/manifest.md): `mode` (rubric | pairwise), `model`, `baseUrl` → `base_url` and `samples`,
 * read by the run as a suite's `judge:` section (judge/config.ts: the CLI's judge flags win over
 * it, it wins over BENCH_JUDGE_*). Pure.
 */
import YAML from "yaml";
import type { Manifest } from "./schema.js";

/** The compiled suite's skillbench.yaml text, or null when the manifest sets nothing of the judge. */
export function judgeConfigYaml(judge: Manifest["judge"], manifestFile: string): string | null {
  if (!judge) return null;
  const section = {
    ...(judge.mode !== undefined ? { mode: judge.mode } : {}),
    ...(judge.model !== undefined ? { model: judge.model } : {}),
    ...(judge.baseUrl !== undefined ? { base_url: judge.baseUrl } : {}),
    ...(judge.samples !== undefined ? { samples: judge.samples } : {}),
  };
  // A section with only `agent` (the original schema's) changes nothing, as before.
  if (Object.keys(section).length === 0) return null;
  return `# Compiled by skillbench eval from ${manifestFile}\n${YAML.stringify({ judge: section })}`;
}
