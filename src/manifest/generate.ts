/**
 * `eval --generate`: for a Skill whose manifest has no tasks, the agent under evaluation (the
 * same CLI, in the same sandbox kind, with a time limit) writes 2–4 inline tasks from a bounded
 * snapshot of the Skill (snapshot.ts). The answer is checked against the manifest's task schema,
 * with one repair attempt, and frozen: `<Skill>/.skillbench/generated/<key>.yaml` (an eval
 * manifest holding the tasks) and `<key>.json` (the generation record: snapshot, agent, model,
 * attempts, cost), where key is the SHA-256 of {snapshot, agent, model, profile, generator
 * version}. A later eval with the same key reuses the frozen tasks without asking; `--regenerate`
 * replaces them. See docs/manifest.md, "Generated tasks".
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import YAML from "yaml";
import { z } from "zod";
import { askWithRepair } from "../agents/ask.js";
import { openAgentCall, type AgentCall } from "../agents/call.js";
import {
  agentNames,
  agentDriver,
  reportAgentName,
  type AgentDriver,
  type AgentEndpoint,
} from "../agents/index.js";
import { InputError } from "../core/errors.js";
import { SCRIPTED_MODEL_LABEL } from "../report/endpoint.js";
import { startedSandbox } from "../runner/helper-sandbox.js";
import { endpointOutsideRun } from "../runner/model-endpoint.js";
import type { RunOptions } from "../runner/run-suite.js";
import { chooseSandbox, probeSandboxes } from "../sandbox/index.js";
import { readJsonFile, writeFileAtomic, writeJsonAtomic } from "../util/fs.js";
import { canonicalJson, sha256 } from "../util/hash.js";
import { declaredSecrets, makeRedactor, secretsFromEnv } from "../util/redact.js";
import { YAML_MAX_ALIAS_COUNT } from "../util/yaml.js";
import { loadManifest, normalizeKeys, type LoadedManifest } from "./load.js";
import { InlineTaskSchema, MANIFEST_KIND, type InlineTask } from "./schema.js";
import {
  readSkillSnapshot,
  SNAPSHOT_MAX_BYTES,
  SNAPSHOT_MAX_FILES,
  type SkillSnapshot,
} from "./snapshot.js";
import { dollars } from "../util/format.js";

const GENERATOR_VERSION = "skillbench-eval-tasks-1";
/** The generator's run, as the model server sees it (docs/model-script.md, section 7). */
const GENERATOR_TASK = "generate-tasks";
const GENERATOR_TREATMENT = "generator";
const ANSWER_FILE = "eval-tasks.yaml";
const DEFAULT_TIMEOUT_SEC = 600;
/** SKILL.md is quoted in the prompt up to this size; the agent reads the rest from ./skill/. */
const PROMPT_SKILL_MD_BYTES = 48 * 1024;

const GenerationRecordSchema = z.object({
  schema: z.literal("skillbench.generated-tasks.v1"),
  key: z.string(),
  generator: z.string(),
  skill: z.string(),
  agent: z.object({ name: z.string(), version: z.string().nullable() }),
  model: z.string(),
  endpoint: z.string(),
  profile: z.string(),
  snapshot: z.object({
    files: z.array(z.object({ path: z.string(), bytes: z.number(), sha256: z.string() })),
    omitted: z.array(z.object({ path: z.string(), reason: z.string() })),
    bytes: z.number(),
    truncated: z.boolean(),
    limits: z.object({ files: z.number(), bytes: z.number() }),
  }),
  generation: z.object({
    generated_at: z.string(),
    attempts: z.number().int(),
    cost_usd: z.number().nullable(),
    tokens: z.object({ input: z.number(), output: z.number() }).nullable(),
    duration_ms: z.number(),
    sandbox: z.string(),
    transcripts: z.string(),
  }),
  tasks: z.array(z.string()),
  /**
   * SHA-256 of the frozen set's text as written (`<key>.yaml`): a set whose text no longer
   * matches was edited by hand. Absent in records written before it was kept.
   */
  tasks_sha256: z.string().optional(),
});
export type GenerationRecord = z.infer<typeof GenerationRecordSchema>;

export interface GeneratedTasks {
  tasks: InlineTask[];
  cached: boolean;
  /** The frozen manifest (`<key>.yaml`) and its record (`<key>.json`). */
  file: string;
  recordFile: string;
  key: string;
  /** null when a frozen set has no readable record beside it. */
  record: GenerationRecord | null;
  /**
   * Why the frozen set counts as edited by hand (no record, or its text is not the one the
   * generator froze); null when it is as generated. Only ever set with `acceptEdited`.
   */
  edited: string | null;
}

