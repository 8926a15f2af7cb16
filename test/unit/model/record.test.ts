import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRecorder } from "../../../src/model/record.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "skillbench-record-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("createRecorder", () => {
  it("redacts each request's own credentials, also when requests alternate between keys", async () => {
    const file = path.join(dir, "log.jsonl");
    const rec = createRecorder(file, ["experiment-wide-secret-value"]);
    // Not in a known key format (sk-…), which is redacted whatever the request's credentials.
    const [a, b] = ["first-key-0123456789", "second-key-9876543210"] as const;
    const keys = [a, b];
    // A, B, A, none: a kept redactor must be the one of the request's own credentials.
    for (const [i, secrets] of [[a], [b], [a], []].entries())
      rec.write({ seq: i, echo: `${keys.join(" ")} experiment-wide-secret-value` }, secrets);
    const lines = (await readFile(file, "utf8")).trim().split("\n");
    expect(rec.errors).toEqual([]);
    expect(lines).toHaveLength(4);
    const echoes = lines.map((l) => (JSON.parse(l) as { echo: string }).echo);
    expect(echoes[0]).toBe(`[REDACTED] ${b} [REDACTED]`);
    expect(echoes[1]).toBe(`${a} [REDACTED] [REDACTED]`);
    expect(echoes[2]).toBe(`[REDACTED] ${b} [REDACTED]`);
    expect(echoes[3]).toBe(`${a} ${b} [REDACTED]`);
  });
});
