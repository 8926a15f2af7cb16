/**
 * OpenAI Codex CLI (`@openai/codex`): `codex exec --json` against the OpenAI Responses API.
 * State: CODEX_HOME per run, with a `config.toml` naming skillbench's model provider (the
 * built-in OpenAI provider does not honour a base URL offline). Skills: `.agents/skills/`.
 * Memory: AGENTS.md. skillbench is the sandbox, so Codex's own is bypassed.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { packageFiles, resolveBinary } from "../binary.js";
import { baseAgentEnv, tomlString } from "../env.js";
import { runDriverTurn } from "../run-turn.js";
import type { AgentDriver, AgentEnvRequest, PreparedAgent } from "../types.js";
import { versionOf } from "../version.js";
import { CODEX_TOOLS, CodexDecoder } from "./decoder.js";
import { codexTools } from "./tools.js";
import { runCodexProbe } from "./trigger.js";

const URL_VAR = "SKILLBENCH_MODEL_BASE_URL";
const KEY_VAR = "SKILLBENCH_MODEL_API_KEY";

/**
 * The model when none is given: one in Codex's bundled catalogue, so that it offers its plain
 * tool set (`exec_command`, `apply_patch`); an unknown name, or the CLI's own default here,
 * changes the tools offered (docs/agents.md).
 */
const CODEX_DEFAULT_MODEL = "gpt-5.5";

function triple(): string {
  return process.arch === "arm64" ? "aarch64-unknown-linux-musl" : "x86_64-unknown-linux-musl";
}

async function prepare(r: AgentEnvRequest): Promise<PreparedAgent> {
  const env = baseAgentEnv(r);
  env.CODEX_HOME = r.dirs.config;
  const lines: string[] = [];
  if (r.endpoint.baseUrl) {
    lines.push(
      `model_provider = "skillbench"`,
      ``,
      `[model_providers.skillbench]`,
      `name = "skillbench"`,
      `base_url = ${tomlString(`${r.endpoint.baseUrl.replace(/\/+$/, "")}/v1`)}`,
      `env_key = "${KEY_VAR}"`,
      `wire_api = "responses"`,
    );
    if (r.maxRetries !== undefined)
      lines.push(`request_max_retries = ${r.maxRetries}`, `stream_max_retries = ${r.maxRetries}`);
    env[KEY_VAR] = r.endpoint.apiKey ?? r.endpoint.authToken ?? "";
    // Not read by Codex: it tells a sandbox that this process talks to the endpoint, so that
    // bwrap and Docker start their model relay (src/sandbox/network.ts), which listens inside on
    // the endpoint's own loopback port: the base_url above then reaches it unchanged.
    env[URL_VAR] = r.endpoint.baseUrl;
  } else if (r.endpoint.apiKey) {
    env.OPENAI_API_KEY = r.endpoint.apiKey;
  }
  await writeFile(path.join(r.dirs.config, "config.toml"), `${lines.join("\n")}\n`);
  Object.assign(env, r.declared ?? {});
  const sandbox =
    r.tools === "all" || r.tools === undefined
      ? ["--dangerously-bypass-approvals-and-sandbox"]
      : ["--sandbox", "read-only"];
  return { env, baseArgs: ["exec", "--json", "--skip-git-repo-check", ...sandbox] };
}

export const codexDriver: AgentDriver = {
  name: "codex",
  aliases: [],
  reportName: "codex",
  displayName: "Codex CLI",
  packageName: "@openai/codex",
  api: "openai-responses",
  skillsDir: ".agents/skills",
  skillFolders: ["agents", "codex"],
  memoryFile: "AGENTS.md",
  telemetryProvider: "openai",
  scriptedTools: codexTools,
  toolVocabulary: CODEX_TOOLS,
  // A small coding task of about ten turns; the Responses API caches prompt prefixes by itself
  // (billed as cache reads, no cache-write price).
  typicalRun: { input: 60_000, output: 4_000, cache_read: 150_000, cache_write: 0, seconds: 120 },
  retryKnobs: [
    "model_providers.<id>.request_max_retries",
    "model_providers.<id>.stream_max_retries",
  ],
  resolveBinary: (o) =>
    resolveBinary({
      ...o,
      envVar: "SKILLBENCH_CODEX_BIN",
      fromPackage: () =>
        packageFiles([
          [`@openai/codex-${process.platform}-${process.arch}`, `vendor/${triple()}/bin/codex`],
          ["@openai/codex", "bin/codex.js"],
        ]),
      command: "codex",
      install: "run `npm install` with optional dependencies (it brings @openai/codex)",
    }),
  version: (bin, env, cwd) => versionOf(bin, ["--version"], env, cwd),
  prepare,
  // `exec --json …` comes from prepare(); a resumed turn is `… resume <thread id> <prompt>`.
  command: (r) => ({
    args: [
      "-m",
      r.model ?? CODEX_DEFAULT_MODEL,
      ...(r.extraArgs ?? []),
      ...(r.resume ? ["resume", r.resume] : []),
      r.prompt,
    ],
  }),
  decoder: (opts) => new CodexDecoder(opts),
  runTurn: (r) => runDriverTurn(codexDriver, r),
  probeTrigger: (i) => runCodexProbe(codexDriver, i),
};
