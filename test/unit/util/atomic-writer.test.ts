import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeReportPieces } from "../../../src/store/report-files.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "skillbench-atomic-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("a file written in pieces (AtomicFileWriter)", () => {
  const MiB = 1 << 20;
  const cases: Array<[string, string[]]> = [
    ["no piece", []],
    ["one empty piece", [""]],
    ["small pieces", ["a", "bc", "", "def"]],
    // Multi-byte characters straddling the 1 MiB write buffer's end.
    ["pieces past one write", Array.from({ length: 3000 }, (_, i) => `${i}—é😀`.repeat(60))],
    ["a piece longer than a write", ["head", "x".repeat(MiB + 17), "—".repeat(MiB), "tail"]],
    ["a piece exactly a write long", ["x".repeat(MiB), "y"]],
    // The writer encodes a piece before knowing it fits: pieces that end at the write's end,
    // and ones whose last character (2, 3 or 4 bytes) would cross it.
    ["a multi-byte piece ending at a write's end", ["x".repeat(MiB - 5), "—é", "z"]],
    ["a 4-byte character crossing a write's end", ["x".repeat(MiB - 2), "😀", "y"]],
    ["a 3-byte character crossing a write's end", ["x".repeat(MiB - 1), "ab—", "y"]],
    ["a 2-byte character 3 bytes before a write's end", ["x".repeat(MiB - 3), "abé", "y"]],
    ["a piece longer than a write in bytes only", ["x".repeat(10), "—".repeat(MiB / 2)]],
  ];
  it.each(cases)("holds the pieces joined: %s", async (_name, pieces) => {
    const file = path.join(dir, "out.md");
    await writeReportPieces(file, pieces);
    expect(await readFile(file, "utf8")).toBe(pieces.join(""));
    expect(await readdir(dir)).toEqual(["out.md"]);
  });

  it("writes a lone surrogate as U+FFFD, also across a write's end", async () => {
    const file = path.join(dir, "out.md");
    const pieces = ["x".repeat(MiB - 2), "\ud800", "a\udc00b".repeat(3)];
    await writeReportPieces(file, pieces);
    expect(await readFile(file, "utf8")).toBe(
      pieces.join("").replace(/[\ud800-\udfff]/g, "\ufffd"),
    );
  });

  it("leaves neither the file nor a temporary file when a piece fails", async () => {
    const file = path.join(dir, "out.md");
    function* failing(): Generator<string> {
      yield "x".repeat(3 * MiB);
      throw new Error("piece failed");
    }
    await expect(writeReportPieces(file, failing())).rejects.toThrow("piece failed");
    expect(await readdir(dir)).toEqual([]);
  });
});
