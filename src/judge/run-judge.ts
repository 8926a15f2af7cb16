import { profileJudge } from "../scoring/index.js";
import { redactValue } from "../util/redact.js";
import { aggregateVerdicts } from "./aggregate.js";
import { judgeCacheKey, type JudgeCache } from "./cache.js";
import type { ActiveJudgeConfig, JudgeConfig } from "./config.js";
import { judgeLine, judgeStatusLine, parseJudgeAnswer, type ParsedScore } from "./parse.js";
import {
  buildGenericPrompt,
  buildRepairPrompt,
  genericDimensions,
  withAnswerFormat,
  type Baseline,
} from "./prompts.js";
import { cliTransport } from "./transport-cli.js";
import { agentTransport } from "./transport-agent.js";
import { agentDriver, defaultAgent } from "../agents/index.js";
import { httpTransport } from "./transport-http.js";
import type { HelperSandbox } from "../sandbox/types.js";
import type {
  JudgeBlock,
  JudgeBudget,
  JudgeDimension,
  JudgeReply,
  JudgeTransport,
} from "./types.js";
import { dumpWorkspace } from "./workspace-dump.js";
import { judgeWorkspace } from "./workspace-reader.js";

/**
 * Runs the LLM judge over one run's workspace. Never throws for a judge
 * failure: an HTTP error, a timeout or an unparseable answer (after one repair
 * attempt) becomes a `failed` block that says why. Never touches rule scores.
 */

export interface RunJudgeInput {
  config: JudgeConfig;
  /** The run's profile: its `judge` hook, if any, replaces the generic prompt (docs/judge.md). */
  profile: string;
  /** The run's workspace (after the agent ran). */
  workspace: string;
  baseline: Baseline;
  rubricCriteria: readonly string[];
  /** The rendered task instruction, added to the generic prompt when given. */
  instruction?: string | null | undefined;
  cache?: JudgeCache | undefined;
  signal?: AbortSignal | undefined;
  /** Applied to the prompt before it is sent and hashed, and to everything in the block. */
  redact?: ((s: string) => string) | undefined;
  /** For the CLI transport: PATH, locale and retry knobs are taken from here (default process.env). */
  hostEnv?: Record<string, string | undefined> | undefined;
  /** The default agent's binary for the `cli` transport (default: its driver resolves it). */
  cliBin?: string | undefined;
  /** Where the CLI transport's private folders go (default: the OS temp dir). */
  scratchDir?: string | undefined;
  /** Named in the CLI transport's folders, so that leftover cleanup finds them (docs/sandbox.md). */
  experimentId?: string | undefined;
  /**
   * For the CLI transports (`claude` and `--judge-agent`): the sandbox each call runs in, around
   * its private folders (the run's kind; docs/sandbox.md). Absent: on the host.
   */
  sandboxFor?: HelperSandbox | undefined;
  /** Replaces the configured transport (tests). */
  transport?: JudgeTransport | undefined;
  /** The experiment's budget: each call is admitted by it and counted against it. */
  budget?: JudgeBudget | undefined;
}

/** A judge call the budget refused: its cause, first in the reason (docs/judge.md, "Fail closed"). */
const budgetCause = (why: string): string => `budget: ${why}`;

/** A dimension the judge gave no score: N/A (score null), with its cause as the reason. */
function notScored(name: string, cause: string): JudgeDimension {
  return { name, score: null, reason: cause, samples: [], spread: { min: 0, max: 0, stdev: 0 } };
}

function blankBlock(profile: string): JudgeBlock {
  return {
    status: "skipped",
    reason: "",
    profile,
    prompt_kind: null,
    model: null,
    transport: null,
    agent: null,
    dimensions: [],
    lines: [],
    samples_requested: 0,
    samples_parsed: 0,
    calls: 0,
    repairs: 0,
    tokens: null,
    cost_usd: null,
    cached: false,
    prompt_hash: null,
    answer_chars: null,
  };
}

