import { readExpectedArtifacts } from "./artifacts.js";
import { isRecord } from "../core/json.js";
import { describe, readNames, Table } from "./fields.js";
import { agentNames } from "../agents/index.js";
import type { AgentHooks } from "../core/hooks.js";
import { readHooks, readNative } from "./treatment-prompt-fields.js";
import {
  CONTROL_TREATMENT,
  MODEL_ID,
  type ExpectedArtifact,
  NAME_PATTERN,
  type NativeTreatment,
} from "./types.js";

/**
 * One treatment of a treatments YAML file (docs/tasks.md, Treatments) -> a description of its
 * skills, still unresolved on disk. Pure.
 */

export type SkillEntry =
  | {
      kind: "path";
      field: string;
      name: string | undefined;
      path: string;
      /** `key_files:` the Skill files that hold its real knowledge (docs/evidence.md, "Depth of use"). */
      key_files?: string[];
    }
  | { kind: "inline"; field: string; name: string; content: string };

interface SkillHints {
  profile?: string;
  required_skills?: string[];
  require_skill_invocation?: boolean;
  expected_artifacts?: ExpectedArtifact[];
  route_conformance_expected_node_order?: string[];
  generated_node_skills?: string[];
}

export interface TreatmentEntry {
  name: string;
  description: string | undefined;
  claude_md: string | null;
  /** `agent:` the agent(s) this treatment runs on (docs/agents.md); undefined: `--agent`. */
  agents: string[] | undefined;
  /** `model:` the model(s) this treatment runs on (docs/agents.md); undefined: `--model`. */
  models: string[] | undefined;
  skills: SkillEntry[];
  hints: SkillHints;
  /** `native` / `native_clarification_mode`, or the built-in Native treatment names. */
  native: NativeTreatment | undefined;
  prompt_prefix: string | undefined;
  hooks: AgentHooks | undefined;
}

const HINT_KEYS = [
  "profile",
  "required_skills",
  "require_skill_invocation",
  "expected_artifacts",
  "route_conformance_expected_node_order",
  "generated_node_skills",
] as const;

function readHints(t: Table): SkillHints {
  const hints: SkillHints = {};
  const profile = t.string("profile");
  if (profile !== undefined && profile !== "") hints.profile = profile;
  const req = t.stringList("required_skills");
  if (req !== undefined) hints.required_skills = req;
  const inv = t.boolean("require_skill_invocation");
  if (inv !== undefined) hints.require_skill_invocation = inv;
  const exp = readExpectedArtifacts(t, "expected_artifacts");
  if (exp !== undefined) hints.expected_artifacts = exp;
  const order = readNames(t, "route_conformance_expected_node_order");
  if (order !== undefined) hints.route_conformance_expected_node_order = order;
  const nodeSkills = readNames(t, "generated_node_skills");
  if (nodeSkills !== undefined) hints.generated_node_skills = nodeSkills;
  return hints;
}

function checkName(t: Table, field: string, name: string): boolean {
  if (NAME_PATTERN.test(name)) return true;
  t.error(
    field,
    `skill name ${JSON.stringify(name)} must match ${NAME_PATTERN.source} (it becomes a folder name)`,
  );
  return false;
}

/** One `skills:` item. Returns the entry (or undefined after reporting) and its hints. */
function readSkillEntry(
  parent: Table,
  index: number,
  raw: unknown,
): { entry?: SkillEntry; hints: SkillHints; unsupported?: string } {
  const field = parent.field("skills", index);
  if (typeof raw === "string") {
    if (raw.trim() === "") {
      parent.error(field, "skill path is empty");
      return { hints: {} };
    }
    return { entry: { kind: "path", field, name: undefined, path: raw }, hints: {} };
  }
  if (!isRecord(raw)) {
    parent.error(field, `expected a skill path or a mapping, got ${describe(raw, "yaml")}`);
    return { hints: {} };
  }
  const t = new Table(parent.ctx, [...parent.path, "skills", index], raw);
  const hints = readHints(t);
  if (index > 0) {
    for (const k of HINT_KEYS) {
      if (t.has(k)) t.warn(t.field(k), "only the first skill entry's hints are used; ignored");
    }
  }
  const source = t.string("source");
  const explicitName = t.string("name");
  const skillKey = t.string("skill");
  const content = t.string("content");
  const p = t.string("path");
  let entry: SkillEntry | undefined;

  if (content !== undefined) {
    const name = explicitName ?? skillKey?.replace(/_/g, "-");
    if (name === undefined) t.error(field, 'an inline skill needs "name" (or "skill")');
    else if (checkName(t, t.field(explicitName !== undefined ? "name" : "skill"), name)) {
      entry = { kind: "inline", field, name, content };
    }
    if (p !== undefined) t.warn(t.field("path"), 'ignored: the entry has inline "content"');
  } else {
    const where =
      p ?? (source !== undefined && source !== "path" && source !== "inline" ? source : undefined);
    if (where === undefined || where.trim() === "") {
      if (skillKey !== undefined) {
        return {
          hints,
          unsupported: `${field}: benchmark snapshot entries ("skill" + "variant"/"base") are not supported`,
        };
      } else if (source === "inline") {
        t.error(field, 'source "inline" needs "content"');
      } else {
        t.error(
          field,
          'a skill entry needs "path" (a folder with SKILL.md, or the SKILL.md file) or inline "content"',
        );
      }
    } else {
      const name = explicitName ?? skillKey?.replace(/_/g, "-");
      if (
        name === undefined ||
        checkName(t, t.field(explicitName !== undefined ? "name" : "skill"), name)
      ) {
        const keyFiles = t.stringList("key_files");
        entry = {
          kind: "path",
          field,
          name,
          path: where,
          ...(keyFiles?.length ? { key_files: keyFiles } : {}),
        };
      }
    }
  }
  t.warnUnknown();
  return entry ? { entry, hints } : { hints };
}

