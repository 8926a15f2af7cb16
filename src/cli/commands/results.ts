import type { Command } from "commander";
import { InputError } from "../../core/errors.js";
import { SKILLBENCH_VERSION } from "../../core/version.js";
import { agentChoices } from "../agent-help.js";
import { intArg, marginArg, parseKs } from "../args.js";
import { judgeFlags, printCiResult, withCiOptions, type CiFlags } from "../ci.js";
import { addFlags, GATE_HISTORY_FLAGS } from "../flags.js";
import {
  reportTelemetry,
  telemetryFlags,
  withTelemetryOptions,
  type TelemetryFlags,
} from "../telemetry.js";

const note = (m: string): void => void process.stderr.write(`${m}\n`);

/** Registers its command(s) on the program; `ctx.exitCode` is the process's exit code. */
export function registerResults(program: Command, ctx: { exitCode: number }): void {
  const report = withCiOptions(
    program
      .command("report")
      .description(
        "Render the reports of a results folder again from its stored runs, without running anything.",
      )
      .argument("<dir>", "results folder")
      .option("--ks <list>", "k values for pass@k / pass^k", parseKs),
  );
  addFlags(report, GATE_HISTORY_FLAGS, false).action(
    async (dir: string, f: { ks?: number[]; history?: string | boolean } & CiFlags) => {
      // Loaded here, not at registration: only what this command runs (commands/index.ts).
      const { writeExperimentReportsOf } = await import("../../runner/finish.js");
      const { writeCiOutputsFrom } = await import("../../runner/ci-outputs.js");
      // One reading and one comparison for the reports and the CI outputs (runner/lifecycle.ts).
      const written = await writeExperimentReportsOf(dir, { ks: f.ks, html: f.html });
      process.stdout.write(`${written.files.join("\n")}\n`);
      ctx.exitCode = printCiResult(
        await writeCiOutputsFrom(dir, written, {
          junit: f.junit,
          failUnder: f.failUnder,
          judgeCalibration: f.judgeCalibration,
          judgeAlphaMin: f.judgeAlphaMin,
          history: f.history,
        }),
      );
    },
  );

  withCiOptions(program.command("compare"), false)
    .description(
      "Write comparison_report.md and comparison.json for a results folder, from its stored runs; with two folders, align their runs case by case and write aligned_comparison_report.md and .json (what drifted, and B vs A on the aligned cases).",
    )
    .argument("<dir>", "results folder (A, with a second folder)")
    .argument("[dir-b]", "a second results folder (B): compare the two experiments case by case")
    .option(
      "--candidate <treatment>",
      "the treatment under test (default: the first that is not CONTROL)",
    )
    .option(
      "--baseline <treatment>",
      "what it is compared with (default: the next one, else CONTROL)",
    )
    .option("--control <treatment>", "the no-skill context (default: CONTROL)")
    .option("--ks <list>", "k values for pass@k / pass^k", parseKs)
    .option(
      "--margin <x>",
      "non-inferiority margin on Δ pass rate for the verdict band (default: the run's, else 0.05)",
      marginArg,
    )
    .option(
      "--out <path>",
      "markdown file to write (default DIR/comparison_report.md; the JSON goes beside it); with two folders, the output folder (default .skillbench/compare/<A>-vs-<B>)",
    )
    .option(
      "--calibration <dir>",
      "an A/A calibration folder (`skillbench calibrate`) to show as the noise floor (default: one beside DIR that matches)",
    )
    .action(
      async (
        dir: string,
        dirB: string | undefined,
        f: {
          candidate?: string;
          baseline?: string;
          control?: string;
          ks?: number[];
          out?: string;
          html?: boolean;
          margin?: number;
          calibration?: string;
        },
      ) => {
        if (dirB !== undefined) {
          const given = (["candidate", "baseline", "control", "ks", "margin"] as const).filter(
            (k) => f[k] !== undefined,
          );
          if (given.length > 0)
            throw new InputError(
              `compare DIR_A DIR_B: --${given[0] ?? ""} applies to one folder's comparison only`,
              { field: `--${given[0] ?? ""}` },
            );
          const { writeAlignedComparison } = await import("../../report/aligned/index.js");
          const files = await writeAlignedComparison(dir, dirB, { out: f.out });
          process.stdout.write(`${files.join("\n")}\n`);
          return;
        }
        const { readComparisonSource, writeComparison, writeComparisonOf } =
          await import("../../report/comparison/index.js");
        const { writeHtmlReports } = await import("../../report/html/write.js");
        if (f.html === false || f.out !== undefined) {
          const files = await writeComparison(dir, f);
          if (f.html !== false) files.push(...(await writeHtmlReports(dir)));
          process.stdout.write(`${files.join("\n")}\n`);
          return;
        }
        // The folder is read once: the HTML shows the comparison just written.
        const source = await readComparisonSource(dir);
        const { files, comparison } = await writeComparisonOf(dir, source, f);
        const loaded = { ...source, comparison, hasComparisonFile: true };
        files.push(...(await writeHtmlReports(dir, { loaded })));
        process.stdout.write(`${files.join("\n")}\n`);
      },
    );

  withTelemetryOptions(withCiOptions(program.command("rescore")))
    .description(
      "Recompute validators' interpretation, rubric scores, sample quality, attribution and every report from stored runs, without running an agent.",
    )
    .argument("<dir>", "results folder")
    .option("--profile <name>", "score every run with this profile")
    .option("--ks <list>", "k values for pass@k / pass^k", parseKs)
    .option(
      "--judge [mode]",
      "judge every run again (answers are cached in DIR/judge-cache/); --judge pairwise judges the pairs again (cached too)",
    )
    .option("--no-judge", "keep the stored judge blocks, whatever the environment says")
    .option("--judge-model <id>", "the judge model (BENCH_JUDGE_MODEL)")
    .option("--judge-base-url <url>", "the judge endpoint (BENCH_JUDGE_BASE_URL)")
    .option(
      "--judge-agent <name>",
      `carry the judge through this agent's CLI: ${agentChoices(false)} (docs/judge.md)`,
    )
    .option("--judge-samples <n>", "ask the judge N times", intArg("--judge-samples"))
    .option("--model-script <file>", "serve the judge from this model script")
    .option(
      "-j, --concurrency <n>",
      "runs rescored at once, each on a thread of its own (default: one per CPU, up to 8, from 500 runs on; 1 when judging again)",
      intArg("--concurrency"),
    )
    .action(
      async (
        dir: string,
        f: {
          profile?: string;
          concurrency?: number;
          ks?: number[];
          judge?: boolean | string;
          judgeModel?: string;
          judgeBaseUrl?: string;
          judgeSamples?: number;
          judgeAgent?: string;
          modelScript?: string;
        } & CiFlags &
          TelemetryFlags,
      ) => {
        const { rescoreResults } = await import("../../runner/rescore.js");
        const { writeCiOutputsFrom } = await import("../../runner/ci-outputs.js");
        const { exportStoredResults } = await import("../../telemetry/session.js");
        const res = await rescoreResults(dir, {
          profile: f.profile,
          ks: f.ks,
          judgeFlags: judgeFlags(f),
          modelScript: f.modelScript,
          html: f.html,
          concurrency: f.concurrency,
        });
        process.stdout.write(
          `${res.reports.length} runs re-scored, ${res.changed.length} changed${res.threads > 1 ? ` (${res.threads} threads)` : ""}\n${res.files.map((x) => `  ${x}`).join("\n")}\n`,
        );
        // The CI outputs from the rescore's own reading and comparison (one of each).
        ctx.exitCode = printCiResult(
          await writeCiOutputsFrom(dir, res, {
            junit: f.junit,
            failUnder: f.failUnder,
            judgeCalibration: f.judgeCalibration,
            judgeAlphaMin: f.judgeAlphaMin,
          }),
        );
        const out = await exportStoredResults(dir, telemetryFlags(f), process.env, {
          note,
          skillbenchVersion: SKILLBENCH_VERSION,
        });
        if (out && reportTelemetry(out, f.exportRequired === true, note) && ctx.exitCode === 0)
          ctx.exitCode = 1;
      },
    );

  withTelemetryOptions(program.command("export"))
    .description(
      "Send a stored results folder to an OpenTelemetry endpoint, Langfuse or LangSmith, without running anything.",
    )
    .argument("<dir>", "results folder")
    .action(async (dir: string, f: TelemetryFlags) => {
      const { exportStoredResults } = await import("../../telemetry/session.js");
      const out = await exportStoredResults(dir, telemetryFlags(f), process.env, {
        note,
        skillbenchVersion: SKILLBENCH_VERSION,
      });
      if (!out) {
        process.stderr.write(
          "skillbench: error: export: name a target (--otel-endpoint, --langfuse or --langsmith)\n",
        );
        ctx.exitCode = 2;
        return;
      }
      // An export the user asked for by name is required: its failure is the command's.
      ctx.exitCode = reportTelemetry(out, true, (s) => process.stdout.write(s)) ? 1 : 0;
    });
}
