import { mkdir, readFile, rename, rm } from "node:fs/promises";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { z } from "zod";
import {
  SuiteConfigSchema,
  TaskSpecSchema,
  TreatmentSpecSchema,
  type Suite,
} from "../suite/index.js";
import { sha256 } from "../util/hash.js";
import { writeJsonAtomic } from "../util/fs.js";
import {
  compress,
  decodeArchive,
  decompress,
  encodeArchive,
  readTree,
  writeTree,
  type ArchiveFile,
} from "./archive.js";
import { bundleKey, type ArtifactStore } from "./artifacts.js";

/**
 * A suite bundle: the settled suite (its tasks, treatments, config and hash, exactly as the
 * coordinator loaded them) plus every file they point at, so that a worker with no shared
 * filesystem runs the same suite. Named by the sha256 of its uncompressed bytes; uploaded once
 * per content, fetched and cached by each worker. Paths inside the suite are stored relative to
 * their root (the suite folder, and any skill folder outside it) and rebased where a worker
 * unpacks them.
 */

/** Left out of a bundle, as out of the suite's content hash (src/suite/load-suite.ts). */
const JUNK = new Set([".git", "node_modules", "__pycache__", ".DS_Store", ".skillbench"]);
/** An uncompressed bundle larger than this is refused on both sides. */
const MAX_BUNDLE_BYTES = 1024 * 1024 * 1024;
/** How long a bundle stays in the store after its last upload. */
const BUNDLE_TTL_SEC = 14 * 24 * 3600;

const SuiteSchema = z.object({
  root: z.string(),
  tasks: z.array(TaskSpecSchema),
  treatments: z.array(TreatmentSpecSchema),
  profiles: z.array(z.object({ name: z.string(), file: z.string() })),
  config: SuiteConfigSchema,
  simulatorInstructionFile: z.string().nullable(),
  hash: z.string(),
  warnings: z.array(
    z.object({ file: z.string(), field: z.string().optional(), message: z.string() }),
  ),
});

const MetaSchema = z.object({
  schema: z.literal("skillbench.suite-bundle.v1"),
  roots: z.number().int().min(1),
  suite: z.unknown(),
});

const MARK = "\u0000skillbench-root:";

function mapStrings(value: unknown, f: (s: string) => string): unknown {
  if (typeof value === "string") return f(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, f));
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, f)]));
  return value;
}

function under(root: string, p: string): boolean {
  return p === root || p.startsWith(`${root}${path.sep}`);
}

export interface PackedBundle {
  hash: string;
  compressed: Buffer;
  bytes: number;
  files: number;
}

/** Pack a loaded suite. Deterministic: the same suite gives the same hash. */
export async function packSuiteBundle(suite: Suite): Promise<PackedBundle> {
  const roots = [suite.root];
  for (const t of suite.treatments)
    for (const s of t.skills)
      if (s.path && !roots.some((r) => under(r, s.path as string))) roots.push(s.path);
  // The suite as a worker needs it: no output folder or model script of the coordinator's.
  const { out: _out, model_script: _script, ...config } = suite.config;
  const portable = { ...suite, config };
  const order = roots.map((r, i) => ({ r, i })).sort((a, b) => b.r.length - a.r.length);
  const rel = mapStrings(portable, (s) => {
    for (const { r, i } of order)
      if (under(r, s)) return `${MARK}${i}\u0000${path.relative(r, s).split(path.sep).join("/")}`;
    return s;
  });
  const outRel = suite.config.out ? path.relative(suite.root, suite.config.out) : null;
  const files: ArchiveFile[] = [];
  for (const [i, r] of roots.entries()) {
    const tree = await readTree(
      r,
      (p) =>
        p.split("/").some((seg) => JUNK.has(seg)) ||
        (i === 0 && outRel !== null && (p === outRel || p.startsWith(`${outRel}/`))),
    );
    files.push(...tree.map((f) => ({ ...f, path: `r${i}/${f.path}` })));
  }
  const raw = encodeArchive(
    { schema: "skillbench.suite-bundle.v1", roots: roots.length, suite: rel },
    files,
  );
  if (raw.length > MAX_BUNDLE_BYTES)
    throw new Error(
      `the suite bundle is ${raw.length} bytes, over the ${MAX_BUNDLE_BYTES}-byte limit for queued runs`,
    );
  return {
    hash: sha256(raw),
    compressed: await compress(raw),
    bytes: raw.length,
    files: files.length,
  };
}

