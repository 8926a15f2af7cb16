/** Read one run folder into a run page (I/O). */
import { lstat, readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { EvidenceSchema, type Evidence } from "../../core/evidence.js";
import { RunReportSchema } from "../../core/report.js";
import { runPaths } from "../../store/layout.js";
import { buildRunPage } from "./run-data.js";
import type { RunPageData, WorkspaceFile } from "./wire.js";

/** At most this many workspace files are listed per run. */
const MAX_LISTED_FILES = 2000;

async function readText(file: string): Promise<string | null> {
  try {
    return await readFile(file, "utf8");
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
async function listWorkspace(
  dir: string,
  max = MAX_LISTED_FILES,
): Promise<{ files: WorkspaceFile[]; truncated: boolean }> {
  const files: WorkspaceFile[] = [];
  let truncated = false;
  async function walk(rel: string): Promise<void> {
    let entries;
    try {
      entries = await readdir(path.join(dir, rel), { withFileTypes: true });
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
        await walk(r);
      } else if (e.isFile()) {
        const st = await lstat(path.join(dir, r)).catch(() => null);
        files.push({ path: r, size: st?.size ?? 0 });
      }
    }
  }
  await walk("");
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

/** The run page of runs/<runId>, or null when it has no readable report. */
export async function readRunPage(
  outDir: string,
  runId: string,
  opts: ReadRunOptions = {},
): Promise<RunPageData | null> {
  const p = runPaths(outDir, runId);
  const raw = parseJson(await readText(p.report));
  const parsed = RunReportSchema.safeParse(raw);
  if (!parsed.success) return null;
  const evParsed = EvidenceSchema.safeParse(parseJson(await readText(p.events)));
  const evidence: Evidence | null = evParsed.success ? evParsed.data : null;
  const { files, truncated } = await listWorkspace(p.workspace);
  const embed = opts.embedFilesUpTo ?? 0;
  if (embed > 0)
    for (const f of files) {
      if (f.size > embed) continue;
      const buf = await readFile(path.join(p.workspace, f.path)).catch(() => null);
      if (buf && looksText(buf)) f.content = buf.toString("utf8");
    }
  return buildRunPage({
    report: parsed.data,
    rawReport: raw,
    evidence,
    stdout: await readText(p.stdout),
    stderr: await readText(p.stderr),
    files,
    filesTruncated: truncated,
    ...(opts.maxText !== undefined ? { maxText: opts.maxText } : {}),
  });
}
