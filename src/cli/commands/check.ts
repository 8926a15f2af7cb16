import type { Command } from "commander";
import {
  checkTarget,
  DEFAULT_HEALTH_REPEATS,
  healthHeadline,
  problemLine,
  type SandboxChoice,
} from "../../index.js";
import { intArg, SANDBOX_HELP, sandboxArg } from "../args.js";
import { printWarning } from "./run.js";

/**
 * `skillbench check SUITE|SKILL_DIR`: each task's validators against its reference solution, the
 * untouched workspace and themselves (docs/health.md). Exit 0 sound, 1 unsound, 2 bad input.
 */
export function registerCheck(program: Command, ctx: { exitCode: number }): void {
  program
    .command("check")
    .description(
      "Check a suite's or a Skill's tasks without an agent: validators pass on the reference solution (solution/), fail on the untouched workspace, and agree with themselves (exit 0 sound, 1 unsound, 2 bad input)",
    )
    .argument("<target>", "a suite folder, or a Skill folder (compiled as `eval` does)")
    .option("--out <dir>", "where health.json and health.md go", ".skillbench/check")
    .option("--task <list>", "tasks to check (default: all)")
    .option(
      "--health-repeats <n>",
      `how many times the validators run on each workspace (default ${DEFAULT_HEALTH_REPEATS})`,
      intArg("--health-repeats"),
    )
    .option("--sandbox <kind>", SANDBOX_HELP, sandboxArg)
    .option("-j, --concurrency <n>", "tasks checked at once (default 2)", intArg("--concurrency"))
    .action(
      async (
        target: string,
        f: {
          out: string;
          task?: string;
          healthRepeats?: number;
          sandbox?: SandboxChoice;
          concurrency?: number;
        },
      ) => {
        const { report, files } = await checkTarget(target, {
          out: f.out,
          task: f.task,
          repeats: f.healthRepeats,
          sandbox: f.sandbox,
          concurrency: f.concurrency,
          onWarning: printWarning,
          onTask: (task, state) => {
            if (state === "start") process.stderr.write(`checking ${task}\n`);
          },
        });
        const lines = report.problems.map((p) => `  ${problemLine(p)}`);
        process.stdout.write(
          `${report.sound ? "SOUND" : "UNSOUND"}: ${healthHeadline(report)}\n${lines.join("\n")}${lines.length > 0 ? "\n" : ""}Wrote ${files.join(", ")}\n`,
        );
        ctx.exitCode = report.sound ? 0 : 1;
      },
    );
}