/**
 * Upload a bundle unless the store already holds it (then keep it longer). A stored copy that
 * differs from this one and whose content does not match its hash (corrupted, or written by
 * someone else) is replaced by this coordinator's copy: otherwise every worker would fail on it,
 * and every --resume the same way.
 */
export async function uploadBundle(
  store: ArtifactStore,
  b: PackedBundle,
): Promise<"uploaded" | "already stored" | "replaced"> {
  const key = bundleKey(b.hash);
  if (await store.putIfAbsent(key, b.compressed, BUNDLE_TTL_SEC)) return "uploaded";
  const held = await store.get(key);
  if (held !== null && !held.equals(b.compressed)) {
    const raw = await decompress(held, MAX_BUNDLE_BYTES).catch(() => null);
    if (raw === null || sha256(raw) !== b.hash) {
      await store.put(key, b.compressed, BUNDLE_TTL_SEC);
      return "replaced";
    }
  }
  if (held === null) await store.put(key, b.compressed, BUNDLE_TTL_SEC);
  else await store.touch(key, BUNDLE_TTL_SEC);
  return "already stored";
}

/** A worker's cache of unpacked bundles: `<dir>/<hash>/` (unpacked once, atomically). */
export class BundleCache {
  private readonly loaded = new Map<string, Promise<Suite>>();
  constructor(
    private readonly dir: string,
    private readonly store: ArtifactStore,
  ) {}

  get(hash: string): Promise<Suite> {
    let p = this.loaded.get(hash);
    if (!p) {
      p = this.load(hash);
      this.loaded.set(hash, p);
      p.catch(() => this.loaded.delete(hash));
    }
    return p;
  }

  private async load(hash: string): Promise<Suite> {
    const final = path.join(this.dir, hash);
    const suiteFile = path.join(final, "suite.json");
    const cached = await readFile(suiteFile, "utf8").catch(() => null);
    if (cached !== null) return SuiteSchema.parse(JSON.parse(cached));
    const data = await this.store.get(bundleKey(hash));
    if (!data) throw new Error(`suite bundle ${hash} is not in the queue's store (expired?)`);
    const raw = await decompress(data, MAX_BUNDLE_BYTES);
    if (sha256(raw) !== hash)
      throw new Error(`suite bundle ${hash}: content does not match its hash`);
    const { meta, files } = decodeArchive(raw);
    const m = MetaSchema.parse(meta);
    const tmp = path.join(this.dir, `.${hash}.${randomBytes(4).toString("hex")}.tmp`);
    await mkdir(tmp, { recursive: true });
    try {
      await writeTree(tmp, files);
      const rootOf = (i: number): string => path.join(final, `r${i}`);
      const suite = mapStrings(m.suite, (s) => {
        if (!s.startsWith(MARK)) return s;
        const rest = s.slice(MARK.length);
        const cut = rest.indexOf("\u0000");
        const i = Number(rest.slice(0, cut));
        if (!Number.isInteger(i) || i < 0 || i >= m.roots)
          throw new Error(`bad bundle path ${rest}`);
        const r = rest.slice(cut + 1);
        return r === "" ? rootOf(i) : path.join(rootOf(i), ...r.split("/"));
      });
      const parsed = SuiteSchema.parse(suite);
      for (let i = 0; i < m.roots; i++) await mkdir(path.join(tmp, `r${i}`), { recursive: true });
      await writeJsonAtomic(path.join(tmp, "suite.json"), parsed);
      // eslint-disable-next-line @typescript-eslint/use-unknown-in-catch-callback-variable
      await rename(tmp, final).catch(async (e: NodeJS.ErrnoException) => {
        // Another worker process sharing this cache unpacked it first.
        if (e.code !== "ENOTEMPTY" && e.code !== "EEXIST") throw e;
        await rm(tmp, { recursive: true, force: true });
      });
      return parsed;
    } catch (e) {
      await rm(tmp, { recursive: true, force: true });
      throw e;
    }
  }
}
