#!/usr/bin/env node
// `skillbench run` overhead benchmark. Not a test.
//
//   node bench/run-overhead.mjs [--count 20] [--concurrency 1,2] [--rounds 1]
//                               [--out bench/results/run-overhead.md] [--keep]
//
// Runs the one-task, one-tool-call suite in bench/fixtures/overhead-suite through the
// BUILT CLI (dist/cli/main.js; build first: npm run build, or npm run bench) at each
// concurrency, and the same number of bare `claude -p` calls against the same scripted
// model (a model server started in this process) at the same concurrency, then prints
//   mode | concurrency | runs | wall s | per-run s | overhead ratio
// where the ratio is harness per-run / bare per-run at the same concurrency, and writes
// it to bench/results/run-overhead.md. Target: ratio below 1.5 at -j1.
//
// Both sides start from cold processes: the harness wall time includes node start-up,
// loading the suite, `claude --version`, the model server, workspaces, evidence parsing,
// validators, scoring and the reports; the bare side only a temp dir, the claude process
// and removing the temp dir. One untimed bare call warms the disk cache first.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const distIndex = path.join(root, 'dist/index.js');
const cliMain = path.join(root, 'dist/cli/main.js');
const suiteDir = path.join(here, 'fixtures/overhead-suite');
const scriptFile = path.join(suiteDir, 'model-script.yaml');
const TASK = 'write-file';
const ARTIFACT = 'out.txt';
const TARGET_J1 = 1.5;

function arg(name, dflt) {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : dflt;
}

function positiveInt(name, v) {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) {
    console.error(`${name} must be a positive whole number, got ${v}`);
    process.exit(2);
  }
  return n;
}

const count = positiveInt('--count', arg('--count', '20'));
const concurrencies = arg('--concurrency', '1,2')
  .split(',')
  .map((s) => positiveInt('--concurrency', s.trim()));
const rounds = positiveInt('--rounds', arg('--rounds', '1'));
const outFile = path.resolve(root, arg('--out', 'bench/results/run-overhead.md'));
const keep = process.argv.includes('--keep');

for (const f of [distIndex, cliMain]) {
  if (!existsSync(f)) {
    console.error(`missing ${path.relative(root, f)}: build first (npm run build)`);
    process.exit(2);
  }
}
const sb = await import(pathToFileURL(distIndex).href);

// ---------------------------------------------------------------- helpers

/** Run a command to completion; resolves with exit code, signal and captured output. */
function run(cmd, args, opts) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    const err = [];
    child.stdout.on('data', (c) => out.push(c));
    child.stderr.on('data', (c) => err.push(c));
    child.on('error', (e) => resolve({ code: null, signal: null, stdout: '', stderr: String(e) }));
    child.on('close', (code, signal) =>
      resolve({ code, signal, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }),
    );
  });
}

/** A tiny promise pool: run `n` jobs with at most `limit` at once; results in job order. */
async function pool(n, limit, job) {
  const results = new Array(n);
  let next = 0;
  const worker = async () => {
    while (next < n) {
      const i = next;
      next += 1;
      results[i] = await job(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, n) }, worker));
  return results;
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function tail(text, lines = 15) {
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}

/** Did the stream-json transcript end with a successful result event? */
function resultOk(stdout) {
  for (const line of stdout.split('\n').reverse()) {
    if (!line.trim()) continue;
    try {
      const ev = JSON.parse(line);
      if (ev && typeof ev === 'object' && ev.type === 'result') return ev.is_error === false;
    } catch {
      // not JSON: keep looking
    }
  }
  return false;
}

// ---------------------------------------------------------------- setup

const bin = sb.resolveClaudeBinary({ env: process.env });
if ('error' in bin) {
  console.error(bin.error);
  process.exit(2);
}
const suite = await sb.loadSuite(suiteDir);
const task = suite.tasks.find((t) => t.name === TASK);
if (!task) {
  console.error(`${suiteDir}: no task ${TASK}`);
  process.exit(2);
}
// The bare call gets the task's prompt exactly as written (the fixture has no placeholders).
const prompt = await readFile(path.join(suiteDir, 'tasks', TASK, 'instruction.md'), 'utf8');
const versionRun = await run(bin.path, ['--version'], { cwd: os.tmpdir(), env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: os.tmpdir() } });
const claudeVersion = /(\d+\.\d+\.\d+\S*)/.exec(versionRun.stdout)?.[1] ?? 'unknown';
const scratch = await mkdtemp(path.join(os.tmpdir(), 'skillbench-overhead-'));

// ---------------------------------------------------------------- the two modes

/** `skillbench run` of the fixture suite: `count` runs at `-j concurrency`. */
async function harness(concurrency, round) {
  const out = path.join(scratch, `harness-j${concurrency}-r${round}`);
  const args = [cliMain, 'run', suiteDir, '--model-script', scriptFile, '--count', String(count), '-j', String(concurrency), '--out', out];
  const t0 = performance.now();
  const r = await run(process.execPath, args, { cwd: root, env: { ...process.env, CI: '1' } });
  const ms = performance.now() - t0;
  const passed = Number(/(\d+)\/\d+ runs passed/.exec(r.stdout)?.[1] ?? 0);
  if (r.code !== 0 || passed !== count) {
    throw new Error(`skillbench run -j${concurrency} failed (exit ${r.code}, ${passed}/${count} passed):\n${tail(r.stdout + r.stderr)}`);
  }
  if (!keep) await rm(out, { recursive: true, force: true });
  return { ms, ok: passed };
}

