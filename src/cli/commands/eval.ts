import type { Command } from "commander";
import {
  GenerationError,
  holdResultsFolder,
  parseThresholds,
  planTarget,
  prepareEval,
  renderPlan,
  runPreparedEval,
  runSuite,
  runUntilDecided,
  runWithPilot,
  skillsUnder,
} from "../../index.js";
import {
  addFlags,
  EVAL_ONLY_FLAGS,
  RUN_FLAGS,
  SEQUENTIAL_FLAGS,
  type FlagValues,
} from "../flags.js";
import { runReported } from "../reporters.js";
import { planEstimateText } from "../estimate.js";
import { evalRoot } from "./eval-root.js";
import { dollars } from "../../util/format.js";
import {
  defaultProgress,
  printWarning,
  runOptionsFromFlags,
  runsPassedText,
  runWithSignals,
  sequentialFrom,
  verdictBlock,
  type RunFlags,
  type SequentialFlags,
} from "./run.js";

type EvalFlags = RunFlags & SequentialFlags & FlagValues<typeof EVAL_ONLY_FLAGS>;

/** `skillbench eval SKILL_DIR`: the Skill author's one command (docs/manifest.md). */
export function registerEval(program: Command, ctx: { exitCode: number }): void {
  addFlags(
    program
      .command("eval")
      .description(
        "Evaluate one Skill folder from its eval.yaml (or comet/eval.yaml): CONTROL, the Skill now and its frozen baselines; exit code from the quality gates. A folder of Skills is evaluated Skill by Skill (--changed-since REF: only those changed since a git ref).",
      )
      .argument(
        "<skill-dir>",
        "the Skill folder (with SKILL.md), its manifest file, or a folder of Skill folders",
      ),
    [...RUN_FLAGS, ...SEQUENTIAL_FLAGS, ...EVAL_ONLY_FLAGS],
  ).action(async (target: string, f: EvalFlags) => {
    const skills = await skillsUnder(target);
    if (skills === null && f.changedSince === undefined) return evalOne(target, f, ctx);
    await evalRoot(target, skills, f, ctx, evalOne);
  });
}

/** One Skill's eval: the command as it is for a Skill folder. */
async function evalOne(skill: string, f: EvalFlags, ctx: { exitCode: number }): Promise<void> {
  parseThresholds(f.failUnder ?? []);
  const seq = sequentialFrom(f);
  if (f.dryRun) {
    const plan = await planTarget(skill, {
      ...runOptionsFromFlags(f),
      onWarning: printWarning,
      generated: {
        ...runOptionsFromFlags(f),
        cacheDir: f.generatedDir,
        acceptEdited: f.acceptEdited,
      },
    });
    if (plan.skill?.generated_tasks)
      process.stderr.write(`tasks: generated, frozen in ${plan.skill.generated_tasks}\n`);
    process.stdout.write(renderPlan(plan, await planEstimateText(plan, f)));
    return;
  }
  // The results folder's lock from the compiled suite to the quality gates (store/lock.ts).
  await holdResultsFolder(
    {
      suite: skill,
      out: f.out,
      resume: f.resume,
      waitForLock: f.wait,
      lockCommand: "skillbench eval",
      onProgress: (e) => {
        if (e.type === "note") process.stderr.write(`${e.message}\n`);
      },
    },
    async () => {
      const opts = {
        skill,
        ...runOptionsFromFlags(f),
        quick: f.quick,
        generate: f.generate,
        regenerate: f.regenerate,
        generatedCacheDir: f.generatedDir,
        acceptEdited: f.acceptEdited,
        judgeCalibration: f.judgeCalibration,
        judgeAlphaMin: f.judgeAlphaMin,
        onNote: (m: string) => void process.stderr.write(`${m}\n`),
      };
      let prepared: Awaited<ReturnType<typeof prepareEval>>;
      try {
        prepared = await prepareEval(opts);
      } catch (e) {
        if (!(e instanceof GenerationError)) throw e;
        process.stderr.write(`skillbench: ${e.message}\n`);
        ctx.exitCode = 1;
        return;
      }
      const gen = prepared.generated;
      const cost = gen?.record?.generation.cost_usd;
      process.stderr.write(
        `skillbench eval: ${prepared.compiled.skillName} (${prepared.loaded.skillDir})\n` +
          `  manifest: ${prepared.manifestFound ? prepared.loaded.file : "none (synthesized)"}\n` +
          `  tasks (${prepared.taskSource}): ${prepared.compiled.tasks.join(", ")}\n` +
          (gen
            ? gen.cached
              ? `  generated tasks reused from ${gen.file} (no generator call; --regenerate writes new ones)\n` +
                (gen.edited === null ? "" : `  EDITED BY HAND: ${gen.edited}\n`)
              : `  generated tasks frozen in ${gen.file} (${gen.record?.generation.attempts ?? "?"} attempt(s), cost ${cost === undefined || cost === null ? "not reported" : dollars(cost)})\n`
            : "") +
          `  treatments: ${prepared.compiled.treatments.join(", ")}\n`,
      );
      await runReported(
        f,
        opts.env,
        ctx,
        {
          run: (hooks) =>
            runPreparedEval(prepared, {
              ...opts,
              run: (o) =>
                runWithSignals({ ...o, ...hooks(o.onProgress ?? defaultProgress()) }, (x) =>
                  runWithPilot(x, {
                    rest: seq ? (y) => runUntilDecided(y, seq) : runSuite,
                    first: runSuite,
                  }),
                ),
            }),
          summary: (res) => res.run,
          settle: (res) => {
            const out = process.stdout;
            out.write(
              `\n${runsPassedText(res.run, res.outDir)}\n` +
                (res.comparison
                  ? verdictBlock(res.comparison)
                  : `\nVerdict:\n${res.verdict.map((l) => `  ${l}`).join("\n")}\n`) +
                "\nQuality gates" +
                (res.gateReport.gates.length === 0
                  ? ": none declared (evaluation.qualityGates in the manifest)\n"
                  : ` (${res.gateReport.candidate}):\n` +
                    res.gateReport.gates
                      .map((g) => `  ${g.ok ? "PASS" : "FAIL"}  ${g.key}: ${g.detail}`)
                      .join("\n") +
                    "\n") +
                `\nResults: ${res.outDir}\n${[...res.run.files, ...res.files].map((x) => `  ${x}`).join("\n")}\n`,
            );
            ctx.exitCode = res.gateReport.ok && res.run.incomplete.length === 0 ? 0 : 1;
            if (!res.gateReport.ok)
              process.stderr.write(
                `quality gate failed: ${res.gateReport.gates
                  .filter((g) => !g.ok)
                  .map((g) => g.key)
                  .join(", ")}\n`,
              );
            return res.gateReport.gates.map((g) => ({
              name: g.key,
              passed: g.ok,
              detail: g.detail,
            }));
          },
        },
        "eval",
      );
    },
  );
}
