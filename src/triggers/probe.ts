/**
 * One probe end to end: a fresh workspace and agent config folder of its own, the Skill
 * installed beside its neighbours and the decoys, the agent asked the query once (stopped as
 * soon as it has chosen), the outcome classified; invalid attempts re-run up to a limit.
 * Never throws: a fault of skillbench itself is an invalid attempt (`harness_error`).
 */
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { buildAgentEnv } from "../agents/claude/env.js";
import type { ResolvedBinary } from "../agents/claude/binary.js";
import { errorMessage } from "../core/errors.js";
import type { Endpoint } from "../runner/context.js";
import {
  chooseSandbox,
  createSandbox,
  type Sandbox,
  type SandboxChoice,
  type LocalModelServer,
  type SandboxProbe,
} from "../sandbox/index.js";
import { writeJsonAtomic } from "../util/fs.js";
import type { Redactor } from "../util/redact.js";
import { redactValue } from "../util/redact.js";
import {
  createRunDirs,
  prepareWorkspace,
  removeRunDirs,
  type SkillToInstall,
} from "../workspace/prepare.js";
import { runClaudeProbe } from "../agents/claude/trigger.js";
import { classifyProbe } from "./classify.js";
import type { AttemptRecord, ProbeRecord, ProbeSpec } from "./types.js";

/** Everything a probe needs from the trigger evaluation around it. */
export interface ProbeContext {
  outDir: string;
  bin: ResolvedBinary;
  agentVersion: string | null;
  endpoint: (spec: ProbeSpec) => Endpoint;
  /** The scripted model server when it runs in this process (the sandbox's relay hands it its connections). */
  localModelServer?: LocalModelServer | undefined;
  model: string | null;
  declaredEnv: Record<string, string>;
  passEnv: string[];
  hostEnv: Record<string, string | undefined>;
  redact: Redactor;
  timeoutMs: number;
  maxTurns: number;
  /** Invalid attempts are re-run until this many attempts in all. */
  maxAttempts: number;
  sandbox: { choice: SandboxChoice; probe: SandboxProbe | null };
  tmpBase?: string | undefined;
  keepWorkspaces: boolean;
  /**
   * Files of the target's folder the agent must not see (the eval manifest, the query and
   * description files: they hold the answers), relative to it; removed from its installed copy.
   */
  hideFromTarget: string[];
  /** The target's name (what a decision is compared with). */
  target: string;
  /** The Skills installed for a variant. */
  skillsFor: (variant: string) => SkillToInstall[];
  /** The prompt of a query. */
  promptOf: (queryId: string) => string;
  /** Aborted on the second Ctrl-C: running agents are killed, nothing is recorded. */
  signal: AbortSignal;
  note: (message: string) => void;
}

/** probes/<variant>/<query id>/r<rep>/ */
export function probeDir(outDir: string, spec: ProbeSpec): string {
  return path.join(outDir, "probes", spec.variant, spec.query_id, `r${spec.rep}`);
}

