/**
 * opencode (`opencode-ai`): `opencode run --format json` with its built-in `anthropic` provider
 * pointed at the model endpoint. State: a private HOME (its XDG folders live under it) and a
 * config file named by OPENCODE_CONFIG. Skills: `.claude/skills/` (opencode reads them), invoked
 * with its `skill` tool. Memory: AGENTS.md. It has no retry setting.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { packageFiles, resolveBinary } from "../binary.js";
import { baseAgentEnv } from "../env.js";
import { runDriverTurn } from "../run-turn.js";
import type { AgentDriver, AgentEnvRequest, PreparedAgent } from "../types.js";
import { versionOf } from "../version.js";
import { OPENCODE_TOOLS, OpencodeDecoder } from "./decoder.js";
import { opencodeTools } from "./tools.js";
import { runOpencodeProbe } from "./trigger.js";
import { statSync } from "node:fs";

const OPENCODE_DEFAULT_MODEL = "claude-sonnet-4-5";

/** The model endpoint, for the config's {env:…} (and for a sandbox's relay). */
const URL_VAR = "SKILLBENCH_MODEL_BASE_URL";

async function prepare(r: AgentEnvRequest): Promise<PreparedAgent> {
  const env = baseAgentEnv(r);
  const file = path.join(r.dirs.config, "opencode.json");
  const allow = r.tools === "all" || r.tools === undefined ? "allow" : "deny";
  const model = r.model ?? OPENCODE_DEFAULT_MODEL;
  const config = {
    $schema: "https://opencode.ai/config.json",
    autoupdate: false,
    share: "disabled",
    model: `anthropic/${model}`,
    provider: {
      anthropic: {
        // Declared, so that a model outside opencode's bundled catalogue (a proxy's or the
        // scripted model's name, e.g. the judge's) is accepted rather than refused at start-up.
        ...(model !== OPENCODE_DEFAULT_MODEL ? { models: { [model]: { name: model } } } : {}),
        options: {
          // Through the environment ({env:…} is opencode's own substitution), where a sandbox
          // rewrites the endpoint to its model relay (src/sandbox/network.ts).
          ...(r.endpoint.baseUrl ? { baseURL: `{env:${URL_VAR}}/v1` } : {}),
          apiKey: r.endpoint.apiKey ?? r.endpoint.authToken ?? "",
        },
      },
    },
    permission: { edit: allow, bash: allow, webfetch: "deny" },
  };
  await writeFile(file, `${JSON.stringify(config, null, 2)}\n`);
  if (r.endpoint.baseUrl) env[URL_VAR] = r.endpoint.baseUrl.replace(/\/+$/, "");
  env.OPENCODE_CONFIG = file;
  env.OPENCODE_DISABLE_MODELS_FETCH = "true";
  env.OPENCODE_DISABLE_AUTOUPDATE = "true";
  // It fetches plugins from npm in the background at start-up; a run needs none of them.
  env.npm_config_registry = "http://127.0.0.1:9/";
  Object.assign(env, r.declared ?? {});
  return { env, baseArgs: ["run", "--format", "json"] };
}

function realBinary(p: string): boolean {
  try {
    return statSync(p).size > 100_000;
  } catch {
    return false;
  }
}

export const opencodeDriver: AgentDriver = {
  name: "opencode",
  aliases: ["opencode-ai"],
  reportName: "opencode",
  displayName: "opencode",
  packageName: "opencode-ai",
  api: "anthropic",
  skillsDir: ".claude/skills",
  skillFolders: ["claude", "opencode"],
  memoryFile: "AGENTS.md",
  // opencode can speak to several providers: none is named.
  telemetryProvider: null,
  scriptedTools: opencodeTools,
  toolVocabulary: OPENCODE_TOOLS,
  // A small coding task of about ten turns, as Claude Code's but with a smaller system prompt.
  typicalRun: {
    input: 30_000,
    output: 3_000,
    cache_read: 150_000,
    cache_write: 20_000,
    seconds: 90,
  },
  retryKnobs: [],
  resolveBinary: (o) =>
    resolveBinary({
      ...o,
      envVar: "SKILLBENCH_OPENCODE_BIN",
      fromPackage: () =>
        packageFiles([
          ["opencode-ai", "bin/opencode.exe"],
          [`opencode-${process.platform}-${process.arch}`, "bin/opencode"],
          [`opencode-${process.platform}-${process.arch}-baseline`, "bin/opencode"],
        ]),
      accept: realBinary,
      command: "opencode",
      install: "run `npm install` with optional dependencies (it brings opencode-ai)",
    }),
  version: (bin, env, cwd) => versionOf(bin, ["--version"], env, cwd),
  prepare,
  command: (r) => ({
    args: [...(r.resume ? ["--session", r.resume] : []), ...(r.extraArgs ?? []), r.prompt],
  }),
  decoder: (opts) => new OpencodeDecoder(opts),
  runTurn: (r) => runDriverTurn(opencodeDriver, r),
  probeTrigger: (i) => runOpencodeProbe(opencodeDriver, i),
};
