import type { Command } from "commander";
import {
  GenerationError,
  holdResultsFolder,
  outcomeLabel,
  planTriggers,
  probingAgents,
  runTriggers,
  runTriggersOnAgents,
  type AgentsSummary,
  type TriggerProgress,
  type TriggerSummary,
} from "../../index.js";
import type { CatalogReport } from "../../triggers/catalog-report.js";
import { f2 } from "../../util/format.js";
import { agentChoices, defaultAgentName } from "../agent-help.js";
import { collect, intArg, parseEnvPairs, SANDBOX_HELP, sandboxArg } from "../args.js";
import { withStopSignals } from "../interrupt.js";
import { recordTriggers } from "../../history/record-experiment.js";
import { probeEstimateText } from "../estimate.js";
import { budgetArg } from "../flags.js";

interface TriggerFlags {
  queries?: string;
  count?: number;
  concurrency?: number;
  out?: string;
  /** The history store (docs/history.md); false with --no-history. */
  history?: string | false;
  resume?: boolean;
  wait?: boolean;
  neighbours?: string[];
  decoys?: boolean;
  descriptionFile?: string[];
  model?: string;
  agent?: string;
  agentBin?: string;
  modelScript?: string;
  env?: string[];
  passEnv?: string[];
  timeout?: number;
  maxTurns?: number;
  maxAttempts?: number;
  sandbox?: "local" | "bwrap" | "docker" | "auto";
  keepWorkspaces?: boolean;
  generate?: boolean;
  regenerate?: boolean;
  cacheDir?: string;
  dryRun?: boolean;
  pricing?: string;
  optimise?: number;
  optimiserModel?: string;
  budgetUsd?: number;
}

function progressLine(e: TriggerProgress): string | null {
  switch (e.type) {
    case "plan":
      return `skillbench triggers: ${e.total} probes planned (${e.toRun} to run) → ${e.outDir}`;
    case "note":
      // A warning (a probe without a sandbox) reads as run's does.
      return e.message.startsWith("warning: ") ? e.message : `note: ${e.message}`;
    case "probe": {
      if (!e.record) return `CANCELLED ${e.probe.probe_id}`;
      const a = e.record.attempts.length;
      return `[${e.done}/${e.total}] ${e.probe.probe_id}: ${outcomeLabel(e.record.outcome)}${a > 1 ? ` (${a} attempts)` : ""}`;
    }
  }
}

/** The variants' lines and the comparison's conclusions of one evaluation. */
function summaryLines(r: NonNullable<TriggerSummary["report"]>, prefix = ""): string[] {
  const lines = r.variants.map(
    (v) =>
      `${prefix}${v.name}: precision ${f2(v.precision.value)}, recall ${f2(v.recall.value)}, F1 ${f2(v.f1)}, false-trigger rate ${f2(v.false_trigger_rate.value)}, invalid probes ${v.invalid_probes}`,
  );
  for (const c of r.comparison) lines.push(`${prefix}${c.conclusion}`);
  return lines;
}

/** Prints an evaluation across agents, records each agent's in the history store; the exit code. */
async function reportAgents(
  all: AgentsSummary,
  agentCount: number,
  f: TriggerFlags,
): Promise<number> {
  const lines = all.runs.flatMap((run) => summaryLines(run.report, `${run.agent} `));
  process.stdout.write(
    `\n${lines.join("\n")}\nResults: ${all.outDir}\n${all.files.map((x) => `  ${x}`).join("\n")}\n`,
  );
  for (const run of all.runs) {
    const unrecorded = await recordTriggers(run.outDir, run.report, {
      off: f.history === false,
      ...(typeof f.history === "string" ? { target: f.history } : {}),
    });
    if (unrecorded) process.stderr.write(`${unrecorded}\n`);
  }
  const invalid = all.runs.some((run) => run.report.variants.some((v) => v.invalid_probes > 0));
  const notRun = all.runs.some((run) => run.notRun.length > 0) || all.runs.length < agentCount;
  return invalid || notRun ? 1 : 0;
}

/** A catalog's lines: each Skill's precision and recall, then the accuracy. */
function catalogLines(c: CatalogReport | null): string[] {
  if (!c) return [];
  return [
    ...c.per_skill.map(
      (s) =>
        `${s.skill}: precision ${f2(s.precision.value)} (${s.precision.count}/${s.precision.of}), recall ${f2(s.recall.value)} (${s.recall.count}/${s.recall.of})`,
    ),
    `catalog: accuracy ${f2(c.accuracy.value)} (${c.accuracy.count}/${c.accuracy.of}), invalid probes ${c.matrix.invalid}`,
  ];
}

