import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadSuite } from "../../../src/suite/index.js";
import { decodeArchive, encodeArchive, writeTree } from "../../../src/queue/archive.js";
import type { ArtifactStore } from "../../../src/queue/artifacts.js";
import { BundleCache, packSuiteBundle, uploadBundle } from "../../../src/queue/bundle.js";
import { jobIdFor, parseRateLimit } from "../../../src/queue/job.js";
import { packRunRecord } from "../../../src/queue/transfer.js";
import { parseQueueUrl, redactQueueUrl } from "../../../src/queue/url.js";
import { fixtureSuite } from "../../helpers/cli.js";

const dirs: string[] = [];
async function tmp(): Promise<string> {
  const d = await mkdtemp(path.join(tmpdir(), "skillbench-queue-unit-"));
  dirs.push(d);
  return d;
}
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

/** An artifact store in memory (the seam an S3 store implements). */
function memoryStore(): ArtifactStore & { map: Map<string, Buffer> } {
  const map = new Map<string, Buffer>();
  return {
    map,
    put: async (k, d) => void map.set(k, d),
    putIfAbsent: async (k, d) => (map.has(k) ? false : (map.set(k, d), true)),
    get: async (k) => map.get(k) ?? null,
    delete: async (k) => void map.delete(k),
    touch: async (k) => map.has(k),
  };
}

describe("queue URL", () => {
  it.each([
    ["redis://127.0.0.1:6379/2", "redis://127.0.0.1:6379/2", null, 2],
    ["redis://:s3cret@host:6379/0", "redis://:***@host:6379/0", "s3cret", 0],
    ["rediss://user:p%40ss@host:6380", "rediss://user:***@host:6380", "p@ss", 0],
  ])("%s", (text, display, password, db) => {
    const u = parseQueueUrl(text);
    expect(u.display).toBe(display);
    expect(u.password).toBe(password);
    expect(u.db).toBe(db);
    expect(u.display).not.toContain("s3cret");
  });

  it.each(["http://host:6379", "not a url", "redis://host:6379/x"])("refuses %s", (text) => {
    expect(() => parseQueueUrl(text)).toThrow(/--queue/);
  });

  it("redacts even what it cannot parse", () => {
    expect(redactQueueUrl("redis://:pw@[bad")).not.toContain("pw");
  });
});

describe("rate limit and job ids", () => {
  it.each([
    ["50/min", { max: 50, per_ms: 60_000 }],
    ["2/s", { max: 2, per_ms: 1000 }],
    ["600 / h", { max: 600, per_ms: 3_600_000 }],
    ["0/min", null],
    ["50", null],
    ["5/day", null],
  ])("%s", (text, want) => expect(parseRateLimit(text)).toEqual(want));

  it("a job id is the experiment id and the run id (no colon: BullMQ refuses it)", () => {
    const id = jobIdFor("20261201-120000-abcdef", "tone-CONTROL-r1");
    expect(id).toBe("20261201-120000-abcdef/tone-CONTROL-r1");
    expect(id).not.toContain(":");
  });
});

describe("archive", () => {
  it("round-trips and is deterministic whatever the order of files", () => {
    const a = { path: "b/x.txt", data: Buffer.from("x"), mode: 0o644 };
    const b = { path: "a.sh", data: Buffer.from("#!/bin/sh\n"), mode: 0o755 };
    const one = encodeArchive({ k: 1 }, [a, b]);
    expect(one.equals(encodeArchive({ k: 1 }, [b, a]))).toBe(true);
    const back = decodeArchive(one);
    expect(back.meta).toEqual({ k: 1 });
    expect(back.files.map((f) => [f.path, f.data.toString(), f.mode])).toEqual([
      ["a.sh", "#!/bin/sh\n", 0o755],
      ["b/x.txt", "x", 0o644],
    ]);
  });

  it("refuses an entry that leaves its folder", async () => {
    const d = await tmp();
    await expect(
      writeTree(d, [{ path: "../escape.txt", data: Buffer.from("x"), mode: 0o644 }]),
    ).rejects.toThrow(/leaves its folder/);
  });

  it("refuses a truncated archive", () => {
    const raw = encodeArchive({}, [{ path: "f", data: Buffer.from("0123456789"), mode: 0o644 }]);
    expect(() => decodeArchive(raw.subarray(0, raw.length - 3))).toThrow(/truncated/);
  });
});

