import { claimingProfile, taskInteractionMode } from "../scoring/registry.js";
import { StepsSchema, type Steps } from "../trajectory/schema.js";
import { NETWORK_CHOICES, SANDBOX_CHOICES } from "./types.js";
import { readExpectedArtifacts, readWorkspacePaths } from "./artifacts.js";
import { type FileCtx, readNames, Table } from "./fields.js";
import {
  DEFAULT_CONTINUE_PROMPT,
  INTERACTION_MODES,
  NAME_PATTERN,
  NATIVE_TERMINALS,
  type TaskSpec,
} from "./types.js";

/**
 * task.toml (already parsed) -> the TaskSpec sections, with the Python harness's
 * defaults and profile inference (docs/tasks.md). Pure: file-system checks (validator scripts exist,
 * skill_package_path) are done by the caller.
 */

export type TaskTomlSections = Pick<
  TaskSpec,
  "name" | "metadata" | "template" | "environment" | "validation" | "setup" | "interaction"
> & {
  evaluation: Omit<TaskSpec["evaluation"], "skill_package_path"> & { skill_package_path?: string };
};

/** Explicit profile, else the built-in that claims the task by its category and name, else generic. */
function inferProfile(explicit: string | null, category: string, name: string): string {
  if (explicit) return explicit;
  return claimingProfile(category, name);
}

function emptyTable(ctx: FileCtx, name: string): Table {
  return new Table(ctx, [name], {});
}

/** `""` (like an absent value in the Python loader) -> null. */
function orNull(v: string | undefined): string | null {
  return v === undefined || v === "" ? null : v;
}

/** `[evaluation.steps]` (docs/trajectory.md), checked by the trajectory's own schema. */
function readSteps(evaln: Table): Steps | undefined {
  const raw = evaln.raw("steps");
  if (raw === undefined) return undefined;
  const r = StepsSchema.safeParse(raw);
  if (r.success) return r.data;
  for (const issue of r.error.issues)
    evaln.error(
      evaln.field("steps", ...issue.path.filter((p) => typeof p !== "symbol")),
      issue.message,
    );
  return undefined;
}

