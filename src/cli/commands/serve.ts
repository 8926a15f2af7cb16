import type { Command } from "commander";
import { renderDoctor, runDoctor, serveModel, serveResults } from "../../index.js";
import { defaultAgentName } from "../agent-help.js";
import { portArg, serveUntilInterrupted } from "../args.js";

/** Registers its command(s) on the program; `ctx.exitCode` is the process's exit code. */
export function registerServe(program: Command, ctx: { exitCode: number }): void {
  program
    .command("view")
    .description(
      "Serve a results folder on 127.0.0.1 (summary, comparison, run pages; refreshes while a run is in progress).",
    )
    .argument("<dir>", "results folder")
    .option("--port <n>", "port (default: a free one)", portArg)
    .action(async (dir: string, f: { port?: number }) => {
      await serveUntilInterrupted(await serveResults(dir, { port: f.port }));
    });

  program
    .command("doctor")
    .description(
      `Check what skillbench needs on this machine (${defaultAgentName()}, Docker, bubblewrap, browser, model endpoint) and how to fix each gap.`,
    )
    .option("--agent-bin <path>", `the ${defaultAgentName()} binary to check`)
    .option("--model-script <file>", "a model script to check")
    .option(
      "--fix",
      "remove the containers and temporary folders left by skillbench processes that are gone",
    )
    .action(async (f: { agentBin?: string; modelScript?: string; fix?: boolean }) => {
      const report = await runDoctor({
        agentBin: f.agentBin,
        modelScript: f.modelScript,
        fix: f.fix,
      });
      process.stdout.write(renderDoctor(report));
      ctx.exitCode = report.checks.some((c) => c.status === "fail") ? 1 : 0;
    });

  const model = program.command("model").description("The scripted model server.");
  model
    .command("serve")
    .description("Serve the Anthropic Messages API from a script, on 127.0.0.1, until interrupted.")
    .requiredOption("--script <file>", "model script (YAML or JSON)")
    .option("--port <n>", "port (default: a free one)", portArg)
    .option("--record <file>", "append every request and reply to this JSONL file")
    .action(async (f: { script: string; port?: number; record?: string }) => {
      await serveUntilInterrupted(
        await serveModel({ scriptFile: f.script, port: f.port, recordFile: f.record }),
      );
    });
}
