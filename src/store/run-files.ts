import { statSync, type Stats } from "node:fs";
import { mkdir, readFile, rm } from "node:fs/promises";
import { z } from "zod";
import { InputError, issuesText } from "../core/errors.js";
import { EvidenceSchema, type Evidence } from "../core/evidence.js";
import { REPORT_SCHEMA, RunReportSchema, type RunReport } from "../core/report.js";
import path from "node:path";
import { digestOf } from "../core/digest.js";
import { jsonFileText, settled, writeFileAtomicSync } from "../util/fs.js";
import { appendRunIndexLine, indexStamp } from "./run-index.js";
import type { runPaths } from "./layout.js";
import { RunPlanSchema, type RunPlan } from "../plan/run-plan.js";

/**
 * The JSON files of one run folder (runs/<id>/), each read and written here with its schema;
 * every write is atomic (a temporary file beside it, then rename) and synchronous: a run's
 * records are a few small files, each cheaper to write than its round trips through the thread
 * pool (bench/run-overhead.mjs measures the CLI's CPU per run); the functions still return a
 * promise, rejected when the write fails. The streams (stdout.jsonl,
 * stderr.txt, simulator.jsonl) are written line by line as they arrive (util/redacting-writer.ts)
 * and the saved workspace by workspace/save.ts, at the paths of store/layout.ts.
 */
type RunPaths = ReturnType<typeof runPaths>;

/** Check a value against its schema before it is written: a bug here must not leave a bad file. */
export function checkRecord<T>(file: string, schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success)
    throw new Error(`${file}: refusing to write an invalid record: ${issuesText(parsed.error)}`);
  return parsed.data;
}

function writeChecked<T>(file: string, schema: z.ZodType<T>, value: unknown): T {
  const data = checkRecord(file, schema, value);
  writeFileAtomicSync(file, jsonFileText(value));
  return data;
}

/** JSON.parse of a file's text; undefined when there is no text or it is not JSON. */
function jsonOf(text: string | null): unknown {
  if (text === null) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A run starts from an empty folder (a resumed run's earlier attempt is gone). */
export async function resetRunFolder(paths: RunPaths): Promise<void> {
  await rm(paths.dir, { recursive: true, force: true });
  await mkdir(paths.dir, { recursive: true });
}

const BaselineFilesSchema = z.array(z.string());

/** baseline-files.json: the workspace's files before the agent ran (created vs modified). */
export function writeBaselineFiles(paths: RunPaths, files: Iterable<string>): Promise<void> {
  return settled(() => writeChecked(paths.baseline, BaselineFilesSchema, [...files].sort()));
}

/**
 * The files before the agent ran, from baseline-files.json's text (null: no file); an empty set
 * when the run kept none (or it is unreadable). The caller reads the file (`rescore` reads a
 * run's files once, synchronously).
 */
export function parseBaselineFiles(text: string | null): Set<string> {
  const parsed = BaselineFilesSchema.safeParse(jsonOf(text));
  return new Set(parsed.success ? parsed.data : []);
}

/** events.json: the evidence decoded from the agent's stream (redacted by the caller). */
export function writeEvidence(paths: RunPaths, evidence: Evidence): Promise<void> {
  return settled(() => writeChecked(paths.events, EvidenceSchema, evidence));
}

const EvidenceCwdSchema = z.object({ agent: z.object({ cwd: z.string() }).loose() }).loose();

/** The agent's working folder recorded in events.json's text (how its stream names files), if any. */
export function parseEvidenceCwd(text: string | null): string | null {
  const parsed = EvidenceCwdSchema.safeParse(jsonOf(text));
  return parsed.success ? parsed.data.agent.cwd : null;
}

/** validation.json: the validators' report as they ran (redacted by the caller). */
export function writeValidation(paths: RunPaths, validation: unknown): Promise<void> {
  return settled(() => writeFileAtomicSync(paths.validation, jsonFileText(validation)));
}

/**
 * The stored validation record from validation.json's text (null: no file), parsed with the
 * validators' schema; bad input when it does not parse.
 */
export function parseValidation<T>(paths: RunPaths, text: string | null, schema: z.ZodType<T>): T {
  const parsed = schema.safeParse(jsonOf(text) ?? null);
  if (!parsed.success)
    throw new InputError(`${paths.validation}: not a validation record this skillbench can read`, {
      file: paths.validation,
    });
  return parsed.data;
}

/**
 * report.json: the run's commit point, written last (redacted by the caller); then the run's
 * line is appended to the results folder's run index (store/run-index.ts), so that the
 * reports read it from there. The index is best effort: without the line, it is read from
 * report.json.
 */
export function writeRunReport(paths: RunPaths, report: RunReport): Promise<void> {
  return settled(() => {
    indexRun(paths, writeChecked(paths.report, RunReportSchema, report));
  });
}

/**
 * Append a committed run to its results folder's run index (store/run-index.ts): `report` is
 * what RunReportSchema made of the report.json now at `paths.report`. Best effort.
 */
export function indexRunReport(paths: RunPaths, report: RunReport): Promise<void> {
  return settled(() => {
    indexRun(paths, report);
  });
}

/** Best effort, as the index: a report.json that cannot be stat'ed is left to be read from its file. */
function indexRun(paths: RunPaths, report: RunReport): void {
  let st: Stats;
  try {
    st = statSync(paths.report);
  } catch {
    return;
  }
  appendRunIndexLine(
    path.dirname(path.dirname(paths.dir)),
    path.basename(paths.dir),
    indexStamp(st),
    digestOf(report),
    JSON.stringify(report),
  );
}

/** A stored report: a report of another schema, or one that does not parse, is bad input. */
export async function readRunReport(paths: RunPaths): Promise<RunReport> {
  const file = paths.report;
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (e) {
    throw new InputError(`${file}: cannot read: ${String(e)}`, { file });
  }
  return parseRunReport(paths, text);
}

/**
 * A stored report from report.json's text, for `rescore`: a report of another schema, or one
 * that does not parse, is bad input.
 */
export function parseRunReport(paths: RunPaths, text: string): RunReport {
  const file = paths.report;
  let json: unknown;
  try {
    json = JSON.parse(text) as unknown;
  } catch (e) {
    throw new InputError(`${file}: cannot read: ${String(e)}`, { file });
  }
  const schema =
    json !== null && typeof json === "object" && "schema" in json ? json.schema : undefined;
  if (schema !== REPORT_SCHEMA)
    throw new InputError(
      `${file}: report schema ${JSON.stringify(schema)} is not one this skillbench can migrate (it reads ${REPORT_SCHEMA}); run the suite again`,
      { file, field: "schema" },
    );
  // v1 reports written before run_uuid existed are migrated by the schema's default.
  const parsed = RunReportSchema.safeParse(json);
  if (!parsed.success) throw new InputError(`${file}: ${issuesText(parsed.error)}`, { file });
  return parsed.data;
}

/** plan.json: the run as settled before it started (src/plan/run-plan.ts), redacted by the caller. */
export function writeRunPlan(paths: RunPaths, plan: RunPlan): Promise<void> {
  return settled(() => writeChecked(paths.plan, RunPlanSchema, plan));
}

/**
 * The run's stored plan from plan.json's text (null: no file); null for a run folder written
 * before plans were stored (the caller then re-derives what it needs, as `rescore` always did)
 * or one whose plan does not parse.
 */
export function parseRunPlan(text: string | null): RunPlan | null {
  const parsed = RunPlanSchema.safeParse(jsonOf(text) ?? null);
  return parsed.success ? parsed.data : null;
}
