import type { Command } from "commander";
import { writeCiOutputs } from "../index.js";
import { collect } from "./args.js";
import { AGENT_NAMES, agentDriver } from "../agents/index.js";
import { InputError } from "../core/errors.js";

export interface CiFlags {
  html?: boolean;
  junit?: string;
  failUnder?: string[];
}

export function withCiOptions(cmd: Command, junit = true): Command {
  cmd
    .option("--html", "write summary.html and comparison_report.html (the default)")
    .option("--no-html", "no HTML reports");
  if (junit)
    cmd
      .option("--junit <file>", "write JUnit XML: one testcase per run")
      .option(
        "--fail-under <metric=min>",
        "exit 1 below a threshold, e.g. pass@1=0.8, weighted_score=0.7, WITH_SKILL:pass_rate=0.9 (repeatable)",
        collect,
      );
  return cmd;
}

/** JUnit, thresholds and the GitHub step summary; returns 1 when a threshold failed. */
export async function ciOutputs(dir: string, f: CiFlags): Promise<number> {
  const ci = await writeCiOutputs(dir, { junit: f.junit, failUnder: f.failUnder });
  for (const file of ci.files) process.stdout.write(`  ${file}\n`);
  if (ci.thresholds) {
    for (const fail of ci.thresholds.failures) process.stderr.write(`threshold failed: ${fail}\n`);
    process.stdout.write(`${ci.thresholds.line}\n`);
    return ci.thresholds.ok ? 0 : 1;
  }
  return 0;
}

export function judgeFlags(f: {
  judge?: boolean;
  judgeModel?: string;
  judgeBaseUrl?: string;
  judgeSamples?: number;
  judgeAgent?: string;
}) {
  if (f.judgeAgent !== undefined && agentDriver(f.judgeAgent) === null)
    throw new InputError(
      `--judge-agent ${f.judgeAgent}: unknown agent; use one of ${AGENT_NAMES.join(", ")}`,
      { field: "--judge-agent" },
    );
  return {
    judge: f.judge,
    judgeModel: f.judgeModel,
    judgeBaseUrl: f.judgeBaseUrl,
    judgeSamples: f.judgeSamples,
    judgeAgent: f.judgeAgent === undefined ? undefined : agentDriver(f.judgeAgent)?.name,
  };
}
