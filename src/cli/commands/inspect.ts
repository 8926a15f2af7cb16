import type { Command } from "commander";
import {
  planTarget,
  renderMatrix,
  renderTasksAndTreatments,
  validateTarget,
  type TargetPlan,
} from "../../index.js";
import { printWarning } from "./run.js";

function renderSkill(p: TargetPlan): string {
  const s = p.skill;
  if (!s) return "";
  const gates = s.quality_gates.map((g) => g.key).join(", ") || "none";
  return (
    `Skill: ${s.skill} (${s.skill_dir})\n` +
    `Manifest: ${s.manifest ?? "none (eval would synthesize one)"}\n` +
    `Baselines: ${s.baselines.map((b) => `${b.name} ← ${b.origin}`).join(", ") || "none"}\n` +
    `Quality gates: ${gates}\n` +
    (s.has_tasks
      ? ""
      : "Tasks: none (write them under evaluation.tasks; eval --quick runs one smoke task)\n")
  );
}

/** `list` and `validate`: what a suite or Skill holds, and whether it would run, without running it. */
export function registerInspect(program: Command, ctx: { exitCode: number }): void {
  program
    .command("list")
    .description("List a suite's or a Skill's tasks, treatments and planned runs (nothing runs)")
    .argument(
      "<target>",
      "a suite folder, or a Skill folder (with eval.yaml, comet/eval.yaml or SKILL.md)",
    )
    .option("--json", "print the plan as JSON (schema skillbench.plan.v1)")
    .option("--task <list>", "tasks to plan")
    .option("--treatment <list>", "treatments to plan")
    .option("-n, --count <n>", "repetitions per task × treatment", (v) => Number(v))
    .action(
      async (
        target: string,
        f: { json?: boolean; task?: string; treatment?: string; count?: number },
      ) => {
        const warnings: string[] = [];
        const plan = await planTarget(target, {
          task: f.task,
          treatment: f.treatment,
          count: f.count,
          probe: false,
          onWarning: f.json ? (w) => warnings.push(w.message) : printWarning,
        });
        if (f.json) {
          process.stdout.write(`${JSON.stringify(plan, null, 2)}\n`);
          return;
        }
        process.stdout.write(
          `${renderSkill(plan)}${plan.skill ? "\n" : ""}${renderTasksAndTreatments(plan)}\n${plan.runs.length > 0 ? renderMatrix(plan) : "No runs planned.\n"}`,
        );
        ctx.exitCode = 0;
      },
    );

  program
    .command("validate")
    .description(
      "Check a suite or a Skill without running an agent: every file parses, every validator can start, every Skill and profile exists (exit 2 when not)",
    )
    .argument("<target>", "a suite folder, or a Skill folder")
    .action(async (target: string) => {
      const { plan } = await validateTarget(target, { onWarning: printWarning });
      const validators = plan.tasks.reduce((n, t) => n + t.validators.length, 0);
      process.stdout.write(
        `${renderSkill(plan)}OK: ${plan.tasks.length} task(s), ${validators} validator(s), ${plan.treatments.length} treatment(s), ${plan.runs.length} run(s) planned\n`,
      );
      ctx.exitCode = 0;
    });
}
