/**
 * One probe end to end: a fresh workspace and agent config folder of its own, the Skill
 * installed beside its neighbours and the decoys, the agent asked the query once (stopped as
 * soon as it has chosen), the outcome classified; invalid attempts re-run up to a limit.
 * Never throws: a fault of skillbench itself is an invalid attempt (`harness_error`).
 */
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { openAgentCall, type AgentCall } from "../agents/call.js";
import type { AgentDriver, ResolvedBinary } from "../agents/types.js";
import { errorMessage } from "../core/errors.js";
import type { Endpoint } from "../runner/context.js";
import { startedSandbox } from "../runner/helper-sandbox.js";
import type { LocalModelServer, SandboxKind } from "../sandbox/index.js";
import type { ConnectionMeter } from "../sandbox/relay.js";
import { writeJsonAtomic } from "../util/fs.js";
import type { Redactor } from "../util/redact.js";
import { redactValue } from "../util/redact.js";
import { prepareWorkspace, type SkillToInstall } from "../workspace/prepare.js";
import { classifyProbe } from "./classify.js";
import type { AttemptRecord, ProbeRecord, ProbeSpec } from "./types.js";

/** Everything a probe needs from the trigger evaluation around it. */
export interface ProbeContext {
  outDir: string;
  /** The probes' agent: its driver prepares the environment and runs the watched turn. */
  driver: AgentDriver & Required<Pick<AgentDriver, "probeTrigger">>;
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
  /** The probes' sandbox (the generator's too): chosen once, for a task without a Dockerfile. */
  sandbox: { kind: SandboxKind; why: string };
  tmpBase?: string | undefined;
  keepWorkspaces: boolean;
  /**
   * Files of the target's folder the agent must not see (the eval manifest, the query and
   * description files: they hold the answers), relative to it; removed from its installed copy.
   */
  hideFromTarget: string[];
  /** The same for other installed Skills, by name (a catalog: each Skill's manifest and queries). */
  hideFrom?: ReadonlyMap<string, string[]> | undefined;
  /** The meter of the probe's model traffic through its sandbox's relay or tap (triggers/budget.ts). */
  meter?: ConnectionMeter | undefined;
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
  let call: AgentCall | null = null;
  try {
    const endpoint = ctx.endpoint(spec);
    call = await openAgentCall({
      driver: ctx.driver,
      bin: ctx.bin.path,
      name: `trigger-${spec.variant}-${spec.query_id}-r${spec.rep}-a${attempt}`,
      tmpBase: ctx.tmpBase,
      endpoint,
      agent: {
        hostEnv: ctx.hostEnv,
        model: ctx.model ?? undefined,
        declared: ctx.declaredEnv,
        passEnv: ctx.passEnv,
      },
      setup: async (dirs) => {
        await prepareWorkspace({
          workspace: dirs.workspace,
          environmentDir: null,
          skills: ctx.skillsFor(spec.variant),
          // Where the probes' agent discovers Skills (its driver's folder).
          skillsDir: ctx.driver.skillsDir,
          claudeMd: null,
        });
        const installed = path.join(dirs.workspace, ctx.driver.skillsDir, ctx.target);
        for (const rel of ctx.hideFromTarget)
          await rm(path.join(installed, rel), { recursive: true, force: true });
        for (const [skill, rels] of ctx.hideFrom ?? [])
          for (const rel of rels)
            await rm(path.join(dirs.workspace, ".claude", "skills", skill, rel), {
              recursive: true,
              force: true,
            });
      },
      sandboxFor: startedSandbox(
        ctx.sandbox.kind,
        {
          task: { environmentDir: null },
          resultsDir: ctx.outDir,
          localModelServer: ctx.localModelServer,
          agentVersion: ctx.agentVersion ?? undefined,
          runName: `trigger-${spec.query_id}-r${spec.rep}`,
          why: ctx.sandbox.why,
          signal: ctx.signal,
          meter: ctx.meter,
        },
        { say: { who: "probes", note: ctx.note } },
      ),
      keep: ctx.keepWorkspaces,
    });
    // The probe's turn is the driver's own (it watches the stream): the prepared environment
    // and base arguments (Codex's `exec --json`, opencode's `run --format json`) go to it.
    const prepared = await call.prepare();
    const res = await ctx.driver.probeTrigger({
      bin: ctx.bin.path,
      workspace: call.dirs.workspace,
      prompt: ctx.promptOf(spec.query_id),
      env: prepared.env,
      baseArgs: prepared.baseArgs,
      model: ctx.model ?? undefined,
      maxTurns: ctx.maxTurns,
      timeoutMs: ctx.timeoutMs,
      signal: ctx.signal,
      stdoutFile: path.join(dir, `attempt-${attempt}.stdout.jsonl`),
      stderrFile: path.join(dir, `attempt-${attempt}.stderr.txt`),
      redact: ctx.redact,
      launcher: call.launcher,
    });
    if (ctx.signal.aborted) return null;
    const outcome = classifyProbe(
      {
        decision: res.watched.decision,
        agentOutcome: res.turn.outcome,
        resultSubtype: res.watched.resultSubtype,
        budgetSpent: res.budgetSpent,
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
      detail: res.stoppedEarly
        ? "stopped as soon as the Skill was chosen"
        : res.budgetSpent
          ? `stopped: ${ctx.maxTurns} tool calls without a Skill chosen (the turn budget)`
          : res.turn.detail,
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
    await call?.close();
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
