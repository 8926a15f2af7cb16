/**
 * `skillbench triggers`: plan the probes (variants × queries × repetitions), run them in a
 * pool, each in isolation, and write triggers.json and triggers.md (docs/triggers.md).
 */
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { agentDriver, agentNames, defaultAgent, type AgentDriver } from "../agents/index.js";
import { InputError } from "../core/errors.js";
import type { Endpoint } from "../runner/context.js";
import type { AgentCallOptions } from "../agents/call.js";
import { startedSandbox } from "../runner/helper-sandbox.js";
import type { ConnectionMeter } from "../sandbox/relay.js";
import { endpointOutsideRun } from "../runner/model-endpoint.js";
import { runPool } from "../util/pool.js";
import {
  chooseSandbox,
  probeSandboxes,
  removeLeftovers,
  type SandboxChoice,
} from "../sandbox/index.js";
import { writeFileAtomic, writeJsonAtomic } from "../util/fs.js";
import { declaredSecrets, makeRedactor, redactValue, secretsFromEnv } from "../util/redact.js";
import { probeDir, runProbe, type ProbeContext } from "./probe.js";
import { loadQueries } from "./queries.js";
import { readTriggersSection } from "./manifest.js";
import { renderTriggersHtml } from "./html.js";
import { generateQueries } from "./generate.js";
import { MANIFEST_CANDIDATES } from "../manifest/load.js";
import { buildTriggersReport, renderTriggersMarkdown, type TriggersReport } from "./report.js";
import {
  decoysDir,
  readSkillFolder,
  readSkillsUnder,
  readVariants,
  skillsToInstall,
  type SkillFolder,
} from "./skills.js";
import { ProbeRecordSchema, type ProbeRecord, type ProbeSpec, type TriggerQuery } from "./types.js";
import { catalogInputs, type Catalog } from "./catalog.js";
import { loadPricing } from "../cost/pricing.js";
import { triggerBudget } from "./budget.js";
import { optimiseDescription, type OptimiseResult } from "./optimise/run.js";
import { splitQueries } from "./optimise/plan.js";
import { proposeDescription, writeOptimised } from "./optimise/io.js";
import {
  buildCatalogReport,
  renderCatalogHtml,
  renderCatalogMarkdown,
  type CatalogReport,
} from "./catalog-report.js";

export interface TriggerOptions {
  /** The Skill folder (holding SKILL.md). */
  skill: string;
  /** A YAML/JSON file of `{query, should_trigger}`. */
  queries?: string | undefined;
  /** Already loaded queries (the manifest's `triggers:` section or generated ones). */
  queryList?: { queries: TriggerQuery[]; source: string } | undefined;
  count?: number | undefined;
  concurrency?: number | undefined;
  out?: string | undefined;
  resume?: boolean | undefined;
  /** Folders of neighbouring Skills (each holds Skill folders). */
  neighbours?: string[] | undefined;
  /** No queries given: have the agent write them (frozen and reused; docs/triggers.md). */
  generate?: boolean | undefined;
  /** With generate: write a new set even when a frozen one matches. */
  regenerate?: boolean | undefined;
  /** Where frozen generated sets live (default .skillbench/cache/triggers). */
  cacheDir?: string | undefined;
  /** Install the bundled decoy Skills (default true). */
  decoys?: boolean | undefined;
  descriptionFiles?: string[] | undefined;
  model?: string | undefined;
  /** The probes' agent (`--agent`; default the default agent). */
  agent?: string | undefined;
  agentBin?: string | undefined;
  modelScript?: string | undefined;
  env?: Record<string, string> | undefined;
  passEnv?: string[] | undefined;
  /** Seconds per probe attempt (default 90). */
  timeoutSec?: number | undefined;
  /** The agent's turn budget per probe (default 4). */
  maxTurns?: number | undefined;
  /** Attempts per probe when they are invalid (default 3: two re-runs). */
  maxAttempts?: number | undefined;
  sandbox?: SandboxChoice | undefined;
  keepWorkspaces?: boolean | undefined;
  hostEnv?: Record<string, string | undefined>;
  cwd?: string;
  tmpBase?: string | undefined;
  stopSignal?: AbortSignal;
  killSignal?: AbortSignal;
  onProgress?: (e: TriggerProgress) => void;
  /** `--optimise ROUNDS`: rounds of the description optimiser (docs/triggers.md). */
  optimise?: number | undefined;
  /** `--optimiser-model`: the proposer's model (default: the probes'). */
  optimiserModel?: string | undefined;
  /** `--budget-usd`: what the evaluation's model calls may spend, metered. */
  budgetUsd?: number | undefined;
  /** `--pricing FILE`: the table the metered spend is priced with. */
  pricing?: string | undefined;
}

