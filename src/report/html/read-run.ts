/**
 * Read one run folder into a run page (I/O). The reads are synchronous: a run page is a handful
 * of small files, and fs/promises' readFile costs several times the CPU of readFileSync per small
 * file (open, stat, read and close each a round trip through the thread pool), which the static
 * pages, embedding hundreds of run pages, pay in full.
 */
import { lstatSync, readdirSync, readFileSync, type Dirent } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { EvidenceSchema, type Evidence } from "../../core/evidence.js";
import { RunReportSchema } from "../../core/report.js";
import { runPaths } from "../../store/layout.js";
import { buildRunPage } from "./run-data.js";
import type { RunPageData, WorkspaceFile } from "./wire.js";

/** zod's parse option: its interpreted parsers, not the ones it generates (see readRunPageSync). */
const JITLESS = { jitless: true } as const;

/**
 * Run pages read in this process with the interpreted parsers before the schemas are compiled
 * (zod's `compile`) for the rest (see readRunPageSync).
 */
const READ_BEFORE_COMPILING = 32;
const pagesParsed = { count: 0 };
const compiled: { report: typeof RunReportSchema | null; evidence: typeof EvidenceSchema | null } =
  { report: null, evidence: null };

/** At most this many workspace files are listed per run. */
const MAX_LISTED_FILES = 2000;

function readText(file: string): string | null {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return null;
  }
}

function parseJson(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** Regular files under `dir` (symlinks are not followed), sorted, at most `max`. */
function listWorkspace(
  dir: string,
  max = MAX_LISTED_FILES,
): { files: WorkspaceFile[]; truncated: boolean } {
  const files: WorkspaceFile[] = [];
  let truncated = false;
  function walk(rel: string): void {
    let entries: Dirent[];
    try {
      entries = readdirSync(path.join(dir, rel), { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const e of entries) {
      if (files.length >= max) {
        truncated = true;
        return;
      }
      const r = rel === "" ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) {
        if (e.name === "node_modules" || e.name === ".git") continue;
        walk(r);
      } else if (e.isFile()) {
        files.push({ path: r, size: sizeOf(path.join(dir, r)) });
      }
    }
  }
  walk("");
  return { files, truncated };
}

export interface ReadRunOptions {
  maxText?: number;
  /** embed the content of workspace text files up to this size each (default 0: none) */
  embedFilesUpTo?: number;
}

function looksText(buf: Buffer): boolean {
  return !buf.subarray(0, 8000).includes(0);
}

function sizeOf(file: string): number {
  try {
    return lstatSync(file).size;
  } catch {
    return 0;
  }
}

function readBytes(file: string): Buffer | null {
  try {
    return readFileSync(file);
  } catch {
    return null;
  }
}

/** The run page of runs/<runId> (the viewer's lazy /api/runs/<id>), or null when it has no readable report. */
export function readRunPage(
  outDir: string,
  runId: string,
  opts: ReadRunOptions = {},
): Promise<RunPageData | null> {
  return Promise.resolve(readRunPageSync(outDir, runId, opts));
}

/** The run page of runs/<runId>, or null when it has no readable report (read synchronously). */
export function readRunPageSync(
  outDir: string,
  runId: string,
  opts: ReadRunOptions = {},
): RunPageData | null {
  const p = runPaths(outDir, runId);
  const raw = parseJson(readText(p.report));
  // The same checks and result either way. The first pages are parsed by zod's interpreted
  // parsers (~0.4 ms a page): compiling the two schemas costs ~25 ms of CPU once, more than a
  // `run` of a few runs or the viewer's page at a time would gain. A static page embeds ~190:
  // from the 33rd on they are parsed compiled, ~60 ms less for the ~190 in all (bench/results/scale.md).
  let parsed;
  let evParsed;
  const evidenceJson = (): unknown => parseJson(readText(p.events));
  if (pagesParsed.count++ < READ_BEFORE_COMPILING) {
    parsed = RunReportSchema.safeParse(raw, JITLESS);
    if (!parsed.success) return null;
    evParsed = EvidenceSchema.safeParse(evidenceJson(), JITLESS);
  } else {
    compiled.report ??= z.compile(RunReportSchema);
    parsed = compiled.report.safeParse(raw);
    if (!parsed.success) return null;
    compiled.evidence ??= z.compile(EvidenceSchema);
    evParsed = compiled.evidence.safeParse(evidenceJson());
  }
  const evidence: Evidence | null = evParsed.success ? evParsed.data : null;
  const { files, truncated } = listWorkspace(p.workspace);
  const embed = opts.embedFilesUpTo ?? 0;
  if (embed > 0)
    for (const f of files) {
      if (f.size > embed) continue;
      const buf = readBytes(path.join(p.workspace, f.path));
      if (buf && looksText(buf)) f.content = buf.toString("utf8");
    }
  return buildRunPage({
    report: parsed.data,
    rawReport: raw,
    evidence,
    stdout: readText(p.stdout),
    stderr: readText(p.stderr),
    files,
    filesTruncated: truncated,
    ...(opts.maxText !== undefined ? { maxText: opts.maxText } : {}),
  });
}
