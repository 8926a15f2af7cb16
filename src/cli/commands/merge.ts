import { readFileSync } from "node:fs";
import type { Command } from "commander";
import { mergeResults, writeCiOutputsFrom } from "../../index.js";
import { parseKs } from "../args.js";
import { printCiResult, withCiOptions, type CiFlags } from "../ci.js";

/**
 * SKILLBENCH_MERGE_HOLD=N:FILE, for tests of a merge killed midway: once N runs are copied, say
 * so on stderr and read FILE (a FIFO blocks until something writes it), holding the merge at a
 * point the test can see before it sends SIGKILL. Unset, nothing.
 */
function holdHook(value: string | undefined): ((n: number) => void) | undefined {
  const m = value === undefined ? null : /^(\d+):(.+)$/.exec(value);
  if (!m) return undefined;
  const after = Number(m[1]);
  const file = m[2] ?? "";
  return (n) => {
    if (n !== after) return;
    process.stderr.write(`merge: holding after ${n} run(s) copied (SKILLBENCH_MERGE_HOLD)\n`);
    readFileSync(file);
  };
}

/** Registers its command(s) on the program; `ctx.exitCode` is the process's exit code. */
export function registerMerge(program: Command, ctx: { exitCode: number }): void {
  withCiOptions(
    program
      .command("merge")
      .description(
        "Join results folders of one experiment (the --shard slices of a plan) into a new results folder, with its index and every report; refuses folders of another plan, suite or agent version (docs/distributed.md).",
      )
      .argument("<out>", "the merged results folder (new)")
      .argument("<dirs...>", "results folders to merge")
      .option(
        "--allow-drift",
        "merge folders whose suite hash or agent versions differ, recording the differences in metadata.json",
      )
      .option("--ks <list>", "k values for pass@k / pass^k", parseKs),
  ).action(
    async (out: string, dirs: string[], f: { allowDrift?: boolean; ks?: number[] } & CiFlags) => {
      const res = await mergeResults(out, dirs, {
        allowDrift: f.allowDrift,
        ks: f.ks,
        html: f.html,
        note: (m) => void process.stderr.write(`${m}\n`),
        onRunCopied: holdHook(process.env.SKILLBENCH_MERGE_HOLD),
      });
      process.stdout.write(
        `merged ${dirs.length} folder(s): ${res.reports.length}/${res.planned} run(s)` +
          (res.duplicates > 0 ? `, ${res.duplicates} found twice (kept once)` : "") +
          (res.drift.length > 0 ? `, ${res.drift.length} difference(s) recorded` : "") +
          `\nResults: ${res.outDir}\n${res.files.map((x) => `  ${x}`).join("\n")}\n`,
      );
      ctx.exitCode = printCiResult(
        await writeCiOutputsFrom(res.outDir, res, { junit: f.junit, failUnder: f.failUnder }),
      );
    },
  );
}
