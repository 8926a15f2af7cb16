/**
 * Zod's parsers without their generated code, for `skillbench run`. By default zod compiles a
 * fast parser for each object schema (with `new Function`) the first time it parses with it:
 * ~10 ms for the run report's schema, ~40 ms of CPU per `run` invocation in all, where `run`
 * parses each record schema a few times per run (bench/run-overhead.mjs measures the CLI's
 * CPU). The commands that parse thousands of stored reports (`report`, `compare`, `rescore`)
 * keep the generated parsers: a realistic report parses in ~26 µs with them, ~40 µs without.
 * Zod reads the setting when a schema is built, so main.ts imports this module before anything
 * that builds one, and the command is taken from the arguments as they are (the first one that
 * is not an option: `skillbench [options] run ...`).
 */
import { z } from "zod";

/** Whether the command in `args` (process.argv without node and the script) is `run`. */
export function isRunCommand(args: readonly string[]): boolean {
  return args.find((a) => !a.startsWith("-")) === "run";
}

if (isRunCommand(process.argv.slice(2))) z.config({ jitless: true });