describe("suite bundle", () => {
  it("the same suite gives the same hash; a worker's copy is the same suite at its own path", async () => {
    const suite = await loadSuite(fixtureSuite("e2e-queue"));
    const one = await packSuiteBundle(suite);
    const two = await packSuiteBundle(await loadSuite(fixtureSuite("e2e-queue")));
    expect(one.hash).toBe(two.hash);
    expect(one.hash).toMatch(/^[0-9a-f]{64}$/);
    const store = memoryStore();
    expect(await uploadBundle(store, one)).toBe("uploaded");
    expect(await uploadBundle(store, two)).toBe("already stored"); // uploaded once per content
    const cacheDir = await tmp();
    const copy = await new BundleCache(cacheDir, store).get(one.hash);
    const root = path.join(cacheDir, one.hash, "r0");
    expect(copy.root).toBe(root);
    expect(copy.hash).toBe(suite.hash);
    expect(copy.tasks.map((t) => [t.name, t.hash])).toEqual(
      suite.tasks.map((t) => [t.name, t.hash]),
    );
    const skill = copy.treatments.find((t) => t.name === "WITH_SKILL")?.skills[0];
    expect(skill?.path).toBe(path.join(root, "skills", "greeter"));
    expect(await readFile(path.join(skill?.path ?? "", "SKILL.md"), "utf8")).toBe(
      await readFile(path.join(fixtureSuite("e2e-queue"), "skills", "greeter", "SKILL.md"), "utf8"),
    );
    // The coordinator's model script and output folder are not the worker's business.
    expect(copy.config.model_script).toBeUndefined();
    // A second cache over the same folder reads the unpacked copy without the store.
    const again = await new BundleCache(cacheDir, memoryStore()).get(one.hash);
    expect(again).toEqual(copy);
  });

  it("a corrupted bundle is refused", async () => {
    const suite = await loadSuite(fixtureSuite("e2e-queue"));
    const b = await packSuiteBundle(suite);
    const store = memoryStore();
    const other = await packSuiteBundle({ ...suite, hash: "sha256:different" });
    store.map.set(`bundle/${b.hash}`, other.compressed);
    await expect(new BundleCache(await tmp(), store).get(b.hash)).rejects.toThrow(
      /does not match its hash/,
    );
    // The next coordinator's upload replaces it with its own copy; workers then get the suite.
    expect(await uploadBundle(store, b)).toBe("replaced");
    expect(store.map.get(`bundle/${b.hash}`)?.equals(b.compressed)).toBe(true);
    expect((await new BundleCache(await tmp(), store).get(b.hash)).hash).toBe(suite.hash);
    store.map.set(`bundle/${b.hash}`, Buffer.from("not even gzip"));
    expect(await uploadBundle(store, b)).toBe("replaced");
  });
});

describe("run record transfer", () => {
  it("drops the saved workspace, then the raw output, to stay under the cap; never the report", async () => {
    const d = await tmp();
    await mkdir(path.join(d, "workspace"), { recursive: true });
    await writeFile(path.join(d, "report.json"), "{}");
    await writeFile(path.join(d, "events.json"), "{}");
    // Incompressible bytes, so the cap bites.
    const noise = (n: number) => Buffer.from(Array.from({ length: n }, () => Math.random() * 256));
    await writeFile(path.join(d, "workspace", "big.bin"), noise(40_000));
    await writeFile(path.join(d, "stdout.jsonl"), noise(20_000));
    const all = await packRunRecord(d, "r", 1_000_000);
    expect(all.omitted).toEqual([]);
    const noWs = await packRunRecord(d, "r", 30_000);
    expect(noWs.omitted).toEqual(["workspace/big.bin"]);
    expect(noWs.compressed.length).toBeLessThanOrEqual(30_000);
    const bare = await packRunRecord(d, "r", 5_000);
    expect(bare.omitted).toEqual(["workspace/big.bin", "stdout.jsonl"]);
    await expect(packRunRecord(d, "r", 10)).rejects.toThrow(/over the 10-byte cap/);
  });
});
