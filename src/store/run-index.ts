/**
 * The run index: every parsed report.json of a results folder in one file,
 * `<outDir>/.run-index.jsonl`, so that the report commands read one file instead of
 * opening, reading and schema-parsing thousands (docs/ARCHITECTURE.md "The run index").
 *
 * Format: a header line, then one line per run:
 *   {"schema":"skillbench.run-index.v1","report_schema":"<fingerprint of RunReportSchema>"}
 *   <run id> TAB <stamp> TAB <the report as RunReportSchema parsed it, as JSON>
 * The stamp is report.json's `mtimeMs:size:ino`. An entry is used only while its stamp
 * equals the file's (a report rewritten in place or replaced by a rename changes it), and
 * the whole index only while its header names the schema this skillbench parses with (a
 * new field or default changes the fingerprint). Anything else, including a missing,
 * truncated or unreadable index, falls back to report.json, and the reader writes the
 * index again (atomically) when what it read differs from what the index held.
 *
 * The entries are values RunReportSchema produced from report.json when the index was
 * written; reading them back does not run the schema again (that pass costs as much as
 * reading the files the index replaces).
 */
import { randomBytes } from "node:crypto";
import { createReadStream } from "node:fs";
import { open, rename, rm } from "node:fs/promises";
import path from "node:path";
import { StringDecoder } from "node:string_decoder";
import { z } from "zod";
import { RunReportSchema, type RunReport } from "../core/report.js";
import { sha256 } from "../util/hash.js";

const INDEX_SCHEMA = "skillbench.run-index.v1";
/** The index file of a results folder. */
export const RUN_INDEX_FILE = ".run-index.jsonl";

const HeaderSchema = z.object({ schema: z.literal(INDEX_SCHEMA), report_schema: z.string() });

let fingerprint: string | null = null;
/** A hash of RunReportSchema's JSON Schema: it changes with any field, type or default. */
function reportSchemaFingerprint(): string {
  fingerprint ??= sha256(JSON.stringify(z.toJSONSchema(RunReportSchema, { io: "output" })));
  return fingerprint;
}

/** The index stamp of a report.json: mtime, size and inode (a rename gives a new inode). */
export function indexStamp(st: { mtimeMs: number; size: number; ino: number }): string {
  return `${st.mtimeMs}:${st.size}:${st.ino}`;
}

/** What the reader does with an index line: parse it, count it as current without parsing it (the caller has that report), or leave it (stale). */
type LineUse = "parse" | "known" | "stale";

export interface RunIndexRead {
  /** the reports of the lines the reader asked to parse */
  runs: Map<string, RunReport>;
  /** lines that were current ("parse" lines that parsed, and "known" ones) */
  matched: number;
  /** run lines in the index */
  lines: number;
}

/** Read a text file line by line in chunks (an index of 100,000 runs is larger than a string may be). */
async function forEachLine(file: string, onLine: (line: string) => boolean): Promise<void> {
  const stream = createReadStream(file, { highWaterMark: 1 << 22 });
  const decoder = new StringDecoder("utf8");
  let rest = "";
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const text = rest + decoder.write(chunk);
      let at = 0;
      for (let nl = text.indexOf("\n"); nl >= 0; nl = text.indexOf("\n", at)) {
        if (!onLine(text.slice(at, nl))) return;
        at = nl + 1;
      }
      rest = text.slice(at);
    }
    // A last line without its newline was cut short: it is not used.
  } finally {
    stream.destroy();
  }
}

/**
 * Read a results folder's index; `use(id, stamp)` says for each line whether it is current
 * (the caller compares the stamp with report.json's) and whether to parse it. Only those
 * lines are parsed, as the file streams by. A missing, unreadable or stale index reads as
 * empty.
 */
export async function readRunIndex(
  outDir: string,
  use: (id: string, stamp: string) => LineUse = () => "parse",
): Promise<RunIndexRead> {
  const out: RunIndexRead = { runs: new Map(), matched: 0, lines: 0 };
  const state = { header: true, valid: true };
  await forEachLine(path.join(outDir, RUN_INDEX_FILE), (line) => {
    if (state.header) {
      state.header = false;
      let h: unknown;
      try {
        h = JSON.parse(line);
      } catch {
        h = null;
      }
      const parsed = HeaderSchema.safeParse(h);
      state.valid = parsed.success && parsed.data.report_schema === reportSchemaFingerprint();
      return state.valid;
    }
    out.lines++;
    const t1 = line.indexOf("\t");
    const t2 = t1 < 0 ? -1 : line.indexOf("\t", t1 + 1);
    if (t1 <= 0 || t2 < 0) return true;
    const id = line.slice(0, t1);
    const how = use(id, line.slice(t1 + 1, t2));
    if (how === "known") out.matched++;
    else if (how === "parse") {
      const report = indexedReport(line.slice(t2 + 1));
      if (report) {
        out.runs.set(id, report);
        out.matched++;
      }
    }
    return true;
  }).catch(() => {
    state.valid = false;
  });
  return state.valid ? out : { runs: new Map(), matched: 0, lines: 0 };
}

/** The report of a current line; null when its text is not JSON (then report.json is read). */
function indexedReport(json: string): RunReport | null {
  try {
    // Written by writeRunIndex from RunReportSchema's own output, under the same schema
    // fingerprint (checked by readRunIndex): see the file comment.
    return JSON.parse(json) as RunReport;
  } catch {
    return null;
  }
}

/** Can this run id be a line's first field (no tab or line break)? */
function indexableId(id: string): boolean {
  return !/[\t\n\r]/.test(id);
}

/**
 * Write the index of a results folder: the runs given, in order, in chunks, to a temporary
 * file renamed into place. Best effort: a folder that cannot be written (read-only, full)
 * keeps being read from its report.json files.
 */
export async function writeRunIndex(
  outDir: string,
  runs: ReadonlyArray<{ id: string; stamp: string; report: RunReport }>,
): Promise<void> {
  const file = path.join(outDir, RUN_INDEX_FILE);
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    const fh = await open(tmp, "w");
    try {
      let chunk = `${JSON.stringify({ schema: INDEX_SCHEMA, report_schema: reportSchemaFingerprint() })}\n`;
      for (const r of runs) {
        if (!indexableId(r.id)) continue;
        chunk += `${r.id}\t${r.stamp}\t${JSON.stringify(r.report)}\n`;
        if (chunk.length >= 1 << 22) {
          await fh.write(chunk);
          chunk = "";
        }
      }
      await fh.write(chunk);
    } finally {
      await fh.close();
    }
    await rename(tmp, file);
  } catch {
    await rm(tmp, { force: true }).catch(() => undefined);
  }
}
