import { readFile } from "node:fs/promises";
import path from "node:path";
import type { AgentDriver, AgentEndpoint } from "../agents/index.js";
import { InputError } from "../core/errors.js";
import {
  loadModelScript,
  runBaseUrl,
  scriptServesRole,
  startModelServer,
  type ModelServer,
  type StartModelServerOptions,
} from "../model/index.js";
import { SCRIPTED_MODEL_LABEL } from "../report/endpoint.js";
import type { Suite } from "../suite/index.js";
import { sha256 } from "../util/hash.js";
import type { Endpoint, RunContext, RunKey } from "./context.js";
import { createModelApiTracker, type ModelApiTracker } from "./model-api.js";
import type { RunOptions } from "./run-options.js";

/** The model endpoint of an experiment, and the scripted model server when skillbench runs one. */
export interface ModelSetup {
  endpoint: RunContext["models"]["endpoint"];
  server: ModelServer | null;
  scriptHasJudge: boolean;
  scriptId: string;
  tracker: ModelApiTracker | null;
  /** The model script in use (as given), if any. */
  scriptFile: string | undefined;
}

/** The model endpoint of a non-Anthropic agent from the host's environment (no scripted server). */
function liveEndpoint(
  api: AgentDriver["api"],
  hostEnv: Record<string, string | undefined>,
): AgentEndpoint {
  return api === "gemini"
    ? { baseUrl: hostEnv.GOOGLE_GEMINI_BASE_URL, apiKey: hostEnv.GEMINI_API_KEY }
    : { baseUrl: hostEnv.OPENAI_BASE_URL, apiKey: hostEnv.OPENAI_API_KEY };
}

/** The Anthropic endpoint from the host's environment (the simulator may have its own). */
function anthropicEndpoint(
  hostEnv: Record<string, string | undefined>,
  role: "subject" | "simulator" | "judge",
): Endpoint {
  return {
    baseUrl:
      role === "simulator"
        ? (hostEnv.SKILLBENCH_SIMULATOR_BASE_URL ?? hostEnv.ANTHROPIC_BASE_URL)
        : hostEnv.ANTHROPIC_BASE_URL,
    apiKey: hostEnv.ANTHROPIC_API_KEY,
    authToken: hostEnv.ANTHROPIC_AUTH_TOKEN,
  };
}

/**
 * Choose the model endpoint every run's agents use, starting the scripted model server when a
 * script is given. Bad input (no endpoint at all) is an InputError naming the flag.
 */
export async function setUpModel(a: {
  opts: RunOptions;
  cfg: Suite["config"];
  hostEnv: Record<string, string | undefined>;
  cwd: string;
  /** The drivers of the agents the plans use (the live endpoint follows each one's API). */
  drivers: readonly AgentDriver[];
  modelLog: string;
  secrets: readonly string[];
  note: (message: string) => void;
  /** Meters each reply of the scripted model in this process (the budgets, runner/budget.ts). */
  meterFor?: StartModelServerOptions["meterFor"];
}): Promise<ModelSetup> {
  const note = a.note;
  // The model endpoint, in this order (docs/model-script.md): --model-script; else an explicit
  // ANTHROPIC_BASE_URL in the environment; else skillbench.yaml's model_script; else the
  // agent's default endpoint. The start-up line names the one in use and where it came from.
  const envBaseUrl = a.hostEnv.ANTHROPIC_BASE_URL;
  const suiteScriptIgnored =
    !a.opts.modelScript && Boolean(a.cfg.model_script) && Boolean(envBaseUrl);
  const scriptFile =
    a.opts.modelScript ?? (suiteScriptIgnored ? undefined : a.cfg.model_script) ?? undefined;
  const scriptSource = a.opts.modelScript ? "--model-script" : "skillbench.yaml model_script";
  let server: ModelServer | null = null;
  let scriptHasJudge = false;
  let scriptId = "";
  let tracker: ModelApiTracker | null = null;
  let endpoint: RunContext["models"]["endpoint"];
  const scripted = a.opts.queue?.scripted;
  if (scripted) {
    // A worker: the coordinator's scripted model serves every run.
    scriptHasJudge = scripted.hasJudge;
    scriptId = scripted.scriptId;
    endpoint = (run, role): Endpoint => ({
      baseUrl: runBaseUrl(scripted.url, { ...run, role }),
      apiKey: "sk-skillbench-scripted",
    });
  } else if (scriptFile) {
    const script = await loadModelScript(path.resolve(a.cwd, scriptFile));
    scriptHasJudge = scriptServesRole(script, "judge");
    scriptId = sha256(await readFile(path.resolve(a.cwd, scriptFile)));
    const t = createModelApiTracker();
    tracker = t;
    server = await startModelServer({
      script,
      scriptFile: path.resolve(a.cwd, scriptFile),
      recordFile: a.modelLog,
      onRequest: (run) => {
        t.onRequest(run);
      },
      onExchange: (entry) => {
        t.onExchange(entry);
      },
      secrets: a.secrets,
      meterFor: a.meterFor,
    });
    const url = server.url;
    note(
      `model endpoint: skillbench's scripted model server ${url} playing ${path.resolve(a.cwd, scriptFile)} (from ${scriptSource}) — ${SCRIPTED_MODEL_LABEL}`,
    );
    endpoint = (run, role): Endpoint => ({
      baseUrl: runBaseUrl(url, { ...run, role }),
      apiKey: "sk-skillbench-scripted",
    });
  } else if (a.drivers.some((d) => d.api !== "anthropic")) {
    // Each agent's runs go to its own API's endpoint from the environment (docs/agents.md).
    for (const d of a.drivers) {
      if (d.api === "anthropic") continue;
      const live = liveEndpoint(d.api, a.hostEnv);
      if (!live.apiKey && !a.opts.queue?.dispatch)
        throw new InputError(
          `no model endpoint for ${d.displayName}: set ${d.api === "gemini" ? "GEMINI_API_KEY (and GOOGLE_GEMINI_BASE_URL)" : "OPENAI_API_KEY (and OPENAI_BASE_URL)"}, or pass --model-script FILE`,
          { field: "--model-script" },
        );
    }
    const firstApi = a.drivers[0]?.api ?? "anthropic";
    const apiOf = (name: string | undefined): AgentDriver["api"] =>
      a.drivers.find((d) => d.name === name)?.api ?? firstApi;
    endpoint = (run, role): Endpoint => {
      const api = role === "subject" ? apiOf(run.agent) : "anthropic";
      return api === "anthropic"
        ? anthropicEndpoint(a.hostEnv, role)
        : liveEndpoint(api, a.hostEnv);
    };
  } else {
    // A coordinator needs no credentials: its workers take theirs from their own environment.
    if (!a.opts.queue?.dispatch && !a.hostEnv.ANTHROPIC_API_KEY && !a.hostEnv.ANTHROPIC_AUTH_TOKEN)
      throw new InputError(
        "no model endpoint: set ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN (and ANTHROPIC_BASE_URL), or pass --model-script FILE",
        { field: "--model-script" },
      );
    note(
      envBaseUrl
        ? `model endpoint: ${envBaseUrl} (from ANTHROPIC_BASE_URL in the environment)${suiteScriptIgnored ? "; skillbench.yaml model_script is ignored because ANTHROPIC_BASE_URL is set (pass --model-script to use the script)" : ""}`
        : "model endpoint: the agent's default (Anthropic API; ANTHROPIC_BASE_URL is not set)",
    );
    endpoint = (_run, role): Endpoint => anthropicEndpoint(a.hostEnv, role);
  }
  return { endpoint, server, scriptHasJudge, scriptId, tracker, scriptFile };
}