export type TriggerProgress =
  | { type: "plan"; total: number; toRun: number; outDir: string }
  | { type: "probe"; probe: ProbeSpec; record: ProbeRecord | null; done: number; total: number }
  | { type: "note"; message: string };

export interface TriggerSummary {
  outDir: string;
  /** A Skill's report; null for a catalog (`catalog`). */
  report: TriggersReport | null;
  /** A catalog's report (`triggers CATALOG_DIR`); null for a Skill. */
  catalog: CatalogReport | null;
  files: string[];
  /** Probes planned but not run (interrupted). */
  notRun: ProbeSpec[];
}

const TRIGGER_DEFAULTS = { count: 3, timeoutSec: 90, maxTurns: 4, maxAttempts: 3 };

function positive(name: string, v: number | undefined, dflt: number): number {
  if (v === undefined) return dflt;
  if (!Number.isInteger(v) || v < 1)
    throw new InputError(`${name}: expected a positive whole number, got ${v}`, { field: name });
  return v;
}

type ProbingDriver = AgentDriver & Required<Pick<AgentDriver, "probeTrigger">>;

/**
 * The probes' agent by name (`--agent`), refused (exit 2) when it is unknown or has no Skill
 * mechanism whose choice its stream shows (no `probeTrigger`).
 */
export function probingDriver(name: string | undefined): ProbingDriver {
  const agent = name === undefined ? defaultAgent() : agentDriver(name);
  if (agent === null)
    throw new InputError(`--agent ${name}: unknown agent; use one of ${agentNames().join(", ")}`, {
      field: "--agent",
    });
  const probeTrigger = agent.probeTrigger?.bind(agent);
  if (!probeTrigger)
    throw new InputError(
      `--agent ${agent.name}: ${agent.displayName} cannot be probed for triggers: it has no Skill mechanism whose choice its stream shows (docs/triggers.md)`,
      { field: "--agent" },
    );
  return { ...agent, probeTrigger };
}

/** The model when none is given: ANTHROPIC_MODEL only means something to an Anthropic-API CLI. */
function defaultModel(
  driver: AgentDriver,
  hostEnv: Record<string, string | undefined>,
): string | null {
  return driver.api === "anthropic" ? (hostEnv.ANTHROPIC_MODEL ?? null) : null;
}

/** Every probe, in a stable order: variant, query, repetition. Pure. */
export function planProbes(
  variants: string[],
  queries: TriggerQuery[],
  count: number,
): ProbeSpec[] {
  const out: ProbeSpec[] = [];
  for (const v of variants)
    for (const q of queries)
      for (let rep = 1; rep <= count; rep++)
        out.push({ probe_id: `${v}/${q.id}/r${rep}`, variant: v, query_id: q.id, rep });
  return out;
}

/** A results folder's name: the time and a random suffix. */
export function newId(): string {
  const d = new Date();
  const p = (n: number): string => String(n).padStart(2, "0");
  return `${d.getFullYear()}${p(d.getMonth() + 1)}${p(d.getDate())}-${p(d.getHours())}${p(d.getMinutes())}${p(d.getSeconds())}-${randomBytes(3).toString("hex")}`;
}

async function readStoredProbe(outDir: string, spec: ProbeSpec): Promise<ProbeRecord | null> {
  try {
    const parsed = ProbeRecordSchema.safeParse(
      JSON.parse(await readFile(path.join(probeDir(outDir, spec), "probe.json"), "utf8")),
    );
    return parsed.success && parsed.data.probe_id === spec.probe_id ? parsed.data : null;
  } catch {
    return null;
  }
}

