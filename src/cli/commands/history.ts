import { existsSync } from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { InputError } from "../../index.js";
import { importFolders } from "../../history/record-experiment.js";
import { renderSkillHistory, renderSkillList } from "../../history/render.js";
import { isPostgresUrl, openHistory } from "../../history/store.js";
import { skillHistory } from "../../history/trend.js";
import { writeHistoryPage } from "../../history/write-html.js";
import { historyPageDir, historyPageName } from "../../store/history-page.js";

const STORE_HELP =
  "the history store: a SQLite file or postgres://… (default: SKILLBENCH_HISTORY_URL, else .skillbench/history.db)";

/** The store `history` reads: --history, SKILLBENCH_HISTORY_URL, else the default file under cwd. */
function storeTarget(given: string | undefined): string {
  return given ?? process.env.SKILLBENCH_HISTORY_URL ?? path.join(".skillbench", "history.db");
}

/**
 * Where `history SKILL --html` writes without a file: history/<skill>.html beside a SQLite store
 * (for the default store, where the recorder writes it and the experiments' reports link to it);
 * for a PostgreSQL store, under .skillbench/ in the current folder.
 */
function historyPageBeside(target: string, skill: string): string {
  const beside = isPostgresUrl(target) ? ".skillbench" : path.dirname(target);
  return path.join(historyPageDir(beside), historyPageName(skill));
}

/** `skillbench history [SKILL]` and `skillbench history import DIR…` (docs/history.md). */
export function registerHistory(program: Command, ctx: { exitCode: number }): void {
  const history = program
    .command("history")
    .description(
      "The history of every recorded experiment: a Skill's trend across versions, its flaky cases, its trigger figures; `history import DIR…` records results folders.",
    );

  history
    .command("show", { isDefault: true, hidden: true })
    .argument("[skill]", "the Skill (without it: every Skill the store knows)")
    .option("--history <file|url>", STORE_HELP)
    .option("--json", "print the history as JSON instead of markdown")
    .option(
      "--html [file]",
      "write the Skill's history page with its charts (default: history/<skill>.html beside the store)",
    )
    .action(
      async (
        skill: string | undefined,
        f: { history?: string; json?: boolean; html?: string | boolean },
      ) => {
        const target = storeTarget(f.history);
        if (f.html !== undefined && skill === undefined)
          throw new InputError(
            "--html: name the Skill whose history page to write (history SKILL --html)",
            {
              field: "--html",
            },
          );
        if (!isPostgresUrl(target) && !existsSync(target))
          throw new InputError(
            `${target}: no history store here (experiments are recorded beside their results, or where --history says)`,
            { file: target },
          );
        const store = await openHistory(target);
        try {
          const records = await store.records();
          if (skill === undefined) {
            process.stdout.write(
              f.json
                ? `${JSON.stringify({ store: store.where, records }, null, 2)}\n`
                : renderSkillList(records, store.where),
            );
            return;
          }
          if (!records.some((r) => r.skill === skill))
            throw new InputError(
              `${store.where}: no experiment of Skill "${skill}" is recorded (known: ${[...new Set(records.map((r) => r.skill))].join(", ") || "none"})`,
              { file: store.where, field: "skill" },
            );
          const h = skillHistory(skill, records);
          if (f.html !== undefined) {
            const file = typeof f.html === "string" ? f.html : historyPageBeside(target, skill);
            await writeHistoryPage(file, h, store.where);
            process.stdout.write(`wrote ${file}\n`);
          } else
            process.stdout.write(
              f.json ? `${JSON.stringify(h, null, 2)}\n` : renderSkillHistory(h),
            );
        } finally {
          await store.close();
        }
        ctx.exitCode = 0;
      },
    );

  history
    .command("import")
    .description(
      "Record finished results folders in the history store (what recording at the end of a run does).",
    )
    .argument("<dir...>", "results folders")
    .option("--history <file|url>", STORE_HELP)
    .action(async (dirs: string[], f: { history?: string }) => {
      const { where, recorded } = await importFolders(dirs, storeTarget(f.history));
      for (const r of recorded)
        process.stdout.write(
          `recorded ${r.experiment_id} (${r.skill}${r.band ? `, ${r.band}` : ""}) from ${r.results_dir}\n`,
        );
      process.stdout.write(`${recorded.length} experiment(s) recorded in ${where}\n`);
      ctx.exitCode = 0;
    });
}
