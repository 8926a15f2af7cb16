import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, rm } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { RunReportSchema, type QueueRecord, type RunReport } from "../core/report.js";
import { runDir, runPaths } from "../store/layout.js";
import { indexRunReport } from "../store/run-files.js";
import { writeJsonAtomic } from "../util/fs.js";
import { redactValue } from "../util/redact.js";
import {
  compress,
  decodeArchive,
  decompress,
  encodeArchive,
  readTree,
  writeTree,
  type ArchiveFile,
} from "./archive.js";

/**
 * A run's record on its way back from a worker: the files of its run folder (report.json,
 * stdout.jsonl, stderr.txt, events.json, validation.json, the saved workspace …), compressed
 * and capped. Over the cap, the saved workspace goes first, then the raw agent output; the
 * report, the evidence and the validation always travel. What was left out is listed in the
 * run's `queue.omitted`.
 */

/** Default cap on a compressed run record. */
export const DEFAULT_MAX_RESULT_BYTES = 32 * 1024 * 1024;
/** Inflated size refused on the coordinator (a corrupt or hostile record). */
const MAX_INFLATED_BYTES = 2 * 1024 * 1024 * 1024;

const ResultMetaSchema = z.object({
  schema: z.literal("skillbench.run-record.v1"),
  run_id: z.string(),
  omitted: z.array(z.string()),
});

/** Groups dropped in order when the record is over the cap. */
const DROP_ORDER: Array<(p: string) => boolean> = [
  (p) => p.startsWith("workspace/"),
  (p) => p === "stdout.jsonl" || p === "stderr.txt" || p === "simulator.jsonl",
];

export async function packRunRecord(
  dir: string,
  runId: string,
  maxBytes: number,
): Promise<{ compressed: Buffer; omitted: string[] }> {
  let files: ArchiveFile[] = await readTree(dir);
  const omitted: string[] = [];
  for (let step = 0; ; step++) {
    const raw = encodeArchive(
      { schema: "skillbench.run-record.v1", run_id: runId, omitted },
      files,
    );
    const compressed = await compress(raw);
    if (compressed.length <= maxBytes) return { compressed, omitted };
    const drop = DROP_ORDER[step];
    if (!drop)
      throw new Error(
        `the record of ${runId} is ${compressed.length} bytes compressed even without its workspace and raw output, over the ${maxBytes}-byte cap (raise --max-result-mb)`,
      );
    omitted.push(...files.filter((f) => drop(f.path)).map((f) => f.path));
    files = files.filter((f) => !drop(f.path));
  }
}

/**
 * Write a received record into `<outDir>/runs/<runId>/`: unpacked beside it
 * (`.incoming/<random>/runs/<runId>/`), the report given its queue block, its pass/fail
 * recomputed from its stored evidence (`recheck`: the rescore step), then moved into place with
 * one rename (the report inside is the commit point, as for a local run). `claimed` is the
 * status the worker's report said.
 */
export async function writeRunRecord(a: {
  outDir: string;
  runId: string;
  compressed: Buffer;
  queue: Omit<QueueRecord, "omitted">;
  redact: (s: string) => string;
  /** Where each skill lives for the coordinator (the worker saw its own cached copy). */
  skillPaths: Map<string, string>;
  /** Rescore the staged run (a results folder of one run at `stagingRoot`). */
  recheck?: ((stagingRoot: string) => Promise<unknown>) | undefined;
}): Promise<{ report: RunReport; claimed: RunReport["status"] }> {
  const { meta, files } = decodeArchive(await decompress(a.compressed, MAX_INFLATED_BYTES));
  const m = ResultMetaSchema.parse(meta);
  if (m.run_id !== a.runId) throw new Error(`record for ${m.run_id} received as ${a.runId}`);
  const incoming = path.join(a.outDir, ".incoming");
  const stagingRoot = path.join(incoming, randomBytes(6).toString("hex"));
  const staging = runDir(stagingRoot, a.runId);
  await mkdir(staging, { recursive: true });
  try {
    await writeTree(staging, files);
    const reportFile = path.join(staging, "report.json");
    const report = RunReportSchema.parse(JSON.parse(await readFile(reportFile, "utf8")));
    if (report.run_id !== a.runId)
      throw new Error(`report of ${report.run_id} received as ${a.runId}`);
    const withQueue: RunReport = {
      ...report,
      skill_sources: report.skill_sources.map((s) => {
        const p = a.skillPaths.get(`${s.name}\0${s.hash}`);
        return p !== undefined && s.path !== null ? { ...s, path: p } : s;
      }),
      queue: { ...a.queue, omitted: m.omitted },
    };
    await writeJsonAtomic(reportFile, redactValue(withQueue, a.redact));
    // What counts is what the run's own evidence says, not the worker's word.
    await a.recheck?.(stagingRoot);
    const stored = RunReportSchema.parse(JSON.parse(await readFile(reportFile, "utf8")));
    const final = runDir(a.outDir, a.runId);
    await rm(final, { recursive: true, force: true });
    await mkdir(path.dirname(final), { recursive: true });
    await rename(staging, final);
    await rm(stagingRoot, { recursive: true, force: true });
    // The run is committed: its line in the run index, as a local run's.
    await indexRunReport(runPaths(a.outDir, a.runId), stored);
    return { report: stored, claimed: report.status };
  } catch (e) {
    await rm(stagingRoot, { recursive: true, force: true });
    throw e;
  }
}