/** What a trigger evaluation settles before anything runs (shared with `planTriggers`). */
async function triggerInputs(opts: TriggerOptions, cwd: string) {
  // A folder of Skill folders is a catalog: every Skill's queries against all of them (catalog.ts).
  const cat = await catalogInputs(path.resolve(cwd, opts.skill), opts);
  const catalog: Catalog | null = cat?.catalog ?? null;
  const target: SkillFolder =
    cat?.target ?? (await readSkillFolder(path.resolve(cwd, opts.skill), "SKILL_DIR"));
  // The manifest's triggers: section; flags win over it.
  const section = catalog ? null : await readTriggersSection(target.dir);
  if (section)
    opts.onProgress?.({ type: "note", message: `triggers settings from ${section.manifest}` });
  const count = positive("--count", opts.count ?? section?.count, TRIGGER_DEFAULTS.count);
  const concurrency = positive("--concurrency", opts.concurrency, 1);
  if (opts.optimise !== undefined) {
    positive("--optimise", opts.optimise, 1);
    if (catalog || opts.descriptionFiles?.length)
      throw new InputError(
        `--optimise: not with ${catalog ? "a catalog" : "--description-file"}: it improves one Skill's own description`,
        { field: "--optimise" },
      );
  }
  if (opts.budgetUsd !== undefined && !(Number.isFinite(opts.budgetUsd) && opts.budgetUsd > 0))
    throw new InputError(`--budget-usd: expected a number above 0, got ${opts.budgetUsd}`, {
      field: "--budget-usd",
    });
  const timeoutSec = positive(
    "--timeout",
    opts.timeoutSec ?? section?.timeoutSec,
    TRIGGER_DEFAULTS.timeoutSec,
  );
  const maxTurns = positive(
    "--max-turns",
    opts.maxTurns ?? section?.maxTurns,
    TRIGGER_DEFAULTS.maxTurns,
  );
  const maxAttempts = positive(
    "--max-attempts",
    opts.maxAttempts ?? section?.maxAttempts,
    TRIGGER_DEFAULTS.maxAttempts,
  );
  let queries: TriggerQuery[] = [];
  let queriesSource = "";
  if (catalog) {
    queries = catalog.queries;
    queriesSource = catalog.dir;
  } else if (opts.queryList) {
    queries = opts.queryList.queries;
    queriesSource = opts.queryList.source;
  } else if (opts.queries) {
    queriesSource = path.resolve(cwd, opts.queries);
    queries = await loadQueries(queriesSource);
  } else if (section?.queries) {
    queries = section.queries.queries;
    queriesSource = section.queries.source;
  } else if (!opts.generate)
    throw new InputError(
      "no trigger queries: pass --queries FILE (a YAML or JSON list of {query, should_trigger}), add a triggers: section with queries to the Skill's eval.yaml, or pass --generate",
      { field: "--queries" },
    );
  // The optimiser's split needs both kinds of query twice: refused before anything starts.
  if (opts.optimise !== undefined && queries.length > 0) splitQueries(queries);
  const variants =
    cat?.variants ??
    (await readVariants(
      target,
      opts.descriptionFiles?.length
        ? opts.descriptionFiles.map((f) => path.resolve(cwd, f))
        : (section?.descriptionFiles ?? []),
    ));
  const neighbours: SkillFolder[] = [];
  const neighbourDirs = opts.neighbours?.length
    ? opts.neighbours.map((d) => path.resolve(cwd, d))
    : (section?.neighbours ?? []);
  for (const dir of neighbourDirs) {
    // A folder that is itself a Skill is one neighbour; otherwise each Skill folder inside it.
    if (existsSync(path.join(dir, "SKILL.md")))
      neighbours.push(await readSkillFolder(dir, "--neighbours"));
    else neighbours.push(...(await readSkillsUnder(dir, "--neighbours")));
  }
  const decoys =
    (opts.decoys ?? section?.decoys) === false ? [] : await readSkillsUnder(decoysDir(), "decoys");
  // Neighbours first: a decoy never hides a real neighbour of the same name.
  const others = [...neighbours.filter((n) => n.dir !== target.dir), ...decoys];
  const installs = new Map(
    variants.map((v) => [v.name, cat ? cat.install(others) : skillsToInstall(target, v, others)]),
  );
  const firstInstall = installs.get(variants[0]?.name ?? "");
  const installedNames = new Set(firstInstall?.names ?? []);
  return {
    target,
    catalog,
    section,
    count,
    concurrency,
    timeoutSec,
    maxTurns,
    maxAttempts,
    queries,
    queriesSource,
    variants,
    neighbours,
    others,
    installs,
    firstInstall,
    installedNames,
    decoys,
  };
}

