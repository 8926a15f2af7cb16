/**
 * The run index: every run of a results folder in one file, `<outDir>/.run-index.jsonl`, so
 * that the report commands read one file instead of opening, reading and schema-parsing
 * thousands, and hold a small digest per run instead of its whole report
 * (docs/ARCHITECTURE.md "Run digests and the run index").
 *
 * Format: a header line, then shared-value lines and run lines, in any order:
 *   {"schema":"skillbench.run-index.v2","report_schema":"<fingerprint>"}
 *   TAB <key> TAB <a JSON value>                                         (a shared value)
 *   <run id> TAB <stamp> TAB <refs> TAB <digest JSON> TAB <report JSON>   (a run)
 * The digest is the run's RunDigest (core/digest.ts) without the fields named in `refs`
 * (`field:key,field:key`): those are shared values, written once for every run whose field
 * has the same JSON text (most runs share their sandbox, agent, hashes, passed checks...),
 * so a reader holds each such value once. The report JSON is report.json as RunReportSchema
 * parsed it; the digest pass never decodes it, and the report pass (`IndexReports`) reads it
 * by its byte range. It may be empty: the line of a run indexed by a reading (a folder without
 * an index, or with lines gone stale) holds no report text, and its full report is read from
 * report.json when asked for. Writing the parsed report out again cost such a reading as much
 * CPU as parsing it, for the few commands that read whole reports (`merge`, `--reuse`,
 * `export`); a run that commits has its report's JSON at hand and appends it.
 * The stamp is report.json's `mtimeMs:size:ino`. A run line is used only while its stamp
 * equals the file's (a report rewritten in place or replaced by a rename changes it), and the
 * whole index only while its header names the schemas this skillbench parses with (a new field
 * or default changes the fingerprint). Anything else (a missing, truncated, garbled or foreign
 * line or file) falls back to report.json, and the reader writes the index again.
 * A run that commits appends its line (`appendRunIndexLine`): one write, so concurrent runs do
 * not interleave; a line cut short by a crash fails to parse and its run is read from its file.
 *
 * The values were produced by RunReportSchema from report.json when the line was written;
 * reading them back does not run the schema again (that pass costs as much as reading the
 * files the index replaces): the header's fingerprint stands for it (store/schema-fingerprint.ts).
 */
import { randomBytes } from "node:crypto";
import { appendFileSync } from "node:fs";
import { open, rename, rm, type FileHandle } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { compactDigest, type RunDigest } from "../core/digest.js";
import { REPORT_SCHEMA_FINGERPRINT } from "./report-schema-fingerprint.js";
import { sameJson } from "../util/same-json.js";

const INDEX_SCHEMA = "skillbench.run-index.v2";
/** The index file of a results folder. */
export const RUN_INDEX_FILE = ".run-index.jsonl";

const HeaderSchema = z.object({ schema: z.literal(INDEX_SCHEMA), report_schema: z.string() });

/** Digest fields whose values repeat across runs: stored once as shared values. */
const SHARED_FIELDS = [
  "sandbox",
  "agent",
  "hashes",
  "skill_sources",
  "model_api",
  "sample_quality",
  "failure_attribution",
  "failures",
  "checks_passed",
  "checks_failed",
  "rubric",
  "rubric_lines",
  "interaction",
  "skill_usage",
] as const satisfies ReadonlyArray<keyof RunDigest>;
const SHARED = new Set<string>(SHARED_FIELDS);
/** Digest fields holding a string that repeats across runs: one string per value once read. */
const REPEATED_STRINGS = [
  "experiment_id",
  "task",
  "treatment",
  "status",
  "outcome",
  "outcome_detail",
  "model",
] as const satisfies ReadonlyArray<keyof RunDigest>;

/** events_summary fields holding a short list of strings that repeats across runs: one frozen list per value once read. */
const REPEATED_LISTS = ["skills_invoked", "scripts_used"] as const;

/** One frozen list per distinct list of strings (by its JSON) in `lists`; anything else as it is. */
function sameList(v: unknown, lists: Map<string, readonly string[]>): unknown {
  if (!Array.isArray(v) || !v.every((x) => typeof x === "string")) return v;
  const key = JSON.stringify(v);
  const same = lists.get(key);
  if (same !== undefined) return same;
  const list = Object.freeze(v);
  lists.set(key, list);
  return list;
}

