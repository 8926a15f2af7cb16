import { writeFile } from "node:fs/promises";
import type { Command } from "commander";
import { readCommentSkill } from "../../report/comment/read.js";
import { renderComment } from "../../report/comment/render.js";

/** `skillbench comment DIR…`: one GitHub PR comment from results folders (docs/github-action.md). */
export function registerComment(program: Command, ctx: { exitCode: number }): void {
  program
    .command("comment")
    .description(
      "Render one GitHub pull-request comment (markdown, under GitHub's 65,536-character limit) from results folders of run, eval or triggers.",
    )
    .argument("<dirs...>", "results folders")
    .option("--out <file>", "write the comment to this file (default: stdout)")
    .option(
      "--marker <key>",
      "a key added to the hidden marker, so that several workflows keep one comment each",
    )
    .action(async (dirs: string[], f: { out?: string; marker?: string }) => {
      const skills = [];
      for (const dir of dirs) skills.push(await readCommentSkill(dir));
      const body = renderComment({ skills, marker: f.marker });
      if (f.out) await writeFile(f.out, body);
      else process.stdout.write(body);
      ctx.exitCode = 0;
    });
}
