#!/usr/bin/env node
// First: before any module builds a zod schema (see there).
import "./zod-jitless.js";
import { Command, CommanderError } from "commander";
import { DiskFullError, errorPath, InputError, isDiskFull } from "../core/errors.js";
import { SKILLBENCH_VERSION } from "../core/version.js";
import { registerCommands } from "./commands/index.js";
import { interruptExitCode } from "./interrupt.js";

async function main(argv: string[]): Promise<number> {
  const ctx = { exitCode: 0 };
  const program = new Command();
  program
    .name("skillbench")
    .description("Evaluate whether an agent Skill makes a coding agent better, and how reliably.")
    .version(SKILLBENCH_VERSION)
    .exitOverride()
    .showHelpAfterError();

  // Only the named command's module where one is named (commands/index.ts says why).
  await registerCommands(program, ctx, argv);

  try {
    await program.parseAsync(argv);
  } catch (e) {
    const code = failureCode(e);
    return interruptExitCode() ?? code;
  }
  // An interrupted command says so by its exit code, whatever its runs gave (cli/interrupt.ts).
  return interruptExitCode() ?? ctx.exitCode;
}

/** What an error out of a command prints, and its exit code. */
function failureCode(e: unknown): number {
  if (e instanceof CommanderError) {
    if (e.code === "commander.helpDisplayed" || e.code === "commander.version" || e.exitCode === 0)
      return 0;
    return 2;
  }
  if (e instanceof InputError) {
    process.stderr.write(`skillbench: error: ${e.message}\n`);
    return 2;
  }
  // A full disk is not a harness bug: which file, and how to go on (exit 1).
  if (e instanceof DiskFullError || isDiskFull(e)) {
    const msg =
      e instanceof DiskFullError
        ? e.message
        : `disk full while writing ${errorPath(e) ?? "the results folder"}: free space and run the same command again with --resume and the same --out`;
    process.stderr.write(`skillbench: ${msg}\n`);
    return 1;
  }
  process.stderr.write(
    `skillbench: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`,
  );
  return 3;
}

main(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`skillbench: internal error: ${String(e)}\n`);
    process.exitCode = 3;
  },
);
