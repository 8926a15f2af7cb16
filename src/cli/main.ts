#!/usr/bin/env node
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import {
  InputError,
  rescoreResults,
  runSuite,
  serveModel,
  SKILLBENCH_VERSION,
  parseThresholds,
  renderDoctor,
  runDoctor,
  serveResults,
  writeCiOutputs,
  writeHtmlReports,
  writeComparison,
  writeExperimentReports,
} from '../index.js';
import { makeProgress } from './progress.js';

function intArg(name: string) {
  return (v: string): number => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`${name} must be a positive whole number`);
    return n;
  };
}

function portArg(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('--port must be a whole number from 0 to 65535');
  return n;
}

/** Print a server's URL and keep it up until Ctrl-C or SIGTERM. */
async function serveUntilInterrupted(server: { url: string; close(): Promise<void> }): Promise<void> {
  process.stdout.write(`${server.url}\n`);
  await new Promise<void>((resolve) => {
    const stopNow = (): void => void server.close().then(resolve);
    process.once('SIGINT', stopNow);
    process.once('SIGTERM', stopNow);
  });
}

function collect(v: string, prev: string[] = []): string[] {
  return [...prev, v];
}

function parseEnvPairs(pairs: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of pairs) {
    const i = p.indexOf('=');
    if (i <= 0) throw new InputError(`--env ${p}: expected KEY=VALUE`, { field: '--env' });
    out[p.slice(0, i)] = p.slice(i + 1);
  }
  return out;
}

function parseKs(v: string): number[] {
  const ks = v.split(',').map((s) => Number(s.trim()));
  if (ks.some((k) => !Number.isInteger(k) || k < 1)) throw new InvalidArgumentError('--ks takes positive whole numbers, e.g. 1,2,5');
  return ks;
}

interface RunFlags {
  task?: string;
  treatment?: string;
  count?: number;
  concurrency?: number;
  out?: string;
  profile?: string;
  model?: string;
  agentBin?: string;
  resume?: boolean;
  modelScript?: string;
  env?: string[];
  passEnv?: string[];
  timeout?: number;
  keepWorkspaces?: boolean;
  ks?: number[];
  exitZero?: boolean;
  judge?: boolean;
  judgeModel?: string;
  judgeBaseUrl?: string;
  judgeSamples?: number;
  interactionMode?: string;
  maxTurns?: number;
  simulatorPrompt?: string;
  simulatorModel?: string;
  sandbox?: 'local' | 'bwrap' | 'docker' | 'auto';
  html?: boolean;
  junit?: string;
  failUnder?: string[];
}

interface CiFlags {
  html?: boolean;
  junit?: string;
  failUnder?: string[];
}

function withCiOptions(cmd: Command, junit = true): Command {
  cmd.option('--html', 'write summary.html and comparison_report.html (the default)').option('--no-html', 'no HTML reports');
  if (junit)
    cmd
      .option('--junit <file>', 'write JUnit XML: one testcase per run')
      .option('--fail-under <metric=min>', 'exit 1 below a threshold, e.g. pass@1=0.8, weighted_score=0.7, WITH_SKILL:pass_rate=0.9 (repeatable)', collect);
  return cmd;
}

/** JUnit, thresholds and the GitHub step summary; returns 1 when a threshold failed. */
async function ciOutputs(dir: string, f: CiFlags): Promise<number> {
  const ci = await writeCiOutputs(dir, { junit: f.junit, failUnder: f.failUnder });
  for (const file of ci.files) process.stdout.write(`  ${file}\n`);
  if (ci.thresholds) {
    for (const fail of ci.thresholds.failures) process.stderr.write(`threshold failed: ${fail}\n`);
    process.stdout.write(`${ci.thresholds.line}\n`);
    return ci.thresholds.ok ? 0 : 1;
  }
  return 0;
}

function judgeFlags(f: { judge?: boolean; judgeModel?: string; judgeBaseUrl?: string; judgeSamples?: number }) {
  return { judge: f.judge, judgeModel: f.judgeModel, judgeBaseUrl: f.judgeBaseUrl, judgeSamples: f.judgeSamples };
}