/** The header line: the index's format and the fingerprint of the schemas its values were parsed with. */
const HEADER_LINE = `${JSON.stringify({ schema: INDEX_SCHEMA, report_schema: REPORT_SCHEMA_FINGERPRINT })}\n`;

/** The index stamp of a report.json: mtime, size and inode (a rename gives a new inode). */
export function indexStamp(st: { mtimeMs: number; size: number; ino: number }): string {
  return `${st.mtimeMs}:${st.size}:${st.ino}`;
}

/** Where a run's report JSON sits in the index file. */
export interface ReportRange {
  at: number;
  len: number;
}

/** What the reader does with a run line: take it, count it as current without parsing it (the caller has that run), or leave it (stale). */
type LineUse = "parse" | "known" | "stale";

export interface RunIndexRead {
  /** false: the index is missing, unreadable or foreign (what `take` was given must be dropped) */
  valid: boolean;
  /** lines that were current ("parse" lines that parsed, and "known" ones) */
  matched: number;
  /** run lines in the index */
  lines: number;
}

/**
 * A current line, handed to the reader: its run's digest ("parse" lines) or null ("known"
 * lines), and where the run's report JSON sits in the index (null: the line holds none, the
 * report is its report.json). A later line of the same run replaces an earlier one.
 */
export type TakeLine = (id: string, digest: RunDigest | null, range: ReportRange | null) => void;

const TAB = 9;
const NL = 10;
const NEWLINE = Buffer.from("\n");

/**
 * Call `onLine(buf, start, end, offset)` for each complete line of a file (end excluded, the
 * newline not included; `offset` is the file position of `start`). Reads in 4 MiB chunks; a
 * last line without its newline was cut short and is not passed. onLine returns false to stop.
 */
async function forEachLine(
  fh: FileHandle,
  onLine: (buf: Buffer, start: number, end: number, offset: number) => boolean,
): Promise<void> {
  // One buffer for the whole file: the unfinished line is moved to its start before the next
  // read (no allocation per chunk; it grows only for a line longer than itself).
  let buf = Buffer.allocUnsafe(1 << 22);
  let filled = 0; // bytes of buf holding the unfinished line
  let base = 0; // file position of buf[0]
  let pos = 0;
  for (;;) {
    if (filled === buf.length) {
      const bigger = Buffer.allocUnsafe(buf.length * 2);
      buf.copy(bigger, 0, 0, filled);
      buf = bigger;
    }
    const { bytesRead } = await fh.read(buf, filled, buf.length - filled, pos);
    if (bytesRead === 0) return; // a last line without its newline was cut short: not passed
    pos += bytesRead;
    const view = buf.subarray(0, filled + bytesRead);
    let at = 0;
    for (let nl = view.indexOf(NL, at); nl >= 0; nl = view.indexOf(NL, at)) {
      if (!onLine(view, at, nl, base + at)) return;
      at = nl + 1;
    }
    buf.copy(buf, 0, at, view.length);
    filled = view.length - at;
    base += at;
  }
}