async function runAttempt(
  ctx: ProbeContext,
  spec: ProbeSpec,
  attempt: number,
): Promise<AttemptRecord | null> {
  const started = Date.now();
  const dir = probeDir(ctx.outDir, spec);
  let dirs: Awaited<ReturnType<typeof createRunDirs>> | null = null;
  let sandbox: Sandbox | null = null;
  try {
    dirs = await createRunDirs(
      `trigger-${spec.variant}-${spec.query_id}-r${spec.rep}-a${attempt}`,
      ctx.tmpBase,
    );
    await prepareWorkspace({
      workspace: dirs.workspace,
      environmentDir: null,
      skills: ctx.skillsFor(spec.variant),
      claudeMd: null,
    });
    const installed = path.join(dirs.workspace, ".claude", "skills", ctx.target);
    for (const rel of ctx.hideFromTarget)
      await rm(path.join(installed, rel), { recursive: true, force: true });
    const chosen = chooseSandbox(
      ctx.sandbox.choice,
      { hasDockerfile: false },
      ctx.sandbox.probe ?? { dockerDaemon: false, bwrap: false },
    );
    // The same line as a run's (runner/run-one.ts): local is said with its warning, whether
    // requested or what auto fell back to.
    ctx.note(
      chosen.kind === "local"
        ? `warning: sandbox for probes: ${chosen.why}`
        : `sandbox for probes: ${chosen.kind} (${chosen.why})`,
    );
    const endpoint = ctx.endpoint(spec);
    sandbox = await createSandbox(chosen.kind, {
      runDirs: dirs,
      task: { environmentDir: null },
      agentBin: ctx.bin.path,
      resultsDir: ctx.outDir,
      modelEndpoint: endpoint.baseUrl,
      localModelServer: ctx.localModelServer,
      agentVersion: ctx.agentVersion ?? undefined,
      runName: `trigger-${spec.query_id}-r${spec.rep}`,
      why: chosen.why,
      signal: ctx.signal,
    });
    await sandbox.start();
    const env = buildAgentEnv({
      hostEnv: ctx.hostEnv,
      home: dirs.home,
      configDir: dirs.config,
      tmpDir: dirs.tmp,
      baseUrl: endpoint.baseUrl,
      apiKey: endpoint.apiKey,
      authToken: endpoint.authToken,
      model: ctx.model ?? undefined,
      declared: ctx.declaredEnv,
      passEnv: ctx.passEnv,
    });
    const res = await runClaudeProbe({
      bin: ctx.bin.path,
      workspace: dirs.workspace,
      prompt: ctx.promptOf(spec.query_id),
      env,
      model: ctx.model ?? undefined,
      maxTurns: ctx.maxTurns,
      timeoutMs: ctx.timeoutMs,
      signal: ctx.signal,
      stdoutFile: path.join(dir, `attempt-${attempt}.stdout.jsonl`),
      stderrFile: path.join(dir, `attempt-${attempt}.stderr.txt`),
      redact: ctx.redact,
      launcher: sandbox.launcher,
    });
    if (ctx.signal.aborted) return null;
    const outcome = classifyProbe(
      {
        decision: res.watched.decision,
        agentOutcome: res.turn.outcome,
        resultSubtype: res.watched.resultSubtype,
        detail: res.turn.detail,
      },
      ctx.target,
    );
    return {
      attempt,
      outcome,
      agent_outcome: res.turn.outcome,
      stopped_early: res.stoppedEarly,
      duration_ms: Date.now() - started,
      detail: res.stoppedEarly ? "stopped as soon as the Skill was chosen" : res.turn.detail,
    };
  } catch (e) {
    if (ctx.signal.aborted) return null;
    const detail = `skillbench could not run the probe: ${errorMessage(e)}`;
    return {
      attempt,
      outcome: { kind: "invalid", reason: "harness_error", detail },
      agent_outcome: "not_run",
      stopped_early: false,
      duration_ms: Date.now() - started,
      detail,
    };
  } finally {
    await sandbox?.stop();
    if (dirs && !ctx.keepWorkspaces) await removeRunDirs(dirs).catch(() => undefined);
  }
}

/**
 * Run a probe, re-running invalid attempts up to `maxAttempts`; write probes/…/probe.json
 * (its commit point, written last). Returns null when cancelled (nothing is recorded).
 */
export async function runProbe(ctx: ProbeContext, spec: ProbeSpec): Promise<ProbeRecord | null> {
  const dir = probeDir(ctx.outDir, spec);
  await mkdir(dir, { recursive: true });
  const attempts: AttemptRecord[] = [];
  for (let n = 1; n <= ctx.maxAttempts; n++) {
    const a = await runAttempt(ctx, spec, n);
    if (a === null) return null;
    attempts.push(a);
    if (a.outcome.kind !== "invalid") break;
  }
  const last = attempts[attempts.length - 1] as AttemptRecord;
  const record: ProbeRecord = {
    schema: "skillbench.trigger-probe.v1",
    probe_id: spec.probe_id,
    variant: spec.variant,
    query_id: spec.query_id,
    rep: spec.rep,
    attempts,
    outcome: last.outcome,
  };
  await writeJsonAtomic(path.join(dir, "probe.json"), redactValue(record, ctx.redact));
  return record;
}
