/**
 * Which module registers which top-level commands, in the order `skillbench --help` lists them.
 *
 * Why a table of loaders: the command modules reach the library (stages, stores, every command's
 * zod schemas), and building all of it cost ~0.1 CPU-s at every invocation before any work
 * (issue 41). In the CLI bundle (scripts/build-cli.mjs) a module reached only through import()
 * is initialised when first loaded, so main.ts loads only the module of the command named
 * (`skillbench report ...` loads results.ts) and every module only where all commands are
 * needed (`skillbench --help`, `help`, an unknown command). A unit test checks that `names` is
 * exactly what each module registers.
 */
import type { Command } from "commander";

export interface CommandContext {
  exitCode: number;
}

export interface CommandModule {
  /** The top-level commands the module registers. */
  readonly names: readonly string[];
  readonly register: (program: Command, ctx: CommandContext) => Promise<void>;
}

export const COMMAND_MODULES: readonly CommandModule[] = [
  { names: ["run"], register: async (p, c) => (await import("./run.js")).registerRun(p, c) },
  { names: ["eval"], register: async (p, c) => (await import("./eval.js")).registerEval(p, c) },
  {
    names: ["calibrate"],
    register: async (p, c) => (await import("./calibrate.js")).registerCalibrate(p, c),
  },
  {
    names: ["list", "validate"],
    register: async (p, c) => (await import("./inspect.js")).registerInspect(p, c),
  },
  { names: ["check"], register: async (p, c) => (await import("./check.js")).registerCheck(p, c) },
  { names: ["init"], register: async (p, c) => (await import("./init.js")).registerInit(p, c) },
  {
    names: ["report", "compare", "rescore", "export"],
    register: async (p, c) => (await import("./results.js")).registerResults(p, c),
  },
  { names: ["merge"], register: async (p, c) => (await import("./merge.js")).registerMerge(p, c) },
  {
    names: ["view", "doctor", "model"],
    register: async (p, c) => (await import("./serve.js")).registerServe(p, c),
  },
  {
    names: ["worker", "queue"],
    register: async (p, c) => (await import("./queue.js")).registerQueue(p, c),
  },
  {
    names: ["triggers"],
    register: async (p, c) => (await import("./triggers.js")).registerTriggers(p, c),
  },
  {
    names: ["history"],
    register: async (p, c) => (await import("./history.js")).registerHistory(p, c),
  },
  { names: ["judge"], register: async (p) => (await import("./judge.js")).registerJudge(p) },
  {
    names: ["comment"],
    register: async (p, c) => (await import("./comment.js")).registerComment(p, c),
  },
];

/**
 * Registers the commands `argv` needs on the program: the module of the command named first
 * (the word after `skillbench`), else every module in the table's order.
 */
export async function registerCommands(
  program: Command,
  ctx: CommandContext,
  argv: readonly string[],
): Promise<void> {
  const named = argv[2];
  const one = COMMAND_MODULES.find((m) => named !== undefined && m.names.includes(named));
  for (const m of one ? [one] : COMMAND_MODULES) await m.register(program, ctx);
}
