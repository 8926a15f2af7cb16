import { link, mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { EvidenceBuilder } from "../../../src/agents/claude/decoder.js";
import { parseEvidenceChunks, parseEvidenceFile } from "../../../src/evidence/index.js";
import { tailOf } from "../../../src/runner/tail.js";
import {
  readReportText,
  readStoredStream,
  readTextIfPresent,
  readTextOrNull,
  tailText,
  writeRecordIfChanged,
} from "../../../src/runner/rescore-files.js";
import { runPaths } from "../../../src/store/layout.js";
import { indexStamp } from "../../../src/store/run-index.js";
import { makeRedactor, redactedRecord, redactValue } from "../../../src/util/redact.js";

const tmp = await mkdtemp(path.join(os.tmpdir(), "sb-rescore-files-"));
afterAll(() => rm(tmp, { recursive: true, force: true }));

const Schema = z.object({ a: z.number() });

describe("rescore's file reads", () => {
  it("reads a stream in the chunks the streaming reader sees: same evidence, same tail, a character cut by a chunk's end kept whole", async () => {
    const file = path.join(tmp, "stdout.jsonl");
    // Over 1 MiB, with a multi-byte character across the first chunk's end and no final newline.
    const pad = "x".repeat((1 << 20) - 40);
    const lines = [
      JSON.stringify({ type: "system", subtype: "init", cwd: "/w", session_id: "s" }),
      JSON.stringify({ type: "user", note: `${pad}ééé€€€` }),
      JSON.stringify({ type: "result", subtype: "success", result: "done ✓", is_error: false }),
      '{"type":"assistant","cut',
    ];
    await writeFile(file, lines.join("\n"));
    const read = readStoredStream(file);
    expect(read.chunks).not.toBeNull();
    expect((read.chunks ?? []).join("")).toBe(await readFile(file, "utf8"));
    expect(read.tail).toBe(await tailOf(file));
    const fromChunks = parseEvidenceChunks(read.chunks ?? [], new EvidenceBuilder());
    expect(fromChunks).toEqual(await parseEvidenceFile(file));
    expect(fromChunks.diagnostics.truncated_last_line).toBe(true);
  });

  it("says which transcript cannot be read", () => {
    expect(() => readStoredStream(path.join(tmp, "nope.jsonl"))).toThrow(
      /nope\.jsonl: cannot read transcript: ENOENT/,
    );
  });

  it("tells a missing file from one that cannot be read", async () => {
    const dir = path.join(tmp, "a-dir");
    await mkdir(dir);
    expect(readTextOrNull(path.join(tmp, "missing.json"))).toBeNull();
    expect(readTextIfPresent(path.join(tmp, "missing.json"))).toBeNull();
    expect(() => readTextIfPresent(dir)).toThrow(/a-dir: cannot read/);
    expect(tailText(path.join(tmp, "missing.txt"))).toBe("");
    const paths = runPaths(tmp, "run-1");
    expect(readReportText(paths)).toBeNull(); // no report: an incomplete run
    await mkdir(paths.report, { recursive: true }); // report.json a folder: not a report
    expect(readReportText(paths)).toBeNull();
  });

  it("takes the last 64 KiB of a long file as the tail, as runner/tail.ts", async () => {
    const file = path.join(tmp, "stderr.txt");
    await writeFile(file, `${"a".repeat(70_000)}€${"b".repeat(65_534)}`);
    expect(tailText(file)).toBe(await tailOf(file));
  });
});

describe("rescore's file writes", () => {
  it("leaves a file whose bytes would not change as it is, and replaces a changed one without writing through a hard link", async () => {
    const dir = path.join(tmp, "w");
    await mkdir(dir);
    const file = path.join(dir, "r.json");
    const original = path.join(tmp, "original.json");
    await writeFile(original, `${JSON.stringify({ a: 1 }, null, 2)}\n`);
    await link(original, file); // a results folder copied with cp -al
    const before = await stat(file);

    expect(writeRecordIfChanged(file, Schema, { a: 1 }, await readFile(file, "utf8"))).toBeNull();
    expect((await stat(file)).ino).toBe(before.ino);
    expect((await stat(file)).mtimeMs).toBe(before.mtimeMs);

    const written = writeRecordIfChanged(file, Schema, { a: 2 }, await readFile(file, "utf8"));
    expect(written?.data).toEqual({ a: 2 });
    expect(written?.stat.ino).toBe((await stat(file)).ino);
    expect(written?.stat.ino).not.toBe(before.ino);
    expect(await readFile(file, "utf8")).toBe(`${JSON.stringify({ a: 2 }, null, 2)}\n`);
    expect(await readFile(original, "utf8")).toBe(`${JSON.stringify({ a: 1 }, null, 2)}\n`);
    expect((await readdir(dir)).sort()).toEqual(["r.json"]); // no temporary file left
  });

  it("refuses to write a record its schema rejects, and leaves the file as it was", async () => {
    const file = path.join(tmp, "bad.json");
    await writeFile(file, '{"a":1}\n');
    expect(() => writeRecordIfChanged(file, Schema, { a: "x" }, '{"a":1}\n')).toThrow(
      /refusing to write an invalid record/,
    );
    expect(await readFile(file, "utf8")).toBe('{"a":1}\n');
  });
});

describe("rescore's redaction of a record", () => {
  const redact = makeRedactor(["s3cr3t-value"]);
  const withProto = JSON.parse('{"__proto__":{"k":"s3cr3t-value"},"b":1}') as unknown;
  const table: Array<[string, unknown]> = [
    ["nothing to redact", { a: "x", b: [1, "y", { c: null }], d: true }],
    ["a secret deep inside", { a: "x", b: [1, { c: "key s3cr3t-value here" }], d: "s3cr3t-value" }],
    ["a secret in an array's first item", ["s3cr3t-value", "ok", { a: 1 }]],
    ["a Date (copied as redactValue copies it)", { at: new Date(0), b: "s3cr3t-value" }],
    ["a key named __proto__", withProto],
    ["undefined values", { a: undefined, b: [undefined, "s3cr3t-value"] }],
  ];
  it.each(table)("%s: the JSON text redactValue gives", (_name, value) => {
    expect(JSON.stringify(redactedRecord(value, redact))).toBe(
      JSON.stringify(redactValue(value, redact)),
    );
  });
  it("is the value itself when nothing changes, and never changes the value", () => {
    const value = { a: "x", b: [{ c: "y" }] };
    expect(redactedRecord(value, redact)).toBe(value);
    const secret = { a: "x", b: [{ c: "s3cr3t-value" }], d: { e: 1 } };
    const out = redactedRecord(secret, redact);
    expect(secret.b[0]?.c).toBe("s3cr3t-value");
    expect(out.d).toBe(secret.d); // an unchanged part is shared, not copied
  });
  it("gives the written file's index stamp", async () => {
    const file = path.join(tmp, "stamp.json");
    const written = writeRecordIfChanged(file, Schema, { a: 3 }, null);
    expect(written && indexStamp(written.stat)).toBe(indexStamp(await stat(file)));
  });
});