export function readTaskToml(
  raw: Record<string, unknown>,
  ctx: FileCtx,
  dirName: string,
): TaskTomlSections {
  const top = new Table(ctx, [], raw);
  const sec = (name: string): Table => top.table(name) ?? emptyTable(ctx, name);
  const meta = sec("metadata");
  const tmpl = sec("template");
  const env = sec("environment");
  const val = sec("validation");
  const evaln = sec("evaluation");
  const inter = sec("interaction");
  const setup = sec("setup");

  // [metadata]
  const name = meta.string("name") ?? dirName;
  if (!NAME_PATTERN.test(name)) {
    meta.error(
      meta.field("name"),
      `task name ${JSON.stringify(name)} must match ${NAME_PATTERN.source} (letters, digits, ".", "_", "-")`,
    );
  }
  const category = meta.string("category") ?? "";
  const metadata = {
    name,
    description: meta.string("description") ?? "",
    difficulty: meta.string("difficulty") ?? "medium",
    category,
    tags: meta.stringList("tags") ?? [],
    default_treatments: meta.stringList("default_treatments") ?? [],
  };

  // [template]
  const template = { required: tmpl.stringList("required") ?? [] };

  // [environment]
  const environment: TaskSpec["environment"] = {
    description: env.string("description") ?? "",
    dockerfile: env.string("dockerfile") ?? "Dockerfile",
    timeout_sec: env.number("timeout_sec", { positive: true }) ?? 900,
  };
  const cpus = env.number("cpus", { positive: true });
  if (cpus !== undefined) environment.cpus = cpus;
  const memory = env.raw("memory");
  if (typeof memory === "number" && Number.isInteger(memory) && memory > 0)
    environment.memory = String(memory);
  else if (typeof memory === "string" && /^\d+(\.\d+)?\s*([kmgt]i?b?|b)?$/i.test(memory.trim()))
    environment.memory = memory.trim();
  else if (memory !== undefined)
    env.expected(
      env.field("memory"),
      'a size such as "512m" or "2g", or a number of bytes',
      memory,
    );
  const pids = env.number("pids", { positive: true, integer: true });
  if (pids !== undefined) environment.pids = pids;
  const sandbox = env.raw("sandbox");
  if (sandbox !== undefined) {
    const kind = SANDBOX_CHOICES.find((k) => k === sandbox);
    if (kind === undefined)
      env.expected(
        env.field("sandbox"),
        SANDBOX_CHOICES.map((k) => JSON.stringify(k)).join(" or "),
        sandbox,
      );
    else environment.sandbox = kind;
  }
  const network = env.raw("network");
  if (network !== undefined) {
    const n = NETWORK_CHOICES.find((k) => k === network);
    if (n === undefined)
      env.expected(
        env.field("network"),
        NETWORK_CHOICES.map((k) => JSON.stringify(k)).join(" or "),
        network,
      );
    else environment.network = n;
  }

  // [validation]
  const validation = {
    test_scripts: val.stringOrList("test_scripts") ?? [],
    target_artifacts: readWorkspacePaths(val, "target_artifacts") ?? [],
    timeout: val.number("timeout", { positive: true }) ?? 120,
  };

  // [evaluation]
  const profile = orNull(evaln.string("profile"));
  const inferred = inferProfile(profile, category, name);
  const nativeTerminal = evaln.enumOf("native_terminal", NATIVE_TERMINALS) ?? "archive";
  const evaluation: TaskTomlSections["evaluation"] = {
    profile,
    inferred_profile: inferred,
    required_skills: evaln.stringList("required_skills") ?? [],
    expected_artifacts: readExpectedArtifacts(evaln, "expected_artifacts") ?? [],
    require_skill_invocation: evaln.boolean("require_skill_invocation") ?? false,
    rubric_criteria: evaln.stringList("rubric_criteria") ?? [],
    native_terminal: nativeTerminal,
  };
  const pkg = evaln.string("skill_package_path");
  if (pkg !== undefined && pkg !== "") evaluation.skill_package_path = pkg;
  const order = readNames(evaln, "route_conformance_expected_node_order");
  if (order !== undefined) evaluation.route_conformance_expected_node_order = order;
  const nodeSkills = readNames(evaln, "generated_node_skills");
  if (nodeSkills !== undefined) evaluation.generated_node_skills = nodeSkills;
  const steps = readSteps(evaln);
  if (steps !== undefined) evaluation.steps = steps;

  // [interaction]
  let mode = inter.raw("mode");
  if (mode === "interactive") {
    inter.warn(inter.field("mode"), '"interactive" is read as "auto_user"');
    mode = "auto_user";
  }
  const modeValue = INTERACTION_MODES.find((m) => m === mode);
  if (mode !== undefined && modeValue === undefined) {
    inter.expected(
      inter.field("mode"),
      INTERACTION_MODES.map((m) => JSON.stringify(m)).join(" or "),
      mode,
    );
  }
  const maxTurns = inter.number("max_turns", { positive: true, integer: true });
  const interaction = {
    mode: modeValue ?? taskInteractionMode(inferred),
    max_turns: maxTurns ?? 12,
    // Whether task.toml set them, so that profile defaults (authoring-skill: 8 turns) can apply.
    mode_set: modeValue !== undefined,
    max_turns_set: maxTurns !== undefined,
    simulator_prompt: orNull(inter.string("simulator_prompt")),
    decision_patterns: inter.stringList("decision_patterns") ?? [],
    decision_reply: orNull(inter.string("decision_reply")),
    decision_replies: inter.stringList("decision_replies") ?? [],
    continue_prompt: inter.string("continue_prompt") ?? DEFAULT_CONTINUE_PROMPT,
    fresh_resume_marker: orNull(inter.string("fresh_resume_marker")),
  } satisfies TaskSpec["interaction"];
  if (interaction.decision_reply !== null && interaction.decision_replies.length > 0) {
    inter.warn(
      inter.field("decision_reply"),
      "both decision_reply and decision_replies are set; the decision_replies queue is used first",
    );
  }

  // [setup]
  const template_vars = setup.stringMap("template_vars") ?? {};
  const dataRaw = setup.raw("data");
  let data: unknown[] = [];
  if (Array.isArray(dataRaw)) {
    data = dataRaw;
    if (data.length > 0)
      setup.warn(
        setup.field("data"),
        "data handlers are not supported by skillbench and are ignored",
      );
  } else if (dataRaw !== undefined) {
    setup.expected(setup.field("data"), "a list of tables", dataRaw);
  }

  for (const t of [meta, tmpl, env, val, evaln, inter, setup]) t.warnUnknown();
  top.warnUnknown();

  return {
    name,
    metadata,
    template,
    environment,
    validation,
    evaluation,
    interaction,
    setup: { template_vars, data },
  };
}