/** `agent: codex` or `agent: [claude, codex]`: known agent names, each once. */
function readAgents(t: Table): string[] | undefined {
  const list = t.stringOrList("agent");
  if (list === undefined) return undefined;
  const field = t.field("agent");
  if (list.length === 0) {
    t.error(field, `name at least one agent (${agentNames().join(", ")}), or leave it out`);
    return undefined;
  }
  const out: string[] = [];
  for (const a of list) {
    if (!agentNames().includes(a))
      t.error(field, `unknown agent ${JSON.stringify(a)}: use one of ${agentNames().join(", ")}`);
    else if (out.includes(a)) t.error(field, `agent ${JSON.stringify(a)} is listed twice`);
    else out.push(a);
  }
  return out.length === list.length ? out : undefined;
}

/**
 * `model:` one model id or a list. Each id is passed to the agent as its model argument and may
 * appear in run ids, so it must be one word: no whitespace and no comma (`--model a,b` splits on
 * commas; docs/agents.md, "Models as a matrix axis").
 */
function readModels(t: Table): string[] | undefined {
  const list = t.stringOrList("model");
  if (list === undefined) return undefined;
  const field = t.field("model");
  if (list.length === 0) {
    t.error(field, "name at least one model, or leave it out");
    return undefined;
  }
  const out: string[] = [];
  for (const m of list) {
    if (!MODEL_ID.test(m))
      t.error(field, `model ${JSON.stringify(m)} must be one word (no whitespace, no comma)`);
    else if (out.includes(m)) t.error(field, `model ${JSON.stringify(m)} is listed twice`);
    else out.push(m);
  }
  return out.length === list.length ? out : undefined;
}

/** Read one treatment body. `body` undefined means `NAME:` with nothing after it. */
export function readTreatmentEntry(top: Table, name: string): TreatmentEntry | undefined {
  const field = top.field(name);
  if (!NAME_PATTERN.test(name)) {
    top.error(field, `treatment name ${JSON.stringify(name)} must match ${NAME_PATTERN.source}`);
    return undefined;
  }
  const raw = top.raw(name);
  if (raw !== undefined && !isRecord(raw)) {
    top.expected(field, "a mapping with description/claude_md/skills", raw);
    return undefined;
  }
  const t = new Table(top.ctx, [name], raw ?? {});
  const description = t.string("description");
  const claude = t.string("claude_md");
  const agents = readAgents(t);
  const models = readModels(t);
  const native = readNative(t, name);
  const prefix = t.string("prompt_prefix");
  const hooks = readHooks(t);
  const skillsRaw = t.raw("skills");
  if (t.has("noise_tasks"))
    t.warn(t.field("noise_tasks"), "noise tasks are not supported by skillbench; ignored");

  const skills: SkillEntry[] = [];
  const unsupported: string[] = [];
  let hints: SkillHints = {};
  if (Array.isArray(skillsRaw)) {
    if (name === CONTROL_TREATMENT && skillsRaw.length > 0) {
      t.error(
        t.field("skills"),
        "CONTROL is the no-skills baseline and cannot have skills; define another treatment",
      );
    } else {
      skillsRaw.forEach((item: unknown, i) => {
        const r = readSkillEntry(t, i, item);
        if (i === 0) hints = r.hints;
        if (r.entry) skills.push(r.entry);
        if (r.unsupported) unsupported.push(r.unsupported);
      });
    }
  } else if (skillsRaw !== undefined) {
    t.expected(t.field("skills"), "a list of skill entries", skillsRaw);
  }
  t.warnUnknown();
  if (unsupported.length > 0) {
    // Python-harness snapshot skills: skip the treatment so that the rest of such a suite still loads.
    top.warn(
      field,
      `treatment skipped: ${unsupported.join("; ")}; give "path" (a folder with SKILL.md) or inline "content"`,
    );
    return undefined;
  }
  return {
    name,
    description,
    claude_md: claude === undefined || claude === "" ? null : claude,
    agents,
    models,
    skills,
    hints,
    native,
    prompt_prefix: prefix === "" ? undefined : prefix,
    hooks,
  };
}
