import { readFile, rm, stat } from "node:fs/promises";
import path from "node:path";
import { InputError } from "../core/errors.js";
import { resolveInside, writeFileAtomic } from "../util/fs.js";
import { stripControls } from "../util/safe-text.js";
import { artifactFailure, checkArtifacts } from "./check-artifacts.js";
import { validatorCommand } from "./interpreter.js";
import { normalizeValidatorResult } from "./normalize-result.js";
import { pickValidatorJson } from "./pick-json.js";
import { runCaptured } from "./run-process.js";
import type { LaunchSpec, Launcher } from "../sandbox/types.js";
import { killMarked, newRunMarker, RUN_MARKER_VAR } from "../util/process.js";
import type { ValidationReport, ValidatorOutcome, ValidatorStatus } from "./types.js";
import { isRecord } from "../core/json.js";

const CONTEXT_FILE = "_test_context.json";
const RESULTS_FILE = "_test_results.json";
const VALIDATION_DIR = "validation";

export interface RunValidatorsOptions {
  workspace: string;
  /** Script paths relative to `<workspace>/validation`, run in order. */
  scripts: string[];
  /** Existence pre-check; when any is missing no script runs. */
  targetArtifacts: string[];
  /** Per-script timeout in seconds. */
  timeoutSec: number;
  /** The validators' whole environment (the caller builds it; nothing is inherited). */
  env: Record<string, string>;
  /** Written as `<workspace>/_test_context.json` before each script. */
  context: unknown;
  /** Aborting kills the running validator's process group and rejects with the abort reason. */
  signal?: AbortSignal;
  /** Applied to captured output, check messages and raw results. */
  redact?: (s: string) => string;
  /** Runs each script inside a sandbox (src/sandbox); absent: spawned directly. */
  launcher?: Launcher | undefined;
}

function redactDeep(v: unknown, redact: (s: string) => string): unknown {
  if (typeof v === "string") return redact(v);
  if (Array.isArray(v)) return v.map((x) => redactDeep(x, redact));
  if (isRecord(v))
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, redactDeep(x, redact)]));
  return v;
}

/** JSON for the context file: bigint as strings; a cyclic value gets `"[Circular]"`. */
function contextJson(context: unknown): string {
  const bigints = (_k: string, v: unknown): unknown => (typeof v === "bigint" ? v.toString() : v);
  try {
    return `${JSON.stringify(context ?? null, bigints, 2)}\n`;
  } catch {
    const ancestors: object[] = [];
    const safe = function (this: unknown, _k: string, v: unknown): unknown {
      if (typeof v === "bigint") return v.toString();
      if (typeof v !== "object" || v === null) return v;
      while (ancestors.length > 0 && ancestors[ancestors.length - 1] !== this) ancestors.pop();
      if (ancestors.includes(v)) return "[Circular]";
      ancestors.push(v);
      return v;
    };
    return `${JSON.stringify(context ?? null, safe, 2)}\n`;
  }
}

/**
 * The last line of `text` that says something (not blank, not only underline or box characters
 * such as Python's `^^^^`), without terminal escapes, at most 300 characters; null when none.
 */
function lastMeaningfulLine(text: string): string | null {
  const lines = stripControls(text).split(/\r?\n/);
  for (let i = lines.length - 1; i >= 0; i--) {
    const l = (lines[i] ?? "").trim();
    if (l === "" || /^[\s^~=*_\-─━|+.]*$/.test(l)) continue;
    return l.length > 300 ? `${l.slice(0, 297)}...` : l;
  }
  return null;
}

