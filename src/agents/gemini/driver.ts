/**
 * Google Gemini CLI (`@google/gemini-cli`): `gemini -p … --output-format stream-json` against the
 * Gemini API (`streamGenerateContent?alt=sse`). State: GEMINI_CLI_HOME per run, with its
 * settings.json (API-key auth, attempts, no usage statistics). Skills: `.agents/skills/`, invoked
 * with `activate_skill`. Memory: GEMINI.md.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { packageFiles, resolveBinary } from "../binary.js";
import { baseAgentEnv } from "../env.js";
import { runDriverTurn } from "../run-turn.js";
import type { AgentDriver, AgentEnvRequest, PreparedAgent } from "../types.js";
import { versionOf } from "../version.js";
import { GEMINI_TOOLS, GeminiDecoder } from "./decoder.js";
import { geminiTools } from "./tools.js";
import { runGeminiProbe } from "./trigger.js";

/**
 * Without an explicit model the CLI first asks a router model which one to use (minutes of
 * retries against a scripted server); any name avoids it.
 */
const GEMINI_DEFAULT_MODEL = "gemini-2.5-pro";

async function prepare(r: AgentEnvRequest): Promise<PreparedAgent> {
  const env = baseAgentEnv(r);
  env.GEMINI_CLI_HOME = r.dirs.config;
  env.GEMINI_CLI_TRUST_WORKSPACE = "true";
  env.GEMINI_CLI_NO_RELAUNCH = "true";
  if (r.endpoint.baseUrl) env.GOOGLE_GEMINI_BASE_URL = r.endpoint.baseUrl.replace(/\/+$/, "");
  env.GEMINI_API_KEY = r.endpoint.apiKey ?? r.endpoint.authToken ?? "";
  const settings: Record<string, unknown> = {
    security: { auth: { selectedType: "gemini-api-key" } },
    privacy: { usageStatisticsEnabled: false },
    ...(r.maxRetries !== undefined
      ? { general: { maxAttempts: Math.min(10, Math.max(1, r.maxRetries + 1)) } }
      : {}),
  };
  await mkdir(path.join(r.dirs.config, ".gemini"), { recursive: true });
  await writeFile(
    path.join(r.dirs.config, ".gemini", "settings.json"),
    `${JSON.stringify(settings, null, 2)}\n`,
  );
  Object.assign(env, r.declared ?? {});
  // Headless mode offers the shell and file tools only under --yolo.
  return { env, baseArgs: r.tools === "all" || r.tools === undefined ? ["--yolo"] : [] };
}

export const geminiDriver: AgentDriver = {
  name: "gemini",
  aliases: ["gemini-cli"],
  reportName: "gemini",
  displayName: "Gemini CLI",
  packageName: "@google/gemini-cli",
  api: "gemini",
  skillsDir: ".agents/skills",
  skillFolders: ["agents", "gemini"],
  memoryFile: "GEMINI.md",
  telemetryProvider: "gcp.gemini",
  scriptedTools: geminiTools,
  toolVocabulary: GEMINI_TOOLS,
  // A small coding task of about ten turns; implicit caching covers part of the repeated prefix.
  typicalRun: { input: 150_000, output: 3_000, cache_read: 50_000, cache_write: 0, seconds: 90 },
  retryKnobs: ["settings general.maxAttempts"],
  resolveBinary: (o) =>
    resolveBinary({
      ...o,
      envVar: "SKILLBENCH_GEMINI_BIN",
      fromPackage: () => packageFiles([["@google/gemini-cli", "bundle/gemini.js"]]),
      command: "gemini",
      install: "run `npm install` with optional dependencies (it brings @google/gemini-cli)",
    }),
  version: (bin, env, cwd) => versionOf(bin, ["--version"], env, cwd),
  prepare,
  command: (r) => ({
    args: [
      "-p",
      r.prompt,
      "--output-format",
      "stream-json",
      "-m",
      r.model ?? GEMINI_DEFAULT_MODEL,
      ...(r.resume ? ["--resume", r.resume] : []),
      ...(r.extraArgs ?? []),
    ],
  }),
  decoder: (opts) => new GeminiDecoder(opts),
  runTurn: (r) => runDriverTurn(geminiDriver, r),
  probeTrigger: (i) => runGeminiProbe(geminiDriver, i),
};