/** The transport a judge config names (the pairwise stage asks through it too). */
export function makeTransport(
  c: ActiveJudgeConfig,
  i: Pick<
    RunJudgeInput,
    "transport" | "hostEnv" | "cliBin" | "scratchDir" | "experimentId" | "sandboxFor"
  >,
): JudgeTransport | { error: string } {
  if (i.transport) return i.transport;
  if (c.transport === "http") {
    if (c.baseUrl === null || c.credential === null)
      return { error: "http transport needs a base URL and a credential" };
    return httpTransport({
      baseUrl: c.baseUrl,
      credential: c.credential,
      model: c.model,
      maxTokens: c.maxTokens,
      timeoutMs: c.timeoutMs,
    });
  }
  const hostEnv = i.hostEnv ?? process.env;
  if (c.agent !== undefined && c.agent !== defaultAgent().name) {
    const driver = agentDriver(c.agent);
    if (driver === null) return { error: `unknown judge agent ${c.agent}` };
    const found = driver.resolveBinary({ env: hostEnv });
    if ("error" in found) return { error: found.error };
    return agentTransport({
      driver,
      bin: found.path,
      config: c,
      hostEnv,
      scratchDir: i.scratchDir,
      experimentId: i.experimentId,
      sandboxFor: i.sandboxFor,
    });
  }
  let bin = i.cliBin;
  if (bin === undefined) {
    const r = defaultAgent().resolveBinary({ env: hostEnv });
    if ("error" in r) return { error: r.error };
    bin = r.path;
  }
  return cliTransport({
    bin,
    config: c,
    hostEnv,
    scratchDir: i.scratchDir,
    experimentId: i.experimentId,
    sandboxFor: i.sandboxFor,
  });
}

class Usage {
  tokens: { input: number; output: number } | null = null;
  cost: number | null = null;
  calls = 0;
  add(r: JudgeReply): void {
    this.calls += 1;
    if (!r.ok) return;
    if (r.tokens)
      this.tokens = {
        input: (this.tokens?.input ?? 0) + r.tokens.input,
        output: (this.tokens?.output ?? 0) + r.tokens.output,
      };
    if (r.costUsd !== null) this.cost = (this.cost ?? 0) + r.costUsd;
  }
}

