/**
 * Escape attempts per sandbox (real claude binary, scripted model). The agent's Bash tries to
 * write into the results folder (via /tmp/..) and into the host's home folder, to read a file
 * planted in the host's home folder, and to read another run's workspace. bwrap and docker must
 * block each one; `local` does NOT (asserted, so that docs/sandbox.md stays honest).
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseModelScriptText, startModelServer, type ModelServer } from '../../src/model/index.js';
import { probeSandboxes, type SandboxKind } from '../../src/sandbox/index.js';
import { capture } from '../../src/sandbox/exec.js';
import { createRunDirs } from '../../src/workspace/prepare.js';
import { runInSandbox, toolOutputs } from '../fixtures/suites/e2e-sandbox/harness.js';

const probe = await probeSandboxes();
const baseImage = probe.dockerDaemon ? (await capture('docker', ['image', 'inspect', 'skillbench-base:bookworm'])).code === 0 : false;
// Outside CI a machine without bwrap or Docker tests what it has; under CI (.ci/run sets both up)
// every kind is tested, so a missing one fails instead of vanishing.
const inCi = process.env.CI === 'true';
const kinds: SandboxKind[] = ['local', ...(probe.bwrap || inCi ? (['bwrap'] as const) : []), ...(baseImage || inCi ? (['docker'] as const) : [])];

const tag = randomBytes(4).toString('hex');
const PLANTED_SECRET = `planted-home-secret-${tag}`;
const SIBLING_SECRET = `sibling-run-secret-${tag}`;
let base: string;
let resultsDir: string;
let planted: string;
let siblingFile: string;
let server: ModelServer;
const outputs = new Map<SandboxKind, string>();

function homeEscape(kind: SandboxKind): string {
  return path.join(homedir(), `skillbench-escape-${kind}-${tag}`);
}
function resultsEscape(kind: SandboxKind): string {
  return path.join(resultsDir, `escaped-${kind}.txt`);
}

function attempt(kind: SandboxKind): string {
  return [
    `echo x > /tmp/..${resultsEscape(kind)}; echo "W_RESULTS:$?"`,
    `echo x > ${homeEscape(kind)}; echo "W_HOME:$?"`,
    `cat ${planted}; echo "R_HOME:$?"`,
    `cat ${siblingFile}; echo "R_SIBLING:$?"`,
  ].join('; ');
}

beforeAll(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'skillbench-sbx-escape-'));
  resultsDir = path.join(base, 'results');
  await mkdir(resultsDir, { recursive: true });
  planted = path.join(homedir(), `skillbench-planted-${tag}.txt`);
  await writeFile(planted, `${PLANTED_SECRET}\n`);
  const sibling = await createRunDirs('sibling-run', path.join(base, 'runs'));
  siblingFile = path.join(sibling.workspace, 'secret.txt');
  await writeFile(siblingFile, `${SIBLING_SECRET}\n`);
  const rules = kinds
    .map(
      (k) => `
  - name: escape-${k}
    when: {task: escape-${k}}
    steps:
      - tool_use: {name: Bash, input: {command: ${JSON.stringify(attempt(k))}, description: escape}}
      - text: "Tried."`,
    )
    .join('');
  server = await startModelServer({ script: parseModelScriptText(`version: 1\nrules:${rules}\n`, 'escape.yaml') });
  for (const kind of kinds) {
    const r = await runInSandbox({ kind, scriptTask: `escape-${kind}`, serverUrl: server.url, base, runName: `escape-${kind}`, noEnvironment: true });
    expect(r.turn.outcome).toBe('completed');
    outputs.set(kind, (await toolOutputs(r.stdoutFile)).join('\n'));
  }
});

afterAll(async () => {
  await server.close();
  for (const k of kinds) await rm(homeEscape(k), { force: true });
  await rm(planted, { force: true });
  await rm(base, { recursive: true, force: true });
});

function status(out: string, name: string): number {
  const m = new RegExp(`${name}:(\\d+)`).exec(out);
  if (!m?.[1]) throw new Error(`${name} not printed in: ${out}`);
  return Number(m[1]);
}

describe('escape attempts', () => {
  it.each(kinds.filter((k) => k !== 'local'))('%s blocks every attempt', (kind) => {
    const out = outputs.get(kind) ?? '';
    expect(status(out, 'W_RESULTS')).not.toBe(0);
    expect(existsSync(resultsEscape(kind))).toBe(false);
    // bwrap: the hidden home is read-only; docker: the write lands in the container's own /root.
    if (kind === 'bwrap') expect(status(out, 'W_HOME')).not.toBe(0);
    expect(existsSync(homeEscape(kind))).toBe(false);
    expect(status(out, 'R_HOME')).not.toBe(0);
    expect(out).not.toContain(PLANTED_SECRET);
    expect(status(out, 'R_SIBLING')).not.toBe(0);
    expect(out).not.toContain(SIBLING_SECRET);
  });

  it('local does NOT block them (documented as unprotected)', () => {
    const out = outputs.get('local') ?? '';
    expect(status(out, 'W_RESULTS')).toBe(0);
    expect(existsSync(resultsEscape('local'))).toBe(true);
    expect(status(out, 'W_HOME')).toBe(0);
    expect(existsSync(homeEscape('local'))).toBe(true);
    expect(out).toContain(PLANTED_SECRET);
    expect(out).toContain(SIBLING_SECRET);
  });
});