/** The cache key: what the generator saw, who answered, for which profile, and how. Pure. */
export function generationKey(i: {
  snapshot: SkillSnapshot;
  agent: { name: string; version: string | null };
  model: string;
  profile: string;
}): string {
  return sha256(
    canonicalJson({
      snapshot: {
        files: i.snapshot.files.map((f) => [f.path, f.sha256]),
        omitted: i.snapshot.omitted,
      },
      agent: i.agent,
      model: i.model,
      profile: i.profile,
      generator: GENERATOR_VERSION,
    }),
  );
}

/** The generator's request. Pure. */
function generatorPrompt(i: {
  skillName: string;
  profile: string;
  snapshot: SkillSnapshot;
  skillMd: string;
}): string {
  const listing = i.snapshot.files.map((f) => `- skill/${f.path} (${f.bytes} bytes)`).join("\n");
  const cut = Buffer.byteLength(i.skillMd) > PROMPT_SKILL_MD_BYTES;
  const quoted = cut
    ? Buffer.from(i.skillMd).subarray(0, PROMPT_SKILL_MD_BYTES).toString("utf8")
    : i.skillMd;
  return [
    `You are writing evaluation tasks for the agent Skill "${i.skillName}". A harness will give each`,
    "task's prompt to a coding agent, with and without the Skill installed, in a fresh folder that",
    "holds only the task's workspace files, and will then check what the agent left behind.",
    "",
    `The Skill's files are in ./skill/ (read them as you need):\n${listing}`,
    i.snapshot.omitted.length > 0
      ? `(${i.snapshot.omitted.length} more file(s) are left out of this snapshot.)`
      : "",
    "",
    "<skill_md>",
    quoted.trim(),
    cut ? "[… SKILL.md continues in skill/SKILL.md]" : "",
    "</skill_md>",
    "",
    "Write 2 to 4 tasks a user of this Skill would really ask for, each different, each small enough",
    "for a few minutes of work, and each checkable from the files the agent leaves. Answer with YAML",
    `only (in your reply, or written to ./${ANSWER_FILE}), in exactly this form:`,
    "",
    "tasks:",
    "  - name: short-kebab-name          # letters, digits, . _ -",
    "    prompt: What the user asks for, in their words.",
    "    workspace:                      # optional: files the folder starts with (path: text)",
    "      notes.md: |",
    "        ...",
    "    expect:                         # at least one check",
    "      files: [out.md]               # must exist",
    "      absent: [TODO.txt]            # must not exist",
    "      contains: {out.md: ['^# Title']}        # regexes the text must match",
    "      notContains: {out.md: ['lorem ipsum']}  # regexes it must not match",
    "      json: [{file: status.json, path: a.b, equals: 1}]",
    "      commands: [{run: 'python3 check.py'}]   # must exit 0",
    `      skillInvoked: true            # the ${i.skillName} Skill was used`,
    "    rubric: ['what a reviewer should look for']   # optional",
    "",
    `Use no other fields. The rubric profile is ${i.profile}.`,
  ]
    .filter((l) => l !== "")
    .join("\n");
}

