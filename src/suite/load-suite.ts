import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { InputError } from "../core/errors.js";
import { hashTree, sha256 } from "../util/hash.js";
import { closest } from "./fields.js";
import { CONFIG_FILE, emptyConfig, readSuiteConfig } from "./config.js";
import { parseYaml } from "./parse-text.js";
import { Problems } from "./problems.js";
import { INSTRUCTION_FILE, loadTask, pathKind, TASK_FILE } from "./task.js";
import { loadTreatments } from "./treatments.js";
import type { LoadSuiteOptions, Suite, SuiteConfig, TaskSpec, TreatmentSpec } from "./types.js";

/**
 * Load a suite folder (`tasks/<task>/`, `treatments/**\/*.yaml`, `profiles/*.toml`,
 * `skillbench.yaml`, `simulator-instruction.md`) or a single task folder (a suite
 * of one). Every problem of every file is collected; if there is any error, one
 * InputError lists them all (one per line). Warnings go to `onWarning` and
 * `suite.warnings`.
 */

const SIMULATOR_INSTRUCTION_FILE = "simulator-instruction.md";
const HASH_JUNK = new Set([".git", "node_modules", "__pycache__", ".DS_Store", ".skillbench"]);

function toPosix(p: string): string {
  return p.split(path.sep).join("/");
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Does a `--task` list (names, `*` wildcards) name this folder? */
function namedBy(filter: string | undefined, name: string): boolean {
  return (filter ?? "")
    .split(",")
    .map((x) => x.trim())
    .some(
      (e) =>
        e === name ||
        (e.includes("*") &&
          new RegExp(`^${e.split("*").map(escapeRegExp).join(".*")}$`).test(name)),
    );
}

/**
 * Task folders under tasks/, sorted by folder name; folders without task files are
 * reported. A folder with task.toml but no instruction.md is work in progress: skipped
 * with a warning, unless the task filter names it (then its error is reported).
 */
async function findTaskDirs(
  tasksDir: string,
  display: (abs: string) => string,
  problems: Problems,
  taskFilter: string | undefined,
): Promise<string[]> {
  const entries = await readdir(tasksDir);
  const out: string[] = [];
  for (const name of entries.sort()) {
    if (name.startsWith(".")) continue;
    const dir = path.join(tasksDir, name);
    if ((await pathKind(dir)) !== "dir") continue;
    const [t, m] = await Promise.all([
      pathKind(path.join(dir, TASK_FILE)),
      pathKind(path.join(dir, INSTRUCTION_FILE)),
    ]);
    if (t === null && m === null) {
      problems.warn({
        file: display(dir),
        message: `no ${TASK_FILE} or ${INSTRUCTION_FILE}; not a task, ignored`,
      });
      continue;
    }
    if (t === "file" && m === null && !namedBy(taskFilter, name)) {
      problems.warn({
        file: display(dir),
        message: `has ${TASK_FILE} but no ${INSTRUCTION_FILE}: an incomplete task, skipped (name it with --task to see why it cannot load)`,
      });
      continue;
    }
    out.push(dir);
  }
  return out;
}

async function loadConfig(
  root: string,
  display: (abs: string) => string,
  problems: Problems,
): Promise<SuiteConfig> {
  const abs = path.join(root, CONFIG_FILE);
  if ((await pathKind(path.join(root, "skillbench.yml"))) === "file") {
    problems.warn({
      file: display(path.join(root, "skillbench.yml")),
      message: `ignored: the suite config file is named ${CONFIG_FILE}`,
    });
  }
  if ((await pathKind(abs)) !== "file") return emptyConfig();
  const file = display(abs);
  const parsed = parseYaml(await readFile(abs, "utf8"), file, problems);
  if (!parsed.ok) return emptyConfig();
  const config = readSuiteConfig(parsed.value, { file, flavor: "yaml", problems }, root);
  // The validators' python_path must exist now: a typo would only show as an ImportError later.
  for (const dir of config.validation?.python_path ?? []) {
    if ((await pathKind(dir)) !== "dir")
      problems.error({
        file,
        field: "validation.python_path",
        message: `validation.python_path: ${dir} is not a folder`,
      });
  }
  return config;
}

async function listProfiles(root: string): Promise<{ name: string; file: string }[]> {
  const dir = path.join(root, "profiles");
  if ((await pathKind(dir)) !== "dir") return [];
  const names = (await readdir(dir))
    .filter((n) => n.endsWith(".toml") && !n.startsWith("."))
    .sort();
  return names.map((n) => ({ name: n.slice(0, -".toml".length), file: path.join(dir, n) }));
}

function checkDuplicateNames(tasks: TaskSpec[], problems: Problems): void {
  const byName = new Map<string, TaskSpec>();
  for (const t of tasks) {
    const prev = byName.get(t.name);
    if (prev) {
      const field = "[metadata].name";
      problems.error({
        file: `${t.rel_dir}/${TASK_FILE}`,
        field,
        message: `${field}: task name ${JSON.stringify(t.name)} is also used by ${prev.rel_dir}`,
      });
    } else byName.set(t.name, t);
  }
}

/**
 * `default_treatments` that name no treatment. Says what runs instead (when --treatment
 * is not given): the defaults that exist, else every treatment.
 */
function warnUnknownDefaults(
  tasks: TaskSpec[],
  treatments: TreatmentSpec[],
  problems: Problems,
): void {
  const names = treatments.map((t) => t.name);
  const field = "[metadata].default_treatments";
  for (const task of tasks) {
    const defaults = task.metadata.default_treatments;
    const unknown = defaults.filter((d) => !names.includes(d));
    if (unknown.length === 0) continue;
    const known = names.filter((n) => defaults.includes(n));
    const what = unknown
      .map((d) => {
        const hint = closest(d, names);
        return `${JSON.stringify(d)}${hint ? ` (did you mean ${JSON.stringify(hint)}?)` : ""}`;
      })
      .join(", ");
    const runs =
      known.length > 0
        ? `without --treatment the task runs under ${known.join(", ")}`
        : `none of them exists, so without --treatment the task runs under every treatment: ${names.join(", ")}`;
    problems.warn({
      file: `${task.rel_dir}/${TASK_FILE}`,
      field,
      message: `${field}: no treatment named ${what}; ${runs}`,
    });
  }
}

/** `sha256:<hex>` over the suite's files (minus junk and the output folder) and every skill hash. */
async function hashSuite(
  root: string,
  config: SuiteConfig,
  treatments: TreatmentSpec[],
): Promise<string> {
  const outRel = config.out ? toPosix(path.relative(root, config.out)) : null;
  const insideOut =
    outRel !== null && outRel !== "" && !outRel.startsWith("..") && !path.isAbsolute(outRel)
      ? outRel
      : null;
  const files = await hashTree(
    root,
    (rel) =>
      rel.split("/").some((s) => HASH_JUNK.has(s)) ||
      (insideOut !== null && (rel === insideOut || rel.startsWith(`${insideOut}/`))),
  );
  const lines = [`files ${files}`];
  for (const t of treatments)
    for (const s of t.skills) lines.push(`skill ${t.name}/${s.name} ${s.hash}`);
  return `sha256:${sha256(lines.sort().join("\n"))}`;
}

export async function loadSuite(rootIn: string, opts: LoadSuiteOptions = {}): Promise<Suite> {
  const root = path.resolve(rootIn);
  const kind = await pathKind(root);
  if (kind === null) throw new InputError(`suite folder not found: ${root}`, { file: root });
  if (kind !== "dir")
    throw new InputError(`not a folder: ${root} (give a suite folder or a task folder)`, {
      file: root,
    });

  const problems = new Problems(opts.onWarning);
  const [rootToml, rootMd] = await Promise.all([
    pathKind(path.join(root, TASK_FILE)),
    pathKind(path.join(root, INSTRUCTION_FILE)),
  ]);
  const single = rootToml !== null || rootMd !== null;
  const displayBase = single ? path.dirname(root) : root;
  const display = (abs: string): string => {
    const r = toPosix(path.relative(displayBase, abs));
    if (r === "") return ".";
    return r.startsWith("..") || path.isAbsolute(r) ? abs : r;
  };

  let taskDirs: string[];
  if (single) taskDirs = [root];
  else {
    const tasksDir = path.join(root, "tasks");
    if ((await pathKind(tasksDir)) !== "dir") {
      throw new InputError(
        `${root} is not a suite: it has no tasks/ folder, and no ${TASK_FILE} of its own`,
        { file: root },
      );
    }
    taskDirs = await findTaskDirs(tasksDir, display, problems, opts.taskFilter);
    if (taskDirs.length === 0)
      problems.error({
        file: display(tasksDir),
        message: "no tasks found (a task is a folder with task.toml and instruction.md)",
      });
  }

  const tasks: TaskSpec[] = [];
  for (const dir of taskDirs) {
    const t = await loadTask(dir, { display, problems });
    if (t) tasks.push(t);
  }
  checkDuplicateNames(tasks, problems);

  const treatments = await loadTreatments(path.join(root, "treatments"), {
    root,
    display,
    problems,
  });
  warnUnknownDefaults(tasks, treatments, problems);
  const profiles = await listProfiles(root);
  const config = await loadConfig(root, display, problems);
  const simPath = path.join(root, SIMULATOR_INSTRUCTION_FILE);
  const simulatorInstructionFile = (await pathKind(simPath)) === "file" ? simPath : null;

  problems.throwIfAny(`suite ${root}`);
  return {
    root,
    tasks,
    treatments,
    profiles,
    config,
    simulatorInstructionFile,
    hash: await hashSuite(root, config, treatments),
    warnings: problems.warnings,
  };
}
