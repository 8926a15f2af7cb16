import type { Command } from "commander";
import { initSkillManifest, initSuite } from "../../index.js";

/** `skillbench init [DIR] [--skill SKILL_DIR]`: a starting point that validates and runs offline. */
export function registerInit(program: Command, ctx: { exitCode: number }): void {
  program
    .command("init")
    .description(
      "Write a starter suite (a Skill with its eval.yaml, a task with a Python validator, treatments, an offline model script), or an eval.yaml for an existing Skill",
    )
    .argument("[dir]", "folder for the starter suite", ".")
    .option("--skill <skill-dir>", "write SKILL_DIR/eval.yaml for this existing Skill instead")
    .action(async (dir: string, f: { skill?: string }) => {
      const res = f.skill ? await initSkillManifest(f.skill) : await initSuite(dir);
      process.stdout.write(
        `Wrote ${res.files.length} file(s) in ${res.dir}:\n${res.files.map((x) => `  ${x}`).join("\n")}\n\nNext:\n${res.next.map((x) => `  ${x}`).join("\n")}\n`,
      );
      ctx.exitCode = 0;
    });
}