export async function runJudge(i: RunJudgeInput): Promise<JudgeBlock | null> {
  const c = i.config;
  if (!c.enabled) return null;
  const redact = i.redact ?? ((s: string) => s);
  const finish = (b: JudgeBlock): JudgeBlock => redactValue(b, redact);
  if ("skipped" in c) {
    return finish({
      ...blankBlock(i.profile),
      reason: c.skipped,
      lines: [judgeStatusLine("skipped", c.skipped)],
    });
  }
  const head: JudgeBlock = {
    ...blankBlock(i.profile),
    model: c.model,
    transport: c.transport,
    agent:
      c.transport === "cli" ? (agentDriver(c.agent ?? defaultAgent().name)?.name ?? null) : null,
    samples_requested: c.samples,
  };

  let prompt: string;
  let dims: string[];
  const own = profileJudge(i.profile);
  if (own !== null) {
    const made = await own.prompt(judgeWorkspace(i.workspace));
    if ("skipped" in made) {
      return finish({
        ...head,
        prompt_kind: own.kind,
        reason: made.skipped,
        lines: [judgeStatusLine("skipped", made.skipped)],
      });
    }
    dims = [...own.dimensions];
    prompt = withAnswerFormat(made.prompt, dims);
    head.prompt_kind = own.kind;
  } else {
    const dump = await dumpWorkspace(i.workspace);
    prompt = buildGenericPrompt({
      baseline: i.baseline,
      rubricCriteria: i.rubricCriteria,
      workspaceDump: dump.text,
      instruction: i.instruction,
    });
    dims = genericDimensions(i.rubricCriteria);
    head.prompt_kind = "generic";
    head.answer_chars = dump.text.length;
  }
  prompt = redact(prompt);
  const key = judgeCacheKey({
    model: c.model,
    prompt,
    // Another agent's CLI answers differently: its answers are cached apart.
    transport:
      c.agent !== undefined && c.agent !== defaultAgent().name ? `cli:${c.agent}` : c.transport,
    samples: c.samples,
    maxTokens: c.maxTokens,
    baseUrl: c.cacheEndpoint ?? c.baseUrl,
  });
  head.prompt_hash = key;

  const hit = i.cache ? await i.cache.get(key) : null;
  if (hit) {
    return finish({
      ...hit,
      profile: i.profile,
      cached: true,
      calls: 0,
      repairs: 0,
      tokens: { input: 0, output: 0 },
      cost_usd: 0,
    });
  }

  // Fail closed: every dimension the judge was asked for is N/A with the cause, never a score.
  const failWith = (reason: string, u?: Usage, repairs = 0): JudgeBlock =>
    finish({
      ...head,
      status: "failed",
      reason,
      dimensions: dims.map((name) => notScored(name, reason)),
      lines: [judgeStatusLine("failed", reason)],
      calls: u?.calls ?? 0,
      repairs,
      tokens: u?.tokens ?? null,
      cost_usd: u?.cost ?? null,
    });

  const transport = makeTransport(c, i);
  if ("error" in transport) return failWith(transport.error);

  const usage = new Usage();
  const verdicts: ParsedScore[][] = [];
  const failures: string[] = [];
  let repairs = 0;
  // A call the budget cannot cover is not started, and no later one either (fail closed).
  // (An object: the closure sets it, which narrowing of a plain `let` would not see.)
  const budgetStop: { refused: string | null } = { refused: null };
  const ask = async (text: string): Promise<JudgeReply | null> => {
    const why = (await i.budget?.admit()) ?? null;
    if (why !== null) {
      budgetStop.refused = budgetCause(why);
      return null;
    }
    const reply = await transport(text, i.signal);
    usage.add(reply);
    if (reply.ok) i.budget?.replied(c.model, reply.tokens);
    return reply;
  };
  for (let s = 0; s < c.samples; s++) {
    if (i.signal?.aborted) {
      failures.push("judge call cancelled");
      break;
    }
    const first = await ask(prompt);
    if (first === null) break;
    if (!first.ok) {
      failures.push(first.error);
      continue;
    }
    let verdict = parseJudgeAnswer(first.text, dims);
    if (!verdict.ok) {
      repairs += 1;
      const again = await ask(buildRepairPrompt(prompt, first.text, dims));
      if (again === null) {
        repairs -= 1;
        failures.push(`${verdict.reason}; the repair turn was not started`);
        break;
      }
      if (!again.ok) {
        failures.push(`${verdict.reason}; the repair attempt failed: ${again.error}`);
        continue;
      }
      const second = parseJudgeAnswer(again.text, dims);
      if (!second.ok) {
        failures.push(`${second.reason} (also after one repair attempt)`);
        continue;
      }
      verdict = second;
    }
    verdicts.push(verdict.scores);
  }
  const refused = budgetStop.refused;

  if (verdicts.length === 0) {
    const first = failures[0] ?? "no verdict";
    const reason =
      refused ??
      (c.samples > 1 && failures.length > 1
        ? `all ${failures.length} samples failed; first: ${first}`
        : first);
    return failWith(reason, usage, repairs);
  }
  const scored = aggregateVerdicts(dims, verdicts);
  const notes: string[] = [];
  const missing = dims.filter((d) => !scored.some((x) => x.name === d));
  if (missing.length > 0) notes.push(`not scored: ${missing.join(", ")}`);
  // A dimension no sample scored is N/A on this run, not left out (a gate on it fails closed).
  const dimensions = dims.map(
    (d) => scored.find((x) => x.name === d) ?? notScored(d, "the judge did not score it"),
  );
  if (failures.length > 0)
    notes.push(`${failures.length} of ${c.samples} samples failed; first: ${failures[0] ?? ""}`);
  if (refused !== null)
    notes.push(`${refused} (${verdicts.length} of ${c.samples} samples scored)`);
  const block: JudgeBlock = finish({
    ...head,
    status: "enabled_and_successful",
    reason: notes.join("; "),
    dimensions,
    lines: [
      ...scored.map((d) => judgeLine(d.name, d.score, d.reason)),
      judgeStatusLine("enabled_and_successful"),
    ],
    samples_parsed: verdicts.length,
    calls: usage.calls,
    repairs,
    tokens: usage.tokens,
    cost_usd: usage.cost,
  });
  if (i.cache && failures.length === 0 && refused === null) await i.cache.put(key, block);
  return block;
}