async function readIfFile(file: string): Promise<string | null> {
  try {
    return await readFile(file, "utf8");
  } catch {
    return null;
  }
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

function outcome(
  script: string,
  status: ValidatorStatus,
  fields: Partial<Omit<ValidatorOutcome, "script" | "status">>,
): ValidatorOutcome {
  return {
    script,
    status,
    exit_code: fields.exit_code ?? null,
    duration_ms: fields.duration_ms ?? 0,
    stdout: fields.stdout ?? "",
    stderr: fields.stderr ?? "",
    raw_result: fields.raw_result ?? null,
    passed: fields.passed ?? [],
    failed: fields.failed ?? [],
  };
}

async function runOne(
  opts: RunValidatorsOptions,
  script: string,
  redact: (s: string) => string,
): Promise<ValidatorOutcome> {
  const ws = path.resolve(opts.workspace);
  const cannotStart = (why: string): ValidatorOutcome =>
    outcome(script, "spawn_error", {
      failed: [redact(`Validator could not start: ${script}: ${why}`)],
    });

  const abs = resolveInside(path.join(ws, VALIDATION_DIR), script);
  if (abs === null) return cannotStart("path is absolute or escapes the validation folder");
  if (!(await isFile(abs))) return cannotStart(`no such file: ${VALIDATION_DIR}/${script}`);
  const scriptArg = path.relative(ws, abs).split(path.sep).join("/");
  const cmd = validatorCommand(scriptArg, opts.env.PATH ?? process.env.PATH);
  if ("error" in cmd) return cannotStart(cmd.error);

  await writeFileAtomic(path.join(ws, CONTEXT_FILE), contextJson(opts.context));
  await rm(path.join(ws, RESULTS_FILE), { force: true });

  // $WORKSPACE: the workspace as the validator sees it (a sandbox maps it to /workspace).
  // Every process of the validator carries a marker: what it leaves running (a `sleep &`, a
  // server started in a session of its own) is found and killed once it ends.
  const marker = newRunMarker();
  const env = { ...opts.env, WORKSPACE: opts.env.WORKSPACE ?? ws, [RUN_MARKER_VAR]: marker };
  const spec = { cmd: cmd.file, args: cmd.args, cwd: ws, env };
  const launched: LaunchSpec = opts.launcher ? opts.launcher(spec) : spec;
  const run = await runCaptured({
    file: launched.cmd,
    args: launched.args,
    cwd: launched.cwd,
    env: launched.env,
    timeoutMs: Math.round(opts.timeoutSec * 1000),
    signal: opts.signal,
  });
  // A contained launch (a PID namespace of its own, bwrap) left nothing running.
  if (launched.contained !== true) await killMarked(marker);
  opts.signal?.throwIfAborted();

  const base = {
    exit_code: run.exitCode,
    duration_ms: run.durationMs,
    stdout: redact(run.stdout),
    stderr: redact(run.stderr),
  };
  if (run.spawnError !== null) {
    const failed = [redact(`Validator could not start: ${script}: ${run.spawnError}`)];
    return outcome(script, "spawn_error", { ...base, failed });
  }
  if (run.timedOut) {
    return outcome(script, "timeout", {
      ...base,
      failed: [`Validator timed out after ${opts.timeoutSec}s: ${script}`],
    });
  }
  const raw = pickValidatorJson(await readIfFile(path.join(ws, RESULTS_FILE)), run.stdout);
  if (raw === null) {
    if (run.exitCode === 0) {
      return outcome(script, "no_json", {
        ...base,
        failed: [`Validator printed no JSON: ${script}`],
      });
    }
    const code = run.exitCode ?? run.signal ?? "unknown";
    const why = lastMeaningfulLine(run.stderr) ?? lastMeaningfulLine(run.stdout) ?? "no output";
    return outcome(script, "crashed", {
      ...base,
      failed: [redact(`Validator crashed (exit ${code}): ${script}: ${why}`)],
    });
  }
  const checks = normalizeValidatorResult(script, raw);
  return outcome(script, "ok", {
    ...base,
    raw_result: redactDeep(raw, redact),
    passed: checks.passed.map(redact),
    failed: checks.failed.map(redact),
  });
}

/**
 * Run a task's validation (docs/tasks.md, Validation): the `target_artifacts` pre-check, then each script in
 * order with cwd = workspace. A missing artifact gives `Artifact not found: <path>` and no
 * script runs. Each script gets a fresh `_test_context.json` and no stale `_test_results.json`;
 * its result is the results file, else its stdout JSON; exit codes only matter when there is no
 * JSON. Failures of a script are checks, never exceptions; only an abort rejects.
 */
export async function runValidators(opts: RunValidatorsOptions): Promise<ValidationReport> {
  if (!Number.isFinite(opts.timeoutSec) || opts.timeoutSec <= 0) {
    throw new InputError(
      `validation timeout must be a positive number of seconds, got ${opts.timeoutSec}`,
      {
        field: "validation.timeout",
      },
    );
  }
  const redact = opts.redact ?? ((s: string): string => s);
  opts.signal?.throwIfAborted();
  const artifacts = await checkArtifacts(opts.workspace, opts.targetArtifacts);
  const missing = artifacts.filter((a) => !a.found);
  if (missing.length > 0) {
    return {
      artifacts,
      scripts: [],
      passed: [],
      failed: missing.map((a) => redact(artifactFailure(a))),
    };
  }
  const scripts: ValidatorOutcome[] = [];
  for (const script of opts.scripts) {
    opts.signal?.throwIfAborted();
    scripts.push(await runOne(opts, script, redact));
  }
  return {
    artifacts,
    scripts,
    passed: scripts.flatMap((s) => s.passed),
    failed: scripts.flatMap((s) => s.failed),
  };
}