/** JSON.parse of a byte range; undefined when it is not JSON. */
function parseRange(buf: Buffer, start: number, end: number): unknown {
  try {
    return JSON.parse(buf.toString("utf8", start, end)) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Read a results folder's index; `use(id, stamp)` says for each run line whether it is current
 * (the caller compares the stamp with report.json's) and whether to take its digest. Only those
 * digests are decoded, as the file streams by; report JSON is never decoded here. A missing,
 * unreadable or foreign index reads as empty.
 */
export async function readRunIndex(
  index: IndexReports | null,
  use: (id: string, stamp: string) => LineUse,
  take: TakeLine,
): Promise<RunIndexRead> {
  const out: RunIndexRead = { valid: false, matched: 0, lines: 0 };
  if (!index) return out;
  const shared = new Map<string, unknown>();
  const strings = new Map<string, string>();
  const lists = new Map<string, readonly string[]>();
  const state = { header: true, valid: true };
  const tabs: number[] = [];
  await forEachLine(index.fh, (buf, start, end, offset) => {
    if (state.header) {
      state.header = false;
      const parsed = HeaderSchema.safeParse(parseRange(buf, start, end));
      state.valid = parsed.success && parsed.data.report_schema === REPORT_SCHEMA_FINGERPRINT;
      return state.valid;
    }
    tabs.length = 0;
    for (let t = buf.indexOf(TAB, start); t >= 0 && t < end && tabs.length < 5;)
      t = buf.indexOf(TAB, (tabs.push(t), t + 1));
    if (tabs[0] === start && tabs.length === 2) {
      // a shared value: TAB key TAB json
      const value = parseRange(buf, (tabs[1] ?? end) + 1, end);
      if (value !== undefined)
        shared.set(buf.toString("utf8", start + 1, tabs[1]), Object.freeze(value));
      return true;
    }
    out.lines++;
    const [t1, t2, t3, t4] = tabs;
    if (tabs.length !== 4 || t1 === undefined || t2 === undefined || t3 === undefined) return true;
    if (t4 === undefined || t1 === start) return true;
    const id = buf.toString("utf8", start, t1);
    const how = use(id, buf.toString("latin1", t1 + 1, t2));
    const range = end > t4 + 1 ? { at: offset + (t4 + 1 - start), len: end - t4 - 1 } : null;
    if (how === "known") {
      out.matched++;
      take(id, null, range);
    } else if (how === "parse") {
      const digest = indexedDigest(
        buf.toString("latin1", t2 + 1, t3),
        buf,
        t3 + 1,
        t4,
        shared,
        strings,
        lists,
      );
      if (digest) {
        out.matched++;
        take(id, digest, range);
      }
    }
    return true;
  }).catch(() => {
    state.valid = false;
  });
  out.valid = state.valid && !state.header;
  return out.valid ? out : { valid: false, matched: 0, lines: 0 };
}

/** The digest of a current line with its shared values put back; null when the line is garbled. */
function indexedDigest(
  refs: string,
  buf: Buffer,
  start: number,
  end: number,
  shared: Map<string, unknown>,
  strings: Map<string, string>,
  lists: Map<string, readonly string[]>,
): RunDigest | null {
  const value = parseRange(buf, start, end);
  if (typeof value !== "object" || value === null) return null;
  const digest = value as Record<string, unknown>;
  for (const field of REPEATED_STRINGS) {
    const v = digest[field];
    if (typeof v !== "string") continue;
    const same = strings.get(v);
    if (same === undefined) strings.set(v, v);
    else digest[field] = same;
  }
  // The transcript's skill and script lists: mostly the same few lists (often empty) in every run.
  const es = digest.events_summary;
  if (typeof es === "object" && es !== null) {
    const counts = es as Record<string, unknown>;
    for (const field of REPEATED_LISTS) counts[field] = sameList(counts[field], lists);
  }
  if (refs !== "")
    for (const ref of refs.split(",")) {
      const colon = ref.indexOf(":");
      const field = ref.slice(0, colon);
      const v = shared.get(ref.slice(colon + 1));
      if (colon <= 0 || !SHARED.has(field) || v === undefined) return null;
      digest[field] = v;
    }
  // Written by RunIndexWriter from digestOf(RunReportSchema's output), under the same schema
  // fingerprint (checked by readRunIndex): see the file comment.
  return compactDigest(digest as RunDigest);
}

/** Can this run id be a line's first field (not empty, no tab or line break)? */
function indexableId(id: string): boolean {
  return id !== "" && !/[\t\n\r]/.test(id);
}

/** Shared values of each field remembered as the latest seen (a run mostly repeats one of them). */
const RECENT = 4;

/**
 * One value per distinct JSON text of the shared digest fields: digests made from separate
 * reports hold the same objects, frozen (a reader must not change what others share).
 */
export class SharedValues {
  private readonly byJson = new Map<string, { key: string; value: unknown }>();
  /**
   * The latest distinct values of each field, newest first: a value equal to one of them
   * (`sameJson`) is found without writing its JSON text, which cost an unindexed reading
   * about as much as the schema parse.
   */
  private readonly recent = new Map<string, Array<{ key: string; value: unknown }>>();

  /** The shared entry for a field's value (the first time it is seen: a new key, and `onFresh`). */
  private entry(
    field: string,
    v: unknown,
    onFresh: (key: string, json: string) => void,
  ): { key: string; value: unknown } {
    let recent = this.recent.get(field);
    if (!recent) this.recent.set(field, (recent = []));
    for (let i = 0; i < recent.length; i++) {
      const e = recent[i];
      if (e && sameJson(v, e.value)) {
        if (i > 0) recent.splice(0, 0, ...recent.splice(i, 1));
        return e;
      }
    }
    const json = JSON.stringify(v);
    let e = this.byJson.get(json);
    if (!e) {
      // The first time this value is seen: it gets a key, and its line is written.
      e = { key: this.byJson.size.toString(36), value: Object.freeze(v) };
      this.byJson.set(json, e);
      onFresh(e.key, json);
    }
    recent.unshift(e);
    if (recent.length > RECENT) recent.pop();
    return e;
  }

  /**
   * The digest with its shared fields replaced by the shared values, and the line prefix that
   * refers to them; `onFresh` gets each value seen for the first time (to write its line).
   */
  intern(
    id: string,
    stamp: string,
    digest: RunDigest,
    onFresh: (key: string, json: string) => void = () => undefined,
  ): { digest: RunDigest; prefix: string } {
    // A plain object of our own (the digest may be a packed one, store/packed-digests.ts, whose
    // fields are getters): its shared fields are replaced in place by the shared values.
    const out = compactDigest(digest) as Record<string, unknown>;
    const refs: string[] = [];
    for (const field of SHARED_FIELDS) {
      const v = out[field];
      // absent optional fields (skill_usage without a Skill) have no value to share
      if (v === null || v === undefined) continue;
      const e = this.entry(field, v, onFresh);
      refs.push(`${field}:${e.key}`);
      out[field] = e.value;
    }
    const rest: Record<string, unknown> = {};
    // for…in over a plain object's own keys (no [key, value] pair made for each of ~30 fields)
    for (const k in out) {
      const v = out[k];
      if (!SHARED.has(k) || v === null) rest[k] = v;
    }
    return {
      // the same fields and values as `digest`: only shared objects stand for equal ones
      digest: out as RunDigest,
      prefix: `${id}\t${stamp}\t${refs.join(",")}\t${JSON.stringify(rest)}\t`,
    };
  }
}

/** Bytes of a new index waiting for the disk before RunIndexWriter.drained waits. */
const MAX_QUEUED = 1 << 24;

/**
 * Writes a new index to a temporary file renamed into place by `commit` (readers never see a
 * half-written index). `add` is synchronous and returns where the report JSON will be;
 * writes are queued in order. Best effort: when the folder cannot be written, `create`
 * returns null and the folder keeps being read from its report.json files.
 */
export class RunIndexWriter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private written = 0;
  /** bytes handed to the file and not yet written */
  private queued = 0;
  private queue: Promise<unknown> = Promise.resolve();
  private failed = false;
  private readonly shared = new SharedValues();

  private constructor(
    private readonly fh: FileHandle,
    private readonly tmp: string,
    private readonly file: string,
  ) {}

  static async create(outDir: string): Promise<RunIndexWriter | null> {
    const file = path.join(outDir, RUN_INDEX_FILE);
    const tmp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
    const fh = await open(tmp, "w").catch(() => null);
    if (!fh) return null;
    const w = new RunIndexWriter(fh, tmp, file);
    w.push(Buffer.from(HEADER_LINE));
    return w;
  }

  private push(b: Buffer): number {
    const at = this.written;
    this.pending.push(b);
    this.pendingBytes += b.length;
    this.written += b.length;
    if (this.pendingBytes >= 1 << 22) this.flush();
    return at;
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    const data = Buffer.concat(this.pending);
    this.pending = [];
    this.pendingBytes = 0;
    this.queued += data.length;
    this.queue = this.queue.then(async () => {
      if (!this.failed) await this.fh.write(data).catch(() => (this.failed = true));
      this.queued -= data.length;
    });
  }

  /**
   * Resolves at once while less than MAX_QUEUED bytes wait for the disk, else when they are
   * written: a reader that adds runs faster than the disk takes them awaits it between runs,
   * so the index being written is never held in memory.
   */
  async drained(): Promise<void> {
    if (this.queued >= MAX_QUEUED) await this.queue;
  }

  /**
   * Add a run; returns the digest with its shared values (hold that one, not the argument) and
   * the range its report JSON will have (null when its id cannot be a line's first field, or
   * when `reportJson` is null: a line without report text, whose report is its report.json).
   */
  add(
    id: string,
    stamp: string,
    digest: RunDigest,
    reportJson: Buffer | string | null,
  ): { digest: RunDigest; range: ReportRange | null } {
    if (!indexableId(id)) return { digest, range: null };
    const line = this.shared.intern(id, stamp, digest, (key, json) =>
      this.push(Buffer.from(`\t${key}\t${json}\n`)),
    );
    const prefix = Buffer.from(line.prefix);
    const body = typeof reportJson === "string" ? Buffer.from(reportJson) : reportJson;
    const start = this.push(prefix) + prefix.length;
    if (body) this.push(body);
    this.push(NEWLINE);
    return {
      digest: line.digest,
      range: body && body.length > 0 ? { at: start, len: body.length } : null,
    };
  }

  /** Write what is queued, close, and rename into place; false when anything failed. */
  async commit(): Promise<boolean> {
    this.flush();
    await this.queue;
    await this.fh.close().catch(() => (this.failed = true));
    if (
      !this.failed &&
      (await rename(this.tmp, this.file).then(
        () => true,
        () => false,
      ))
    )
      return true;
    await rm(this.tmp, { force: true }).catch(() => undefined);
    return false;
  }
}

/**
 * Append one committed run to a results folder's index (creating it with its header when
 * missing). One write in append mode: concurrent runs' lines do not interleave. Synchronous, as
 * the run's other records (store/run-files.ts). Best effort: a failure leaves the run to be read
 * from its report.json.
 */
export function appendRunIndexLine(
  outDir: string,
  id: string,
  stamp: string,
  digest: RunDigest,
  reportJson: string,
): void {
  if (!indexableId(id)) return;
  const file = path.join(outDir, RUN_INDEX_FILE);
  const line = `${id}\t${stamp}\t\t${JSON.stringify(digest)}\t${reportJson}\n`;
  try {
    // "wx": only the first writer of a new index writes its header.
    appendFileSync(file, HEADER_LINE, { flag: "wx" });
  } catch {
    // there already
  }
  try {
    appendFileSync(file, line);
  } catch {
    // best effort (above)
  }
}

/** Ranges closer than this are read with one call (the bytes between are read and dropped). */
const MAX_GAP = 1 << 16;
/** At most this many bytes are read with one call. */
const MAX_SPAN = 1 << 22;

/**
 * Reads report JSON from an open index file by range. `texts` reads many ranges in file
 * order, one read call per span of nearby ranges, whatever order they are asked in.
 */
export class IndexReports {
  constructor(readonly fh: FileHandle) {}

  /** An index file opened for reading (null when there is none): ranges refer to this file even if it is replaced. */
  static async open(outDir: string): Promise<IndexReports | null> {
    const fh = await open(path.join(outDir, RUN_INDEX_FILE), "r").catch(() => null);
    return fh ? new IndexReports(fh) : null;
  }

  /** The report JSON bytes at each range, in the order given (null where the file is cut short). */
  async texts(ranges: readonly ReportRange[]): Promise<Array<Buffer | null>> {
    const order = ranges.map((r, i) => ({ i, at: r.at, len: r.len })).sort((a, b) => a.at - b.at);
    const out: Array<Buffer | null> = new Array<Buffer | null>(ranges.length).fill(null);
    let i = 0;
    while (i < order.length) {
      const first = order[i];
      if (!first) break;
      const span = [first];
      let end = first.at + first.len;
      for (let j = i + 1; j < order.length; j++) {
        const r = order[j];
        if (!r || r.at - end > MAX_GAP || r.at + r.len - first.at > MAX_SPAN) break;
        span.push(r);
        end = Math.max(end, r.at + r.len);
      }
      const size = end - first.at;
      const buf = Buffer.allocUnsafe(size);
      const { bytesRead } = await this.fh.read(buf, 0, size, first.at);
      for (const r of span) {
        const from = r.at - first.at;
        if (from + r.len <= bytesRead) out[r.i] = buf.subarray(from, from + r.len);
      }
      i += span.length;
    }
    return out;
  }

  /** The bytes at one range (for copying a line into a new index); null when cut short. */
  async bytes(range: ReportRange): Promise<Buffer | null> {
    return (await this.texts([range]))[0] ?? null;
  }

  async close(): Promise<void> {
    await this.fh.close().catch(() => undefined);
  }
}