/** `skillbench triggers SKILL_DIR`: does the Skill fire when it should? (docs/triggers.md) */
export function registerTriggers(program: Command, ctx: { exitCode: number }): void {
  program
    .command("triggers")
    .description(
      "Trigger evaluation: ask the agent each query R times, each in a fresh workspace with the Skill beside its neighbours and decoys, and report precision, recall and confusion.",
    )
    .argument(
      "<skill-dir>",
      "the Skill folder (holding SKILL.md), or a catalog: a folder of Skill folders, each with its queries in its eval.yaml",
    )
    .option("--queries <file>", "YAML or JSON list of {query, should_trigger}")
    .option("-n, --count <n>", "repetitions of each query (default 3)", intArg("--count"))
    .option("-j, --concurrency <n>", "probes at once (default 1)", intArg("--concurrency"))
    .option("--out <dir>", "results folder (default .skillbench/triggers/<id>)")
    .option(
      "--history <file|url>",
      "record the evaluation in this history store: a SQLite file or postgres://… (default: SKILLBENCH_HISTORY_URL, else .skillbench/history.db beside the results)",
    )
    .option("--no-history", "do not record the evaluation in a history store")
    .option(
      "--resume",
      "with --out of an interrupted evaluation: run only the probes with no record",
    )
    .option(
      "--neighbours <dir>",
      "a folder of neighbouring Skills to install beside it (repeatable)",
      collect,
    )
    .option(
      "--wait",
      "when another skillbench writes the results folder, wait for it to end instead of refusing",
    )
    .option("--no-decoys", "do not install the bundled decoy Skills")
    .option(
      "--description-file <file>",
      "a description variant of the Skill (repeatable: two or more are compared)",
      collect,
    )
    .option("--model <id>", "model id passed to the agent")
    .option(
      "--agent <name>",
      `the probes' agent: ${agentChoices(true)}; an agent without a Skill mechanism is refused (docs/triggers.md)`,
    )
    .option(
      "--agent-bin <path>",
      `the agent's binary (default: ${defaultAgentName()}'s pinned package, then PATH)`,
    )
    .option("--model-script <file>", "serve the model from this script (offline, deterministic)")
    .option("--env <KEY=VALUE>", "set a variable for the agent (repeatable)", collect)
    .option("--pass-env <NAME>", "pass a host variable to the agent by name (repeatable)", collect)
    .option("--timeout <sec>", "seconds per probe attempt (default 90)", intArg("--timeout"))
    .option(
      "--max-turns <n>",
      "the agent's turn budget per probe (default 4)",
      intArg("--max-turns"),
    )
    .option(
      "--max-attempts <n>",
      "attempts per probe while it is invalid (API error, timeout, crash); default 3",
      intArg("--max-attempts"),
    )
    .option("--sandbox <kind>", SANDBOX_HELP, sandboxArg)
    .option("--keep-workspaces", "keep each probe's temporary workspace for debugging")
    .option(
      "--generate",
      "no queries given: have the agent write a balanced set, frozen in .skillbench/cache/triggers and reused",
    )
    .option("--regenerate", "with --generate: write a new set even when a frozen one matches")
    .option(
      "--cache-dir <dir>",
      "where generated sets are frozen (default .skillbench/cache/triggers)",
    )
    .option(
      "--dry-run",
      "print the planned probes and their estimated tokens, cost and wall time; start nothing",
    )
    .option(
      "--pricing <file>",
      "the pricing table for the estimate and the metered spend instead of the one shipped (data/pricing.yaml)",
    )
    .option(
      "--optimise <rounds>",
      "improve the Skill's description for this many rounds: candidates scored on a train split of the queries, the one kept chosen on the held-out split (its score is the one reported)",
      intArg("--optimise"),
    )
    .option(
      "--optimiser-model <id>",
      "with --optimise: the model that proposes descriptions (default: --model)",
    )
    .option(
      "--budget-usd <x>",
      "what the probes and proposals may spend, metered from the model's replies; no probe starts once it cannot be covered",
      budgetArg("--budget-usd", false),
    )
    .action(async (skillDir: string, f: TriggerFlags) => {
      if (f.dryRun) {
        // Several agents: each runs the same probes, and the estimate counts every agent's.
        const agents = f.agent?.includes(",") ? probingAgents(f.agent) : null;
        const plan = await planTriggers(
          {
            skill: skillDir,
            queries: f.queries,
            count: f.count,
            concurrency: f.concurrency,
            neighbours: f.neighbours,
            decoys: f.decoys === false ? false : undefined,
            descriptionFiles: f.descriptionFile,
            model: f.model,
            agent: agents?.[0] ?? f.agent,
            modelScript: f.modelScript,
            timeoutSec: f.timeout,
            maxTurns: f.maxTurns,
            generate: f.generate || f.regenerate,
          },
          agents ?? undefined,
        );
        const variants = new Set(plan.probes.map((p) => p.variant)).size;
        const queries = new Set(plan.probes.map((p) => p.query_id)).size;
        process.stdout.write(
          (plan.queriesPending
            ? "No queries yet: --generate writes them first (reused once frozen), so the probes are not known.\n"
            : `${plan.probes.length} probes planned (${variants} variant(s) × ${queries} queries × ${plan.count} repetitions)${agents ? `, on each of ${agents.length} agents (${agents.join(", ")})` : ""}\n\n${await probeEstimateText(plan, f)}`) +
            "Dry run: no agent or model server was started.\n",
        );
        return;
      }
      // Ctrl-C: no new probe starts; a second Ctrl-C or SIGTERM kills the running ones, as in `run`.
      await withStopSignals("probes", async ({ stop, kill }) => {
        try {
          // Several agents (`--agent claude,codex`): one evaluation each in <out>/<agent>/ and
          // the cross-agent table at the top (docs/triggers.md); all checked before any runs.
          const agents = f.agent?.includes(",") ? probingAgents(f.agent) : null;
          const options = {
            skill: skillDir,
            queries: f.queries,
            count: f.count,
            concurrency: f.concurrency,
            out: f.out,
            resume: f.resume,
            neighbours: f.neighbours,
            // --no-decoys only: otherwise the manifest's triggers.decoys (default true) decides.
            decoys: f.decoys === false ? false : undefined,
            descriptionFiles: f.descriptionFile,
            model: f.model,
            agent: f.agent,
            agentBin: f.agentBin,
            modelScript: f.modelScript,
            env: parseEnvPairs(f.env ?? []),
            passEnv: f.passEnv,
            timeoutSec: f.timeout,
            maxTurns: f.maxTurns,
            maxAttempts: f.maxAttempts,
            sandbox: f.sandbox,
            keepWorkspaces: f.keepWorkspaces,
            generate: f.generate || f.regenerate,
            regenerate: f.regenerate,
            optimise: f.optimise,
            optimiserModel: f.optimiserModel,
            budgetUsd: f.budgetUsd,
            pricing: f.pricing,
            cacheDir: f.cacheDir,
            stopSignal: stop,
            killSignal: kill,
            onProgress: (e: TriggerProgress) => {
              const line = progressLine(e);
              if (line) process.stderr.write(`${line}\n`);
            },
          };
          // One writer per results folder, as for run (store/lock.ts).
          const held = <T>(go: () => Promise<T>): Promise<T> =>
            f.out
              ? holdResultsFolder(
                  {
                    suite: skillDir,
                    out: f.out,
                    resume: f.resume,
                    waitForLock: f.wait,
                    lockCommand: "skillbench triggers",
                    stopSignal: stop,
                    onProgress: (e) => {
                      if (e.type === "note") process.stderr.write(`note: ${e.message}\n`);
                    },
                  },
                  go,
                )
              : go();
          if (agents) {
            const all = await held(() => runTriggersOnAgents(options, agents));
            ctx.exitCode = await reportAgents(all, agents.length, f);
            return;
          }
          const res = await held(() => runTriggers(options));
          const r = res.report;
          const lines = r ? summaryLines(r) : catalogLines(res.catalog);
          process.stdout.write(
            `\n${lines.join("\n")}\nResults: ${res.outDir}\n${res.files.map((x) => `  ${x}`).join("\n")}\n`,
          );
          // The history store keeps one Skill's trigger figures; a catalog's are not recorded.
          const unrecorded = r
            ? await recordTriggers(res.outDir, r, {
                off: f.history === false,
                ...(typeof f.history === "string" ? { target: f.history } : {}),
              })
            : null;
          if (unrecorded) process.stderr.write(`${unrecorded}\n`);
          const invalid = r
            ? r.variants.some((v) => v.invalid_probes > 0)
            : (res.catalog?.matrix.invalid ?? 0) > 0;
          ctx.exitCode = invalid || res.notRun.length > 0 ? 1 : 0;
        } catch (e) {
          if (!(e instanceof GenerationError)) throw e;
          process.stderr.write(`skillbench: ${e.message}\n`);
          ctx.exitCode = 1;
        }
      });
    });
}