async function main(argv: string[]): Promise<number> {
  let exitCode = 0;
  const program = new Command();
  program
    .name('skillbench')
    .description('Evaluate whether an agent Skill makes a coding agent better, and how reliably.')
    .version(SKILLBENCH_VERSION)
    .exitOverride()
    .showHelpAfterError();

  withCiOptions(program
    .command('run'))
    .description('Run a suite: tasks × treatments × repetitions, each in its own workspace, then write the reports.')
    .argument('<suite>', 'suite folder (with tasks/), or a single task folder')
    .option('--task <list>', 'tasks to run: comma-separated names, * as a wildcard')
    .option('--treatment <list>', 'treatments to run: comma-separated names, * as a wildcard')
    .option('-n, --count <n>', 'repetitions per task × treatment', intArg('--count'))
    .option('-j, --concurrency <n>', 'runs at once', intArg('--concurrency'))
    .option('--out <dir>', 'results folder (default .skillbench/runs/<experiment-id>)')
    .option('--profile <name>', 'rubric profile for every run')
    .option('--model <id>', 'model id passed to the agent')
    .option('--agent-bin <path>', 'claude binary to run')
    .option('--resume', 'with --out of an interrupted run: run only the runs with no complete record')
    .option('--model-script <file>', 'serve the model from this script (offline, deterministic)')
    .option('--env <KEY=VALUE>', 'set a variable for the agent (repeatable)', collect)
    .option('--pass-env <NAME>', 'pass a host variable to the agent by name (repeatable)', collect)
    .option('--timeout <sec>', "agent timeout per run, overriding the task's timeout_sec", intArg('--timeout'))
    .option('--keep-workspaces', 'keep each run\'s temporary workspace for debugging')
    .option('--ks <list>', 'k values for pass@k / pass^k, e.g. 1,2,5', parseKs)
    .option('--exit-zero', 'exit 0 even when some runs fail (bad input still exits 2)')
    .option('--sandbox <kind>', 'isolation: local (default), bwrap, docker, or auto', (v) => {
      if (!['local', 'bwrap', 'docker', 'auto'].includes(v)) throw new InvalidArgumentError('--sandbox must be local, bwrap, docker or auto');
      return v as 'local' | 'bwrap' | 'docker' | 'auto';
    })
    .option('--interaction-mode <mode>', 'none (single turn) or auto_user (the subject plus a simulated user)')
    .option('--max-turns <n>', 'subject turns at most in auto_user mode', intArg('--max-turns'))
    .option('--simulator-prompt <text>', "the simulated user's instructions (overrides the task's and the profile's)")
    .option('--simulator-model <id>', 'model for the simulated user (endpoint: SKILLBENCH_SIMULATOR_BASE_URL, default the subject\'s)')
    .option('--judge', 'add the LLM judge overlay (also BENCH_LLM_JUDGE=1 or a judge section in skillbench.yaml)')
    .option('--no-judge', 'no LLM judge, whatever the environment or suite says')
    .option('--judge-model <id>', 'the judge model (BENCH_JUDGE_MODEL)')
    .option('--judge-base-url <url>', 'the judge endpoint (BENCH_JUDGE_BASE_URL)')
    .option('--judge-samples <n>', 'ask the judge N times and record mean and spread', intArg('--judge-samples'))
    .action(async (suite: string, f: RunFlags) => {
      const stop = new AbortController();
      const kill = new AbortController();
      const onSigint = (): void => {
        if (!stop.signal.aborted) {
          process.stderr.write('\nskillbench: stopping — no new runs start; press Ctrl-C again to kill the running ones\n');
          stop.abort();
        } else kill.abort();
      };
      // A bad threshold is bad input: say so before any agent runs.
      parseThresholds(f.failUnder ?? []);
      process.on('SIGINT', onSigint);
      process.on('SIGTERM', () => {
        stop.abort();
        kill.abort();
      });
      try {
        const res = await runSuite({
          suite,
          task: f.task,
          treatment: f.treatment,
          count: f.count,
          concurrency: f.concurrency,
          out: f.out,
          profile: f.profile,
          model: f.model,
          agentBin: f.agentBin,
          resume: f.resume,
          modelScript: f.modelScript,
          env: parseEnvPairs(f.env ?? []),
          passEnv: f.passEnv,
          timeoutSec: f.timeout,
          keepWorkspaces: f.keepWorkspaces,
          ks: f.ks,
          judgeFlags: judgeFlags(f),
          interaction: { mode: f.interactionMode, maxTurns: f.maxTurns, simulatorPrompt: f.simulatorPrompt },
          simulatorModel: f.simulatorModel,
          sandbox: f.sandbox,
          html: f.html,
          stopSignal: stop.signal,
          killSignal: kill.signal,
          onWarning: (w) => process.stderr.write(`warning: ${w.file}${w.field ? `: ${w.field}` : ''}: ${w.message}\n`),
          onProgress: makeProgress(process.stderr, Boolean(process.stderr.isTTY) && !process.env.CI),
        });
        const passed = res.reports.filter((r) => r.passed).length;
        process.stdout.write(
          `\n${passed}/${res.planned.length} runs passed` +
            (res.incomplete.length ? `, ${res.incomplete.length} not completed (rerun with --resume --out ${res.outDir})` : '') +
            `\nResults: ${res.outDir}\n${res.files.map((f) => `  ${f}`).join('\n')}\n`,
        );
        exitCode = passed === res.planned.length || f.exitZero ? 0 : 1;
        const ci = await ciOutputs(res.outDir, f);
        if (ci !== 0) exitCode = ci;
      } finally {
        process.off('SIGINT', onSigint);
      }
    });

  withCiOptions(program
    .command('report')
    .description('Render the reports of a results folder again from its stored runs, without running anything.')
    .argument('<dir>', 'results folder')
    .option('--ks <list>', 'k values for pass@k / pass^k', parseKs))
    .action(async (dir: string, f: { ks?: number[] } & CiFlags) => {
      const files = await writeExperimentReports(dir, { ks: f.ks, html: f.html });
      process.stdout.write(`${files.join('\n')}\n`);
      exitCode = await ciOutputs(dir, f);
    });

  withCiOptions(program
    .command('compare'), false)
    .description('Write comparison_report.md and comparison.json for a results folder, from its stored runs.')
    .argument('<dir>', 'results folder')
    .option('--candidate <treatment>', 'the treatment under test (default: the first that is not CONTROL)')
    .option('--baseline <treatment>', 'what it is compared with (default: the next one, else CONTROL)')
    .option('--control <treatment>', 'the no-skill context (default: CONTROL)')
    .option('--ks <list>', 'k values for pass@k / pass^k', parseKs)
    .option('--out <file>', 'markdown file to write (default DIR/comparison_report.md; the JSON goes beside it)')
    .action(async (dir: string, f: { candidate?: string; baseline?: string; control?: string; ks?: number[]; out?: string; html?: boolean }) => {
      const files = await writeComparison(dir, f);
      if (f.html !== false) files.push(...(await writeHtmlReports(dir)));
      process.stdout.write(`${files.join('\n')}\n`);
    });

  withCiOptions(program
    .command('rescore'))
    .description('Recompute validators\' interpretation, rubric scores, sample quality, attribution and every report from stored runs, without running an agent.')
    .argument('<dir>', 'results folder')
    .option('--profile <name>', 'score every run with this profile')
    .option('--ks <list>', 'k values for pass@k / pass^k', parseKs)
    .option('--judge', 'judge every run again (answers are cached in DIR/judge-cache/)')
    .option('--no-judge', 'keep the stored judge blocks, whatever the environment says')
    .option('--judge-model <id>', 'the judge model (BENCH_JUDGE_MODEL)')
    .option('--judge-base-url <url>', 'the judge endpoint (BENCH_JUDGE_BASE_URL)')
    .option('--judge-samples <n>', 'ask the judge N times', intArg('--judge-samples'))
    .option('--model-script <file>', 'serve the judge from this model script')
    .action(async (dir: string, f: { profile?: string; ks?: number[]; judge?: boolean; judgeModel?: string; judgeBaseUrl?: string; judgeSamples?: number; modelScript?: string } & CiFlags) => {
      const res = await rescoreResults(dir, { profile: f.profile, ks: f.ks, judgeFlags: judgeFlags(f), modelScript: f.modelScript, html: f.html });
      process.stdout.write(
        `${res.reports.length} runs re-scored, ${res.changed.length} changed\n${res.files.map((x) => `  ${x}`).join('\n')}\n`,
      );
      exitCode = await ciOutputs(dir, f);
    });

  program
    .command('view')
    .description('Serve a results folder on 127.0.0.1 (summary, comparison, run pages; refreshes while a run is in progress).')
    .argument('<dir>', 'results folder')
    .option('--port <n>', 'port (default: a free one)', portArg)
    .action(async (dir: string, f: { port?: number }) => {
      await serveUntilInterrupted(await serveResults(dir, { port: f.port }));
    });

  program
    .command('doctor')
    .description('Check what skillbench needs on this machine (claude, Docker, bubblewrap, browser, model endpoint) and how to fix each gap.')
    .option('--agent-bin <path>', 'the claude binary to check')
    .option('--model-script <file>', 'a model script to check')
    .action(async (f: { agentBin?: string; modelScript?: string }) => {
      const report = await runDoctor({ agentBin: f.agentBin, modelScript: f.modelScript });
      process.stdout.write(renderDoctor(report));
      exitCode = report.checks.some((c) => c.status === 'fail') ? 1 : 0;
    });

  const model = program.command('model').description('The scripted model server.');
  model
    .command('serve')
    .description('Serve the Anthropic Messages API from a script, on 127.0.0.1, until interrupted.')
    .requiredOption('--script <file>', 'model script (YAML or JSON)')
    .option('--port <n>', 'port (default: a free one)', portArg)
    .option('--record <file>', 'append every request and reply to this JSONL file')
    .action(async (f: { script: string; port?: number; record?: string }) => {
      await serveUntilInterrupted(await serveModel({ scriptFile: f.script, port: f.port, recordFile: f.record }));
    });

  try {
    await program.parseAsync(argv);
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.exitCode === 0) return 0;
      return 2;
    }
    if (e instanceof InputError) {
      process.stderr.write(`skillbench: error: ${e.message}\n`);
      return 2;
    }
    process.stderr.write(`skillbench: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    return 3;
  }
  return exitCode;
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