/**
 * The endpoint part of the runs' fingerprint (src/plan/fingerprint.ts): the scripted model and
 * its script's hash, or a live endpoint and its origin (`default`: the agent's own endpoint), as
 * the first planned run's agent reaches it.
 */
export function endpointFingerprint(
  models: Pick<ModelSetup, "server" | "scriptId" | "endpoint">,
  scriptedElsewhere: boolean,
  first: Omit<RunKey, "model"> | undefined,
): { endpoint: "scripted" | "live"; endpoint_at: string | null } {
  if (models.server !== null || scriptedElsewhere)
    return {
      endpoint: "scripted",
      endpoint_at: models.scriptId ? `sha256:${models.scriptId}` : null,
    };
  if (first === undefined) return { endpoint: "live", endpoint_at: null };
  const url = models.endpoint(first, "subject").baseUrl;
  let at = "default";
  if (url)
    try {
      at = new URL(url).origin;
    } catch {
      at = "unparsable URL";
    }
  return { endpoint: "live", endpoint_at: at };
}

/**
 * The model endpoint of agents called outside a run (`eval --generate`, `triggers`): the scripted
 * model server playing `scriptFile` (each call named to it as a run: task, treatment, rep), else
 * the host's endpoint for the agent's API. No Anthropic credential is bad input: `missing` is put
 * in front of the message ("--generate: ").
 */
export async function endpointOutsideRun(o: {
  api: AgentDriver["api"];
  scriptFile: string | null;
  recordFile: string;
  hostEnv: Record<string, string | undefined>;
  secrets: readonly string[];
  missing: string;
  /** The scripted model's meter of each reply (`triggers --budget-usd`, `--optimise`). */
  meterFor?: StartModelServerOptions["meterFor"] | undefined;
}): Promise<{ server: ModelServer | null; endpointFor: (run: RunKey) => Endpoint }> {
  if (o.scriptFile) {
    const server = await startModelServer({
      script: await loadModelScript(o.scriptFile),
      scriptFile: o.scriptFile,
      recordFile: o.recordFile,
      secrets: o.secrets,
      ...(o.meterFor ? { meterFor: o.meterFor } : {}),
    });
    const url = server.url;
    return {
      server,
      endpointFor: (run) => ({
        baseUrl: runBaseUrl(url, { ...run, role: "subject" }),
        apiKey: "sk-skillbench-scripted",
      }),
    };
  }
  if (o.api !== "anthropic") {
    const live = liveEndpoint(o.api, o.hostEnv);
    return { server: null, endpointFor: () => live };
  }
  if (!o.hostEnv.ANTHROPIC_API_KEY && !o.hostEnv.ANTHROPIC_AUTH_TOKEN)
    throw new InputError(
      `${o.missing}no model endpoint: set ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN (and ANTHROPIC_BASE_URL), or pass --model-script FILE`,
      { field: "--model-script" },
    );
  return { server: null, endpointFor: () => anthropicEndpoint(o.hostEnv, "subject") };
}
