import { isRecord } from "../core/json.js";
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { hashTree } from "../util/hash.js";
import { unsafePathReason } from "./artifacts.js";
import { formatPath } from "./fields.js";
import { parseToml } from "./parse-text.js";
import type { Problems } from "./problems.js";
import { readTaskToml } from "./task-toml.js";
import { templatePlaceholders } from "./template.js";
import { type TaskSpec, TaskSpecSchema } from "./types.js";

/** Load one task folder (task.toml + instruction.md + optional environment/ validation/ data/). */

export const TASK_FILE = "task.toml";
export const INSTRUCTION_FILE = "instruction.md";
const TEST_SCRIPT_EXTENSIONS = [".py", ".js", ".mjs", ".cjs", ".ts", ".sh"];

const TASK_TREES = ["environment", "validation", "data"];
const JUNK = new Set([".git", "__pycache__", ".DS_Store", "node_modules"]);

/** The files a task hash covers: task.toml, instruction.md and the three trees (minus junk). */
function isOutsideTaskHash(rel: string): boolean {
  const segs = rel.split("/");
  if (segs.length === 1) return ![TASK_FILE, INSTRUCTION_FILE, ...TASK_TREES].includes(rel);
  return segs.some((s) => JUNK.has(s));
}

export async function pathKind(p: string): Promise<"file" | "dir" | null> {
  try {
    const s = await stat(p);
    return s.isDirectory() ? "dir" : s.isFile() ? "file" : null;
  } catch {
    return null;
  }
}

export interface TaskLoadContext {
  /** Turns an absolute path into the form shown in messages. */
  display: (abs: string) => string;
  problems: Problems;
}

/** Returns undefined when the task has errors (they are in ctx.problems). */
export async function loadTask(dir: string, ctx: TaskLoadContext): Promise<TaskSpec | undefined> {
  const { problems } = ctx;
  const relDir = ctx.display(dir);
  const errorsBefore = problems.errorCount;
  const tomlPath = path.join(dir, TASK_FILE);
  const mdPath = path.join(dir, INSTRUCTION_FILE);
  const [tomlKind, mdKind] = await Promise.all([pathKind(tomlPath), pathKind(mdPath)]);
  if (tomlKind !== "file" || mdKind !== "file") {
    const missing = [
      tomlKind !== "file" ? TASK_FILE : null,
      mdKind !== "file" ? INSTRUCTION_FILE : null,
    ].filter((x) => x !== null);
    problems.error({
      file: relDir,
      message: `a task folder needs both ${TASK_FILE} and ${INSTRUCTION_FILE}; ${missing.join(" and ")} ${missing.length > 1 ? "are" : "is"} missing`,
    });
    return undefined;
  }

  const tomlFile = `${relDir}/${TASK_FILE}`;
  const raw = parseToml(await readFile(tomlPath, "utf8"), tomlFile, problems);
  if (raw === undefined) return undefined;
  const fileCtx = { file: tomlFile, flavor: "toml" as const, problems };
  const sections = readTaskToml(raw, fileCtx, path.basename(dir));
  const instruction = await readFile(mdPath, "utf8");

  const subdir = async (t: string): Promise<string | null> =>
    (await pathKind(path.join(dir, t))) === "dir" ? path.join(dir, t) : null;
  const environmentDir = await subdir("environment");
  const validationDir = await subdir("validation");
  const dataDir = await subdir("data");

  // Validator scripts: safe, known extension, present in validation/.
  const validationRaw = raw["validation"];
  const scriptsIsList = isRecord(validationRaw) && Array.isArray(validationRaw["test_scripts"]);
  for (const [i, script] of sections.validation.test_scripts.entries()) {
    const field = formatPath(
      "toml",
      scriptsIsList ? ["validation", "test_scripts", i] : ["validation", "test_scripts"],
    );
    const err = (message: string): void =>
      problems.error({ file: tomlFile, field, message: `${field}: ${message}` });
    const why = unsafePathReason(script, "validation/");
    if (why) {
      err(why);
      continue;
    }
    const ext = path.extname(script).toLowerCase();
    if (!TEST_SCRIPT_EXTENSIONS.includes(ext)) {
      err(
        `${JSON.stringify(script)}: unsupported validator extension ${JSON.stringify(ext)} (use one of ${TEST_SCRIPT_EXTENSIONS.join(" ")})`,
      );
      continue;
    }
    if (validationDir === null || (await pathKind(path.join(validationDir, script))) !== "file") {
      err(`test script not found: ${relDir}/validation/${script}`);
    }
  }

  // skill_package_path: a folder in the WORKSPACE (the agent creates the package
  // during the run), so it is checked only for escaping, never for existence.
  let skillPackage: string | undefined;
  if (sections.evaluation.skill_package_path !== undefined) {
    skillPackage = sections.evaluation.skill_package_path;
    const why = unsafePathReason(skillPackage);
    if (why !== null) {
      const field = "[evaluation].skill_package_path";
      problems.error({ file: tomlFile, field, message: `${field}: ${why}` });
    }
  }

  lintPlaceholders(
    instruction,
    sections.template.required,
    sections.setup.template_vars,
    `${relDir}/${INSTRUCTION_FILE}`,
    tomlFile,
    problems,
  );

  if (problems.errorCount > errorsBefore) return undefined;
  const evaluation: TaskSpec["evaluation"] = { ...sections.evaluation };
  if (skillPackage !== undefined) evaluation.skill_package_path = skillPackage;
  return TaskSpecSchema.parse({
    ...sections,
    evaluation,
    dir,
    rel_dir: relDir,
    instruction_template: instruction,
    hash: await hashTree(dir, isOutsideTaskHash),
    environment_dir: environmentDir,
    validation_dir: validationDir,
    data_dir: dataDir,
  });
}

/** Warn (at load time) about placeholders that can only be filled by extra run variables. */
function lintPlaceholders(
  instruction: string,
  required: string[],
  templateVars: Record<string, string>,
  mdFile: string,
  tomlFile: string,
  problems: Problems,
): void {
  const known = new Set(["run_id", ...required]);
  for (const name of templatePlaceholders(instruction)) {
    if (known.has(name) || Object.hasOwn(templateVars, name)) continue;
    problems.warn({
      file: mdFile,
      message: `placeholder {${name}} has no value in [setup].template_vars or [template].required, so rendering will fail; write {{${name}}} for literal braces`,
    });
  }
  for (const [k, v] of Object.entries(templateVars)) {
    for (const name of templatePlaceholders(v)) {
      if (known.has(name)) continue;
      const field = `[setup].template_vars.${k}`;
      problems.warn({
        file: tomlFile,
        field,
        message: `${field}: placeholder {${name}} has no value (only {run_id} and [template].required names are available)`,
      });
    }
  }
}