/**
 * `triggers --dry-run`: the probes that would run (queries to be generated are not known yet).
 * `agents` (`--agent a,b`, checked by `probingAgents`): every one of them runs the same probes,
 * each with its own model; absent: `opts.agent` alone.
 */
export async function planTriggers(
  opts: TriggerOptions,
  agents?: readonly string[],
): Promise<{
  probes: ProbeSpec[];
  count: number;
  concurrency: number;
  timeoutSec: number;
  maxTurns: number;
  /** No queries yet: `--generate` would write them first. */
  queriesPending: boolean;
  /** The first agent's model (null: the agent's default). */
  model: string | null;
  /** Each agent that runs the probes, in the order they run, with the model it is asked for. */
  agents: { agent: string; model: string | null }[];
  scripted: boolean;
}> {
  const hostEnv = opts.hostEnv ?? process.env;
  const i = await triggerInputs(opts, opts.cwd ?? process.cwd());
  // As runTriggers settles each agent's model (runTriggersOnAgents hands it one agent at a time).
  const each = (agents ?? [opts.agent]).map((a) => {
    const driver = probingDriver(a);
    return { agent: driver.name, model: opts.model ?? defaultModel(driver, hostEnv) };
  });
  return {
    probes: planProbes(
      i.variants.map((v) => v.name),
      i.queries,
      i.count,
    ),
    count: i.count,
    concurrency: i.concurrency,
    timeoutSec: i.timeoutSec,
    maxTurns: i.maxTurns,
    queriesPending: i.queries.length === 0,
    model: each[0]?.model ?? null,
    agents: each,
    scripted: opts.modelScript !== undefined,
  };
}

