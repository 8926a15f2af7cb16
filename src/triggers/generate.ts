/**
 * `--generate`: the agent under evaluation writes a balanced set of trigger queries from the
 * Skill (explicit, implicit and contextual should-trigger prompts, and near-miss negatives), and
 * the set is frozen: cached under a key of {Skill snapshot, neighbours, agent, model, generator
 * version}, reused by later evaluations until `--regenerate` (docs/triggers.md, "Generated queries").
 */
import { existsSync } from "node:fs";
import { mkdir, readFile } from "node:fs/promises";
import path from "node:path";
import YAML from "yaml";
import { askWithRepair } from "../agents/ask.js";
import { withAgentCall, type AgentCallOptions } from "../agents/call.js";
import { InputError } from "../core/errors.js";
import { writeFileAtomic } from "../util/fs.js";
import { canonicalJson, listFiles, sha256 } from "../util/hash.js";
import { parseQueries } from "./queries.js";
import type { SkillFolder } from "./skills.js";
import type { TriggerQuery } from "./types.js";
import { dollars } from "../util/format.js";

const GENERATOR_VERSION = "skillbench-trigger-queries-1";
const MAX_LISTED_FILES = 128;

/** What the key covers: the Skill as the generator sees it, who generates, and how. Pure. */
function generationKey(i: {
  skillText: string;
  skillFiles: string[];
  neighbours: { name: string; description: string }[];
  agent: string;
  model: string | null;
}): string {
  return sha256(canonicalJson({ ...i, generator: GENERATOR_VERSION }));
}

/** The generator's prompt. Pure. */
function generationPrompt(
  skill: SkillFolder,
  files: string[],
  neighbours: { name: string; description: string }[],
): string {
  return [
    "You are writing a test set for a coding agent's Skill: prompts a user might type, and whether",
    `the Skill named "${skill.name}" should be used for each. Here is the Skill.`,
    "",
    "<skill_md>",
    skill.text.trim(),
    "</skill_md>",
    "",
    `Files in the Skill folder: ${files.join(", ") || "(only SKILL.md)"}`,
    neighbours.length > 0
      ? `Other Skills the agent has (a prompt meant for one of these should NOT use ${skill.name}):\n${neighbours.map((n) => `- ${n.name}: ${n.description}`).join("\n")}`
      : "",
    "",
    "Write 12 prompts, each one realistic and different:",
    `- 3 "explicit": ask for exactly what the Skill does, naming the task (should_trigger: true);`,
    `- 3 "implicit": describe a situation that needs the Skill without naming it (should_trigger: true);`,
    `- 2 "contextual": the Skill's task inside a larger request (should_trigger: true);`,
    `- 4 "negative": near misses on related topics the Skill should not handle (should_trigger: false).`,
    "",
    'Answer with a JSON array only, no prose: [{"query": "...", "should_trigger": true, "kind": "explicit"}, ...]',
  ]
    .filter((l) => l !== "")
    .join("\n");
}

/** The queries in an answer: the JSON array in it, checked as a query file and for balance. Pure. */
function parseGenerated(answer: string, label: string): TriggerQuery[] {
  const start = answer.indexOf("[");
  const end = answer.lastIndexOf("]");
  if (start < 0 || end <= start) throw new InputError(`${label}: no JSON array in the answer`);
  const queries = parseQueries(answer.slice(start, end + 1), label);
  const pos = queries.filter((q) => q.should_trigger).length;
  const neg = queries.length - pos;
  if (pos < 2 || neg < 2)
    throw new InputError(
      `${label}: unbalanced: ${pos} should-trigger and ${neg} should-not-trigger queries (at least 2 of each)`,
    );
  return queries;
}

export interface GenerateInput {
  skill: SkillFolder;
  neighbours: { name: string; description: string }[];
  agent: { name: string; version: string | null };
  /**
   * Each attempt's call (agents/call.ts): the driver and binary, the endpoint, the environment
   * (no tools) and the sandbox (the probes' kind, docs/triggers.md); named per attempt.
   */
  call: Omit<AgentCallOptions, "name">;
  model: string | null;
  /** Frozen sets live here (`<key>.yaml`). */
  cacheDir: string;
  regenerate: boolean;
  /** The generator's transcripts go here (`generation/`). */
  outDir: string;
  timeoutMs: number;
  signal: AbortSignal;
  redact: (s: string) => string;
}

export interface Generated {
  queries: TriggerQuery[];
  /** The frozen file. */
  file: string;
  key: string;
  cached: boolean;
}

export async function generateQueries(i: GenerateInput): Promise<Generated> {
  const files = (await listFiles(i.skill.dir))
    .filter((f) => f !== "SKILL.md")
    .sort()
    .slice(0, MAX_LISTED_FILES);
  const key = generationKey({
    skillText: i.skill.text,
    skillFiles: files,
    neighbours: i.neighbours,
    agent: `${i.agent.name}@${i.agent.version ?? "unknown"}`,
    model: i.model,
  });
  const file = path.join(i.cacheDir, `${i.skill.name}-${key.slice(0, 16)}.yaml`);
  if (!i.regenerate && existsSync(file)) {
    return { queries: parseQueries(await readFile(file, "utf8"), file), file, key, cached: true };
  }
  const genDir = path.join(i.outDir, "generation");
  await mkdir(genDir, { recursive: true });
  const first = generationPrompt(i.skill, files, i.neighbours);
  const got = await askWithRepair({
    what: "trigger queries",
    prompt: first,
    transcripts: genDir,
    ask: (prompt, attempt) =>
      withAgentCall({ ...i.call, name: `trigger-generate-${attempt}` }, (call) =>
        // One tool-less turn: the answer is the final text.
        call.ask({
          prompt,
          extraArgs: ["--max-turns", "1"],
          timeoutMs: i.timeoutMs,
          signal: i.signal,
          stdoutFile: path.join(genDir, `attempt-${attempt}.stdout.jsonl`),
          stderrFile: path.join(genDir, `attempt-${attempt}.stderr.txt`),
          redact: i.redact,
        }),
      ),
    parse: (text, attempt) => parseGenerated(text, `generated queries (attempt ${attempt})`),
    // One repair: the same request, with what was wrong with the answer.
    repairPrompt: (problem, answer) =>
      `${first}\n\nYour previous answer could not be used: ${problem}\nPrevious answer:\n${answer.slice(0, 4000)}`,
  });
  await mkdir(i.cacheDir, { recursive: true });
  const header = [
    `# Trigger queries generated by ${i.agent.name} ${i.agent.version ?? ""} (model ${i.model ?? "default"}) for ${i.skill.name}.`,
    `# Frozen: reused while the Skill, its neighbours, the agent and the model are unchanged (key ${key});`,
    `# skillbench triggers --regenerate writes a new set. Generator ${GENERATOR_VERSION}, attempts ${got.attempts}, cost ${dollars(got.costUsd ?? 0)}.`,
    "",
  ].join("\n");
  await writeFileAtomic(file, header + YAML.stringify(got.value));
  return { queries: got.value, file, key, cached: false };
}
