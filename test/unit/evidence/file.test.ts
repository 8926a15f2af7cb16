import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InputError } from "../../../src/core/errors.js";
import { parseEvidence, parseEvidenceFile } from "../../../src/evidence/index.js";
import { init, lines, result, toolResult, toolUse } from "./events.js";

let dir = "";
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "sb-evidence-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("parseEvidenceFile", () => {
  it("matches parseEvidence on a multi-megabyte file with multibyte text across chunk boundaries", async () => {
    const big = "é😀".repeat(300_000);
    const text = lines(
      init(),
      toolUse("a", "Bash", { command: "x" }),
      toolResult("a", big),
      result({ result: big.slice(0, 100) }),
    );
    const file = path.join(dir, "big.jsonl");
    await writeFile(file, text);
    const ev = await parseEvidenceFile(file, { workspace: "/ws" });
    expect(ev).toEqual(parseEvidence(text, { workspace: "/ws" }));
    expect(ev.result_text).toBe(big.slice(0, 100));
  });

  it("reports a truncated last line", async () => {
    const file = path.join(dir, "cut.jsonl");
    await writeFile(file, `${init()}\n{"type":"resu`);
    const ev = await parseEvidenceFile(file);
    expect(ev.diagnostics).toMatchObject({
      lines: 2,
      malformed_lines: [2],
      truncated_last_line: true,
    });
  });

  it("an empty file gives empty evidence", async () => {
    const file = path.join(dir, "empty.jsonl");
    await writeFile(file, "");
    const ev = await parseEvidenceFile(file);
    expect(ev.diagnostics.lines).toBe(0);
    expect(ev.is_error).toBe(true);
  });

  it("a missing file is an InputError naming the file", async () => {
    const file = path.join(dir, "nope.jsonl");
    await expect(parseEvidenceFile(file)).rejects.toBeInstanceOf(InputError);
    await expect(parseEvidenceFile(file)).rejects.toThrow(file);
  });
});