/** `n` bare `claude -p` calls at `concurrency`, each in a fresh temp dir. */
async function bare(server, n, concurrency, round, label = 'BARE') {
  const one = async (i) => {
    const base = await mkdtemp(path.join(scratch, `bare-j${concurrency}-r${round}-${i + 1}-`));
    const ws = path.join(base, 'workspace');
    const dirs = { home: path.join(base, 'home'), config: path.join(base, 'config'), tmp: path.join(base, 'tmp') };
    await Promise.all([ws, ...Object.values(dirs)].map((d) => mkdir(d, { recursive: true })));
    const env = {
      PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
      HOME: dirs.home,
      CLAUDE_CONFIG_DIR: dirs.config,
      CLAUDE_CODE_TMPDIR: dirs.tmp,
      TMPDIR: dirs.tmp,
      IS_SANDBOX: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_AUTOUPDATER: '1',
      ANTHROPIC_API_KEY: 'sk-bench',
      ANTHROPIC_BASE_URL: sb.runBaseUrl(server.url, { task: TASK, treatment: label, rep: i + 1, role: 'subject' }),
    };
    const r = await run(bin.path, ['-p', prompt, '--output-format', 'stream-json', '--verbose', '--dangerously-skip-permissions'], { cwd: ws, env });
    const ok = r.code === 0 && resultOk(r.stdout) && existsSync(path.join(ws, ARTIFACT));
    if (!ok) console.error(`bare call ${i + 1} failed (exit ${r.code}):\n${tail(r.stdout + r.stderr)}`);
    if (!keep) await rm(base, { recursive: true, force: true });
    return ok;
  };
  const t0 = performance.now();
  const oks = await pool(n, concurrency, one);
  const ms = performance.now() - t0;
  const passed = oks.filter(Boolean).length;
  if (passed !== n) throw new Error(`bare claude -p (${label}) at concurrency ${concurrency}: ${passed}/${n} calls succeeded`);
  return { ms, ok: passed };
}

// ---------------------------------------------------------------- main

const server = await sb.startModelServer({ script: await sb.loadModelScript(scriptFile), scriptFile });
const rows = [];
let failed = null;
try {
  console.log(`claude ${claudeVersion} (${bin.path}); ${count} runs per measurement, ${rounds} round(s)`);
  // Warm-up (untimed): one bare call, so that neither mode pays for a cold disk cache.
  await bare(server, 1, 1, 0, 'WARMUP');
  for (const c of concurrencies) {
    const h = [];
    const b = [];
    for (let round = 1; round <= rounds; round += 1) {
      const hr = await harness(c, round);
      console.log(`skillbench run -j${c} round ${round}: ${(hr.ms / 1000).toFixed(2)} s for ${count} runs`);
      h.push(hr.ms);
      const br = await bare(server, count, c, round);
      console.log(`bare claude -p   -j${c} round ${round}: ${(br.ms / 1000).toFixed(2)} s for ${count} calls`);
      b.push(br.ms);
    }
    rows.push({ mode: 'bare claude -p', c, ms: median(b) });
    rows.push({ mode: 'skillbench run', c, ms: median(h), bareMs: median(b) });
  }
} catch (e) {
  failed = e;
} finally {
  await server.close();
  if (!keep) await rm(scratch, { recursive: true, force: true });
  else console.log(`kept ${scratch}`);
}
if (failed) {
  console.error(String(failed instanceof Error ? failed.message : failed));
  process.exit(1);
}

const fmt = (x, d = 2) => x.toFixed(d);
const table = [
  '| mode | concurrency | runs | wall s | per-run s | overhead ratio |',
  '| --- | ---: | ---: | ---: | ---: | ---: |',
  ...rows.map((r) => {
    const per = r.ms / 1000 / count;
    const ratio = r.bareMs ? r.ms / r.bareMs : 1;
    return `| ${r.mode} | ${r.c} | ${count} | ${fmt(r.ms / 1000)} | ${fmt(per, 3)} | ${fmt(ratio)}x |`;
  }),
];
const j1 = rows.find((r) => r.mode === 'skillbench run' && r.c === 1);
const j1Ratio = j1 ? j1.ms / j1.bareMs : null;
const verdict =
  j1Ratio === null
    ? `Target (harness per-run below ${TARGET_J1}x the bare call at -j1): not measured (no -j1 row).`
    : `Target: harness per-run below ${TARGET_J1}x the bare call at -j1 — **${j1Ratio < TARGET_J1 ? 'met' : 'NOT met'}** (${fmt(j1Ratio)}x; ` +
      `${fmt(((j1.ms - j1.bareMs) / 1000 / count) * 1000, 0)} ms of harness work per run).`;
const cpus = os.cpus();
const md = [
  '# `skillbench run` overhead benchmark',
  '',
  `Generated by \`bench/run-overhead.mjs\` on ${new Date().toISOString().slice(0, 10)}: ${cpus.length} CPUs (${cpus[0]?.model ?? 'unknown'}), ` +
    `node ${process.version}, ${os.platform()} ${os.release()}, claude ${claudeVersion}.`,
  `Workload: bench/fixtures/overhead-suite (one task; the scripted model makes one Write call, then ends), ${count} runs per row` +
    (rounds > 1 ? `, median wall time of ${rounds} rounds.` : '.'),
  '"skillbench run" is the whole CLI process (`node dist/cli/main.js run ... -j N`); "bare claude -p" is the same',
  'number of `claude -p` calls against the same scripted model, N at a time, each in a fresh temp dir, no harness.',
  'Overhead ratio = harness per-run / bare per-run at the same concurrency.',
  '',
  ...table,
  '',
  verdict,
  '',
].join('\n');
await mkdir(path.dirname(outFile), { recursive: true });
await writeFile(outFile, md);
console.log(`\n${md}\nwritten to ${path.relative(root, outFile)}`);