export async function runTriggers(opts: TriggerOptions): Promise<TriggerSummary> {
  const hostEnv = opts.hostEnv ?? process.env;
  const cwd = opts.cwd ?? process.cwd();
  const {
    target,
    catalog,
    section,
    count,
    concurrency,
    timeoutSec,
    maxTurns,
    maxAttempts,
    variants,
    neighbours,
    others,
    installs,
    firstInstall,
    installedNames,
    decoys,
    ...settled
  } = await triggerInputs(opts, cwd);
  // The generator may yet write the queries (below).
  let { queries, queriesSource } = settled;

  // The probe reads the agent's stream as it arrives: the driver's probeTrigger (docs/triggers.md).
  const driver = probingDriver(opts.agent);
  const bin = driver.resolveBinary({ agentBin: opts.agentBin, env: hostEnv });
  if ("error" in bin) throw new InputError(bin.error, { field: "--agent-bin" });

  const outDir = opts.out
    ? path.resolve(cwd, opts.out)
    : path.resolve(cwd, ".skillbench", "triggers", newId());
  if (opts.resume && !opts.out)
    throw new InputError("--resume needs --out DIR: the results folder of the interrupted run", {
      field: "--resume",
    });
  // What skillbench processes killed with -9 left (probe folders, escaped processes) goes
  // first, as a run's does (src/sandbox/leftovers.ts).
  const left = await removeLeftovers({
    tmpDirs: [...new Set([os.tmpdir(), opts.tmpBase ?? os.tmpdir()])],
    docker: "when-marked",
  });
  if (left.containers.length + left.folders.length + left.processes.length > 0)
    opts.onProgress?.({
      type: "note",
      message: `removed what skillbench processes that are gone left behind: ${left.containers.length} container(s), ${left.folders.length} temporary folder(s), ${left.processes.length} process(es)`,
    });
  if (!opts.resume && existsSync(path.join(outDir, "probes")))
    throw new InputError(
      `${outDir} already holds probes: pass --resume to complete it, or choose another --out`,
      {
        file: outDir,
        field: "--out",
      },
    );
  await mkdir(outDir, { recursive: true });

  // --budget-usd and --optimise meter the model's replies (triggers/budget.ts); else nothing is metered.
  const budget =
    opts.budgetUsd !== undefined || opts.optimise !== undefined
      ? triggerBudget(opts.budgetUsd ?? null, await loadPricing(opts.pricing), driver.name)
      : null;
  const declaredEnv = opts.env ?? {};
  const passEnv = opts.passEnv ?? [];
  const redact = makeRedactor([...secretsFromEnv(hostEnv), ...declaredSecrets(declaredEnv)]);
  const model = opts.model ?? defaultModel(driver, hostEnv);
  const scriptFile = opts.modelScript ? path.resolve(cwd, opts.modelScript) : null;
  const { server, endpointFor } = await endpointOutsideRun({
    api: driver.api,
    scriptFile,
    recordFile: path.join(outDir, "model.jsonl"),
    hostEnv,
    secrets: redact.secrets,
    missing: "",
    meterFor: budget?.meterFor,
  });

  // As `run` and `eval`: the probes' agent gets the best sandbox the machine offers (bwrap, else
  // docker, else local with the warning), unless told otherwise.
  const sandboxChoice = opts.sandbox ?? "auto";
  const chosen = chooseSandbox(
    sandboxChoice,
    { hasDockerfile: false },
    sandboxChoice === "local" ? { dockerDaemon: false, bwrap: false } : await probeSandboxes(),
  );
  const version = await driver.version(
    bin.path,
    { PATH: hostEnv.PATH ?? "/usr/bin:/bin", HOME: os.tmpdir() },
    cwd,
  );
  // The tool-less agent calls beside the probes (the query generator, the description proposer),
  // in the probes' sandbox: neither is less confined than they are.
  const sideCall = (c: {
    endpoint: AgentCallOptions["endpoint"];
    model: string | undefined;
    runName: string;
    who: string;
    note: (message: string) => void;
    meter?: ConnectionMeter | undefined;
  }): Omit<AgentCallOptions, "name"> => ({
    driver,
    bin: bin.path,
    tmpBase: opts.tmpBase,
    endpoint: c.endpoint,
    agent: { hostEnv, model: c.model, declared: declaredEnv, passEnv, tools: "none" },
    sandboxFor: startedSandbox(
      chosen.kind,
      {
        task: { environmentDir: null },
        resultsDir: outDir,
        localModelServer: server ?? undefined,
        agentVersion: version ?? undefined,
        runName: c.runName,
        why: chosen.why,
        signal: opts.killSignal,
        ...(c.meter === undefined ? {} : { meter: c.meter }),
      },
      { say: { who: c.who, note: c.note } },
    ),
  });
  if (opts.generate && queries.length === 0) {
    try {
      const g = await generateQueries({
        skill: target,
        neighbours: others.map((o) => ({ name: o.name, description: o.description })),
        agent: { name: driver.reportName, version },
        call: sideCall({
          endpoint: endpointFor({ task: "generate-triggers", treatment: "generator", rep: 1 }),
          model: model ?? undefined,
          runName: "trigger-generate",
          who: "the query generator",
          note: (message) => opts.onProgress?.({ type: "note", message }),
        }),
        model,
        cacheDir: opts.cacheDir
          ? path.resolve(cwd, opts.cacheDir)
          : path.resolve(cwd, ".skillbench", "cache", "triggers"),
        regenerate: opts.regenerate ?? false,
        outDir,
        timeoutMs: timeoutSec * 1000 * 2,
        signal: opts.killSignal ?? new AbortController().signal,
        redact,
      });
      queries = g.queries;
      queriesSource = g.file;
      opts.onProgress?.({
        type: "note",
        message: g.cached
          ? `generated queries reused from ${g.file} (--regenerate writes a new set)`
          : `generated ${g.queries.length} queries, frozen in ${g.file}`,
      });
    } catch (e) {
      await server?.close();
      throw e;
    }
  }
  if (!queries.some((q) => q.should_trigger) || !queries.some((q) => !q.should_trigger))
    opts.onProgress?.({
      type: "note",
      message: `the queries are all ${queries[0]?.should_trigger ? "should-trigger" : "should-not-trigger"}: ${queries[0]?.should_trigger ? "precision and the false-trigger rate" : "recall"} cannot be measured`,
    });
  const planned = planProbes(
    variants.map((v) => v.name),
    queries,
    count,
  );
  const stored = new Map<string, ProbeRecord>();
  if (opts.resume)
    for (const p of planned) {
      const r = await readStoredProbe(outDir, p);
      if (r) stored.set(p.probe_id, r);
    }
  const toRun = planned.filter((p) => !stored.has(p.probe_id));

  const said = new Set<string>();
  const queryById = new Map(queries.map((q) => [q.id, q]));
  // The model sees each probe as a run: task = query id, treatment = variant, rep.
  const endpoint = (s: ProbeSpec): Endpoint =>
    endpointFor({ task: s.query_id, treatment: s.variant, rep: s.rep });
  const ctx: ProbeContext = {
    outDir,
    driver,
    bin,
    agentVersion: version,
    endpoint,
    localModelServer: server ?? undefined,
    model,
    declaredEnv,
    passEnv,
    hostEnv,
    redact,
    timeoutMs: timeoutSec * 1000,
    maxTurns,
    maxAttempts,
    sandbox: chosen,
    tmpBase: opts.tmpBase,
    keepWorkspaces: opts.keepWorkspaces ?? false,
    hideFromTarget: catalog
      ? []
      : [
          ...MANIFEST_CANDIDATES,
          ...[section?.manifest, queriesSource, ...variants.map((v) => v.file)]
            .filter((f): f is string => typeof f === "string")
            .map((f) => path.relative(target.dir, f))
            .filter((r) => r !== "" && !r.startsWith("..") && !path.isAbsolute(r)),
        ],
    hideFrom: catalog?.hide,
    target: target.name,
    skillsFor: (v) => installs.get(v)?.install ?? [],
    promptOf: (id) => queryById.get(id)?.query ?? "",
    signal: opts.killSignal ?? new AbortController().signal,
    note: (message) => {
      if (said.has(message)) return;
      said.add(message);
      opts.onProgress?.({ type: "note", message });
    },
  };
  const startedAt = new Date().toISOString();
  // Under a budget every probe is metered and admitted first; the first refusal stops the starts.
  const budgetStop = new AbortController();
  const stopSignals = [budgetStop.signal, ...(opts.stopSignal ? [opts.stopSignal] : [])];
  const probeOne = async (
    spec: ProbeSpec,
  ): Promise<{ record: ProbeRecord | null; usd: number; refused: boolean }> => {
    if (!budget) return { record: await runProbe(ctx, spec), usd: 0, refused: false };
    const key = { id: spec.probe_id, task: spec.query_id, treatment: spec.variant, rep: spec.rep };
    const r = await budget.metered(key, (meter) => runProbe({ ...ctx, meter }, spec));
    if ("refused" in r) {
      if (!budgetStop.signal.aborted)
        ctx.note(`--budget-usd: ${r.refused}: no further probe starts`);
      budgetStop.abort();
      return { record: null, usd: 0, refused: true };
    }
    return { record: r.value, usd: r.usd, refused: false };
  };
  let done = stored.size;
  /** Run probes in the pool; their records go to `stored`. */
  const runSpecs = async (specs: ProbeSpec[], total: number): Promise<number> => {
    let usd = 0;
    await runPool(
      specs,
      concurrency,
      async (spec) => {
        if (budgetStop.signal.aborted) return;
        const { record, usd: spent, refused } = await probeOne(spec);
        usd += spent;
        if (refused) return;
        if (record) stored.set(spec.probe_id, record);
        done++;
        opts.onProgress?.({ type: "probe", probe: spec, record, done, total });
      },
      {
        stop: AbortSignal.any(stopSignals),
        onError: (spec, e) =>
          opts.onProgress?.({ type: "note", message: `${spec.probe_id}: ${String(e)}` }),
      },
    );
    return usd;
  };
  let optimised: OptimiseResult | null = null;
  const optimiseNotRun: ProbeSpec[] = [];
  try {
    if (opts.optimise !== undefined)
      optimised = await optimiseDescription({
        skill: target,
        queries,
        rounds: opts.optimise,
        others: others.map((o) => ({ name: o.name, description: o.description })),
        variantFor: async (round, description) => {
          const file = path.join(outDir, "optimise", `round-${round}.txt`);
          await mkdir(path.dirname(file), { recursive: true });
          await writeFileAtomic(file, `${description}\n`);
          // Round 0 is the Skill's own SKILL.md, byte for byte.
          const v = { name: `round-${round}`, description, file: round === 0 ? null : file };
          installs.set(v.name, skillsToInstall(target, v, others));
          return v;
        },
        probe: async (v, qs) => {
          const specs = planProbes([v.name], qs, count);
          const usd = await runSpecs(specs, specs.length);
          const records = specs.flatMap((p) => stored.get(p.probe_id) ?? []);
          optimiseNotRun.push(...specs.filter((p) => !stored.has(p.probe_id)));
          return {
            records,
            notRun: specs.length - records.length,
            usd,
            refused: budgetStop.signal.aborted ? (budget?.refusal() ?? "stopped") : null,
          };
        },
        propose: (prompt, round) =>
          proposeDescription({
            prompt,
            round,
            budget,
            outDir,
            timeoutMs: timeoutSec * 1000 * 2,
            signal: opts.killSignal ?? new AbortController().signal,
            redact,
            call: (meter) =>
              sideCall({
                endpoint: endpointFor({
                  task: "optimise-description",
                  treatment: `round-${round}`,
                  rep: 1,
                }),
                model: opts.optimiserModel ?? model ?? undefined,
                runName: `trigger-optimise-${round}`,
                who: "the description proposer",
                note: ctx.note,
                meter,
              }),
          }),
        note: ctx.note,
      });
    else {
      await writeJsonAtomic(path.join(outDir, "triggers-plan.json"), {
        schema: "skillbench.triggers-plan.v1",
        skill: target.name,
        skill_dir: target.dir,
        queries,
        variants,
        count,
        probes: planned.map((p) => p.probe_id),
        started_at: startedAt,
      });
      opts.onProgress?.({ type: "plan", total: planned.length, toRun: toRun.length, outDir });
      await runSpecs(toRun, planned.length);
    }
  } finally {
    await server?.close();
  }
  const records = optimised
    ? optimised.records
    : planned.map((p) => stored.get(p.probe_id)).filter((r): r is ProbeRecord => r !== undefined);
  const notRun = optimised ? optimiseNotRun : planned.filter((p) => !stored.has(p.probe_id));
  const common = {
    agent: { name: driver.reportName, version, bin: bin.path },
    model,
    modelScript: scriptFile,
    settings: {
      count,
      concurrency,
      max_turns: maxTurns,
      timeout_sec: timeoutSec,
      max_attempts: maxAttempts,
      sandbox: sandboxChoice,
    },
    installed: {
      neighbours: neighbours
        .map((n) => n.name)
        .filter((n) => installedNames.has(n) && n !== target.name),
      decoys: decoys
        .map((d) => d.name)
        .filter((n) => installedNames.has(n) && !neighbours.some((x) => x.name === n)),
      skipped: firstInstall?.skipped ?? [],
    },
    records,
    notRun: notRun.map((p) => p.probe_id),
    startedAt,
    finishedAt: new Date().toISOString(),
  };
  const jsonFile = path.join(outDir, "triggers.json");
  const mdFile = path.join(outDir, "triggers.md");
  const htmlFile = path.join(outDir, "triggers.html");
  const files = [jsonFile, mdFile, htmlFile];
  if (catalog) {
    const report = buildCatalogReport({
      ...common,
      catalog: {
        dir: catalog.dir,
        skills: catalog.skills.map((s) => ({ name: s.name, dir: s.dir, hash: s.hash })),
      },
      queries: catalog.queries,
      sources: catalog.sources,
    });
    await writeJsonAtomic(jsonFile, redactValue(report, redact));
    await writeFileAtomic(mdFile, redact(renderCatalogMarkdown(report)));
    await writeFileAtomic(htmlFile, redact(renderCatalogHtml(report)));
    return { outDir, report: null, catalog: report, files, notRun };
  }
  if (optimised) {
    const o = await writeOptimised(
      outDir,
      optimised,
      {
        ...common,
        skill: { name: target.name, dir: target.dir, hash: target.hash },
        queries,
        queriesSource,
        variants: [],
      },
      budget?.limits.usd ?? null,
      redact,
    );
    return { outDir, report: o.report, catalog: null, files: [...files, ...o.files], notRun };
  }
  const report = buildTriggersReport({
    ...common,
    skill: { name: target.name, dir: target.dir, hash: target.hash },
    queries,
    queriesSource,
    variants,
  });
  await writeJsonAtomic(jsonFile, redactValue(report, redact));
  await writeFileAtomic(mdFile, redact(renderTriggersMarkdown(report)));
  await writeFileAtomic(htmlFile, redact(renderTriggersHtml(report)));
  return { outDir, report, catalog: null, files, notRun };
}
