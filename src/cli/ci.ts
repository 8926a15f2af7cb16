import type { Command } from "commander";
import type { CiResult } from "../index.js";
import { addFlags, HTML_FLAGS, JUNIT_FLAGS } from "./flags.js";
import { agentNames, agentDriver } from "../agents/index.js";
import { InputError } from "../core/errors.js";

export interface CiFlags {
  html?: boolean;
  junit?: string;
  failUnder?: string[];
  judgeCalibration?: string;
  judgeAlphaMin?: number;
}

/** --html/--no-html and, with `junit`, --junit and --fail-under (cli/flags.ts), under "Options:". */
export function withCiOptions(cmd: Command, junit = true): Command {
  return addFlags(cmd, junit ? [...HTML_FLAGS, ...JUNIT_FLAGS] : HTML_FLAGS, false);
}

/** What the CI outputs wrote and the thresholds' result, printed; 1 when a threshold failed. */
export function printCiResult(ci: CiResult): number {
  for (const file of ci.files) process.stdout.write(`  ${file}\n`);
  if (ci.thresholds) {
    for (const fail of ci.thresholds.failures) process.stderr.write(`threshold failed: ${fail}\n`);
    process.stdout.write(`${ci.thresholds.line}\n`);
    return ci.thresholds.ok ? 0 : 1;
  }
  return 0;
}

function judgeModeOf(v: boolean | string | undefined): "rubric" | "pairwise" | undefined {
  if (v === "pairwise") return "pairwise";
  if (v === "rubric") return "rubric";
  return undefined;
}

export function judgeFlags(f: {
  judge?: boolean | string;
  judgeModel?: string;
  judgeBaseUrl?: string;
  judgeSamples?: number;
  judgeAgent?: string;
  judgeIndependent?: boolean;
}) {
  if (f.judgeAgent !== undefined && agentDriver(f.judgeAgent) === null)
    throw new InputError(
      `--judge-agent ${f.judgeAgent}: unknown agent; use one of ${agentNames().join(", ")}`,
      { field: "--judge-agent" },
    );
  // `--judge [mode]`: a bare --judge is true; --judge pairwise / rubric names the mode.
  if (typeof f.judge === "string" && f.judge !== "pairwise" && f.judge !== "rubric")
    throw new InputError(
      `--judge ${f.judge}: unknown judge mode; use --judge, --judge rubric or --judge pairwise (put the suite folder before --judge)`,
      { field: "--judge" },
    );
  return {
    judge: f.judge === undefined ? undefined : f.judge !== false,
    judgeMode: judgeModeOf(f.judge),
    judgeIndependent: f.judgeIndependent,
    judgeModel: f.judgeModel,
    judgeBaseUrl: f.judgeBaseUrl,
    judgeSamples: f.judgeSamples,
    judgeAgent: f.judgeAgent === undefined ? undefined : agentDriver(f.judgeAgent)?.name,
  };
}