function zodProblems(issues: readonly z.core.$ZodIssue[], at: string): string[] {
  return issues.map((iss) => {
    const where = [at, ...iss.path.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`))]
      .join("")
      .replace(/\.\[/g, "[");
    if (iss.code === "unrecognized_keys")
      return `${where}: unknown field(s) ${iss.keys.join(", ")}`;
    return `${where}: ${iss.message}`;
  });
}

/**
 * The tasks in a generator's answer: YAML or JSON (a fenced block is taken from prose), a
 * `tasks:` list or a bare list of 2–4 inline tasks, each valid against the manifest's task
 * schema, with inline workspace files and distinct names. Throws an Error listing every problem.
 */
export function parseGeneratedTasks(text: string): InlineTask[] {
  const fenced = /```(?:ya?ml|json)?[ \t]*\r?\n([\s\S]*?)```/.exec(text);
  const body = fenced?.[1] ?? text;
  let data: unknown;
  try {
    data = YAML.parse(body, { maxAliasCount: YAML_MAX_ALIAS_COUNT });
  } catch (e) {
    throw new Error(
      `the answer is not YAML or JSON: ${(e instanceof Error ? e.message : String(e)).split("\n")[0] ?? ""}`,
      { cause: e },
    );
  }
  const list: unknown =
    data !== null && typeof data === "object" && !Array.isArray(data) && "tasks" in data
      ? data.tasks
      : data;
  if (!Array.isArray(list)) throw new Error("expected a mapping with a tasks: list");
  if (list.length < 2 || list.length > 4)
    throw new Error(`expected 2 to 4 tasks, got ${list.length}`);
  const problems: string[] = [];
  const tasks: InlineTask[] = [];
  const names = new Set<string>();
  list.forEach((raw, i) => {
    const at = `tasks[${i}]`;
    const keyProblems: { field: string; message: string }[] = [];
    const norm = normalizeKeys(raw, ["tasks", i], keyProblems);
    for (const p of keyProblems) problems.push(`${p.field}: ${p.message}`);
    if (norm !== null && typeof norm === "object" && "source" in norm) {
      problems.push(`${at}.source: a generated task is written inline (no task folders)`);
      return;
    }
    const r = InlineTaskSchema.safeParse(norm);
    if (!r.success) {
      problems.push(...zodProblems(r.error.issues, at));
      return;
    }
    if (typeof r.data.workspace === "string")
      problems.push(`${at}.workspace: give the files inline (path: text), not a folder`);
    if (names.has(r.data.name)) problems.push(`${at}.name: ${r.data.name} is used twice`);
    names.add(r.data.name);
    tasks.push(r.data);
  });
  if (problems.length > 0) throw new Error(problems.join("; "));
  return tasks;
}

export interface GenerateTasksOptions extends Pick<
  RunOptions,
  | "agent"
  | "driver"
  | "agentBin"
  | "agentRetries"
  | "model"
  | "modelScript"
  | "env"
  | "passEnv"
  | "timeoutSec"
  | "sandbox"
  | "hostEnv"
  | "cwd"
  | "killSignal"
> {
  /** Ask the agent when no frozen set matches (`--generate`). */
  generate?: boolean | undefined;
  /** Ask even when a frozen set matches, and replace it (`--regenerate`). */
  regenerate?: boolean | undefined;
  /** Default `<Skill>/.skillbench/generated`. */
  cacheDir?: string | undefined;
  /** `--accept-edited`: run a frozen set edited by hand (else refused), labelled as such. */
  acceptEdited?: boolean | undefined;
  onNote?: ((message: string) => void) | undefined;
}

function firstOfList(v: string | undefined): string | undefined {
  return v?.includes(",") ? v.split(",")[0]?.trim() || undefined : v;
}

function resolveDriver(o: GenerateTasksOptions): AgentDriver {
  const name = o.agent ?? "claude";
  const driver = o.driver ?? agentDriver(name);
  if (driver === null)
    throw new InputError(`unknown agent "${name}": use one of ${agentNames().join(", ")}`, {
      field: "--agent",
    });
  return driver;
}

async function readRecord(file: string): Promise<GenerationRecord | null> {
  const raw: unknown = await readJsonFile(file).catch(() => null);
  const r = GenerationRecordSchema.safeParse(raw);
  return r.success ? r.data : null;
}

/** The frozen tasks for this Skill, agent, model and profile; generated first when allowed. */
export async function resolveGeneratedTasks(
  m: LoadedManifest,
  ctx: { skillName: string; profile: string; outDir: string },
  given: GenerateTasksOptions,
): Promise<GeneratedTasks | null> {
  // With several agents or models (`--agent a,b`, `--model a,b`) the tasks are one set for every
  // arm, so that the arms stay comparable: written and looked up as the first of each list.
  const o = { ...given, agent: firstOfList(given.agent), model: firstOfList(given.model) };
  const cwd = o.cwd ?? process.cwd();
  const hostEnv = o.hostEnv ?? process.env;
  const driver = resolveDriver(o);
  const bin = driver.resolveBinary({ agentBin: o.agentBin, env: hostEnv });
  if ("error" in bin) {
    // Without --generate this is only a look for a frozen set: the run says what is missing.
    if (!o.generate && !o.regenerate) return null;
    throw new InputError(bin.error, { field: "--agent-bin" });
  }
  const version = await driver.version(
    bin.path,
    { PATH: hostEnv.PATH ?? "/usr/bin:/bin", HOME: os.tmpdir() },
    cwd,
  );
  const scriptFile = o.modelScript ? path.resolve(cwd, o.modelScript) : null;
  const model =
    o.model ?? (driver.api === "anthropic" ? hostEnv.ANTHROPIC_MODEL : undefined) ?? null;
  // A set written by the scripted model is never reused against a real one (and vice versa).
  const modelKey = scriptFile
    ? `scripted:${sha256(await readFile(scriptFile)).slice(0, 16)}${model ? `/${model}` : ""}`
    : (model ?? "default");
  const { snapshot, contents } = await readSkillSnapshot(m.skillDir);
  const agent = { name: reportAgentName(driver.name), version };
  const key = generationKey({ snapshot, agent, model: modelKey, profile: ctx.profile });
  const cacheDir = o.cacheDir
    ? path.resolve(cwd, o.cacheDir)
    : path.join(m.skillDir, ".skillbench", "generated");
  const file = path.join(cacheDir, `${key}.yaml`);
  const recordFile = path.join(cacheDir, `${key}.json`);
  if (!o.regenerate && existsSync(file)) {
    // The generator's rules again: a hand edit cannot do what the generator's answer may not.
    const frozen = await loadManifest(file, { generated: true });
    const tasks = frozen.tasks.filter((t): t is InlineTask => !("source" in t));
    const record = await readRecord(recordFile);
    const edited = editedByHand(record, key, await readFile(file), recordFile);
    if (edited !== null && !o.acceptEdited)
      throw new InputError(
        `${file}: edited by hand: ${edited}. Run --regenerate to replace the set, or --accept-edited to run it as edited (labelled so in the console and eval.json)`,
        { file, field: "evaluation.tasks" },
      );
    return { tasks, cached: true, file, recordFile, key, record, edited };
  }
  if (!o.generate && !o.regenerate) return null;

  const genDir = path.join(ctx.outDir, "generation");
  await mkdir(genDir, { recursive: true });
  const declared = o.env ?? {};
  const redact = makeRedactor([...secretsFromEnv(hostEnv), ...declaredSecrets(declared)]);
  const { server, endpointFor } = await endpointOutsideRun({
    api: driver.api,
    scriptFile,
    recordFile: path.join(genDir, "model-requests.jsonl"),
    hostEnv,
    secrets: redact.secrets,
    missing: "--generate: ",
  });
  const endpoint = (attempt: number): AgentEndpoint =>
    endpointFor({ task: GENERATOR_TASK, treatment: GENERATOR_TREATMENT, rep: attempt });

  let call: AgentCall | null = null;
  try {
    // The sandbox the runs get (a task without a Dockerfile), so the generator is no less confined.
    const choice = o.sandbox ?? "auto";
    const chosen = chooseSandbox(
      choice,
      { hasDockerfile: false },
      choice === "local" ? { dockerDaemon: false, bwrap: false } : await probeSandboxes(),
    );
    const agentCall = (call = await openAgentCall({
      driver,
      bin: bin.path,
      name: GENERATOR_TASK,
      endpoint: endpoint(1),
      agent: {
        hostEnv,
        model: model ?? undefined,
        declared,
        passEnv: o.passEnv,
        maxRetries: o.agentRetries,
      },
      setup: async (dirs) => {
        for (const [rel, buf] of contents) {
          const dest = path.join(dirs.workspace, "skill", rel);
          await mkdir(path.dirname(dest), { recursive: true });
          await writeFile(dest, buf);
        }
      },
      sandboxFor: startedSandbox(chosen.kind, {
        task: { environmentDir: null },
        resultsDir: ctx.outDir,
        localModelServer: server ?? undefined,
        agentVersion: version ?? undefined,
        runName: GENERATOR_TASK,
        why: chosen.why,
        signal: o.killSignal,
      }),
    }));
    if (chosen.kind === "local")
      o.onNote?.(`warning: sandbox for the task generator: ${chosen.why}`);
    o.onNote?.(
      `generating tasks with ${driver.displayName} (${chosen.kind} sandbox): ${snapshot.files.length} file(s), ${snapshot.bytes} bytes of the Skill${snapshot.truncated ? `, ${snapshot.omitted.length} left out (limits ${SNAPSHOT_MAX_FILES} files, ${SNAPSHOT_MAX_BYTES / 1024} KiB)` : ""}`,
    );
    const prompt = generatorPrompt({
      skillName: ctx.skillName,
      profile: ctx.profile,
      snapshot,
      skillMd: contents.get("SKILL.md")?.toString("utf8") ?? "",
    });
    const answerFile = path.join(agentCall.dirs.workspace, ANSWER_FILE);
    const timeoutMs = (o.timeoutSec ?? DEFAULT_TIMEOUT_SEC) * 1000;
    const got = await askWithRepair({
      what: "eval tasks",
      prompt,
      transcripts: genDir,
      ask: async (p, attempt, previous) => {
        const answer = await agentCall.ask({
          prompt: p,
          endpoint: endpoint(attempt),
          // The repair carries on the same session when the agent gave one.
          resume: previous?.sessionId ?? undefined,
          timeoutMs,
          signal: o.killSignal ?? new AbortController().signal,
          stdoutFile: path.join(genDir, `attempt-${attempt}.stdout.jsonl`),
          stderrFile: path.join(genDir, `attempt-${attempt}.stderr.txt`),
          redact,
        });
        // An answer written to the file wins over the reply (then removed for the repair).
        const written = await readFile(answerFile, "utf8").catch(() => null);
        if (written !== null && answer.text !== null) {
          await writeFile(path.join(genDir, `attempt-${attempt}.${ANSWER_FILE}`), redact(written));
          await writeFile(answerFile, "").catch(() => undefined);
          if (written.trim() !== "") return { ...answer, text: written };
        }
        return answer;
      },
      parse: (text) => parseGeneratedTasks(text),
      repairPrompt: (problem, answer) =>
        [
          `Your tasks could not be used: ${problem}.`,
          "Write all of them again, fixed, as YAML only in the same form.",
          `Your previous answer:\n${answer.slice(0, 4000)}`,
          "",
          prompt,
        ].join("\n"),
    });
    const record: GenerationRecord = {
      schema: "skillbench.generated-tasks.v1",
      key,
      generator: GENERATOR_VERSION,
      skill: ctx.skillName,
      agent,
      model: modelKey,
      endpoint: scriptFile ? `${SCRIPTED_MODEL_LABEL} (${scriptFile})` : "live",
      profile: ctx.profile,
      snapshot: { ...snapshot, limits: { files: SNAPSHOT_MAX_FILES, bytes: SNAPSHOT_MAX_BYTES } },
      generation: {
        generated_at: new Date().toISOString(),
        attempts: got.attempts,
        cost_usd: got.costUsd,
        tokens: got.tokens,
        duration_ms: got.durationMs,
        sandbox: chosen.kind,
        transcripts: genDir,
      },
      tasks: got.value.map((t) => t.name),
    };
    const text = frozenManifest(record, got.value);
    record.tasks_sha256 = sha256(text);
    await mkdir(cacheDir, { recursive: true });
    await writeJsonAtomic(recordFile, record);
    await writeFileAtomic(file, text);
    return { tasks: got.value, cached: false, file, recordFile, key, record, edited: null };
  } finally {
    await call?.close();
    await server?.close();
  }
}

/** Why a frozen set counts as edited by hand; null when its text is the one generated. Pure. */
function editedByHand(
  record: GenerationRecord | null,
  key: string,
  text: Buffer,
  recordFile: string,
): string | null {
  if (record === null) return `its generation record ${recordFile} is missing or unreadable`;
  if (record.key !== key) return `its generation record ${recordFile} is for another key`;
  if (record.tasks_sha256 === undefined)
    return `its generation record ${recordFile} holds no hash of the tasks (written by an older skillbench)`;
  const now = sha256(text);
  if (now !== record.tasks_sha256)
    return `its text (sha256 ${now.slice(0, 12)}…) is not the text the generator froze (${record.tasks_sha256.slice(0, 12)}…)`;
  return null;
}

/** The frozen set: an eval manifest (loadable, copyable into eval.yaml) with a header. Pure. */
function frozenManifest(r: GenerationRecord, tasks: InlineTask[]): string {
  const header = [
    `# Tasks generated for the Skill ${r.skill} by ${r.agent.name} ${r.agent.version ?? ""} (model ${r.model}), profile ${r.profile}.`,
    `# Frozen by skillbench eval --generate: a later eval reuses them while the Skill snapshot, the`,
    `# agent, the model and the profile are unchanged; --regenerate replaces them.`,
    `# Generator ${r.generator}, ${r.generation.attempts} attempt(s), cost ${r.generation.cost_usd === null ? "not reported" : dollars(r.generation.cost_usd)}; the record is ${r.key}.json.`,
    "",
  ].join("\n");
  const doc = {
    apiVersion: "skillbench.eval/v1",
    kind: MANIFEST_KIND,
    metadata: {
      name: `${r.skill}-generated`,
      generationHash: r.key,
      generationFile: `${r.key}.json`,
    },
    skill: { name: r.skill },
    evaluation: { tasks },
  };
  return header + YAML.stringify(doc);
}
