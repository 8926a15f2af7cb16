import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { EvidenceSchema } from "../../../src/core/evidence.js";
import { EvidenceBuilder } from "../../../src/agents/claude/decoder.js";
import { parseEvidence, parseEvidenceFile } from "../../../src/evidence/index.js";
import { LineSplitter } from "../../../src/evidence/lines.js";
import type { EvidenceOptions } from "../../../src/evidence/index.js";

const DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../fixtures/transcripts/claude",
);
const cases = readdirSync(DIR)
  .filter((f) => f.endsWith(".jsonl"))
  .map((f) => f.slice(0, -".jsonl".length))
  .sort();

function optionsFor(c: string): EvidenceOptions {
  const file = path.join(DIR, `${c}.options.json`);
  if (!existsSync(file)) return {};
  const raw: unknown = JSON.parse(readFileSync(file, "utf8"));
  const pre =
    typeof raw === "object" &&
    raw !== null &&
    "preexisting" in raw &&
    Array.isArray(raw.preexisting)
      ? raw.preexisting.filter((p): p is string => typeof p === "string")
      : [];
  return { preexisting: new Set(pre) };
}

describe("golden Claude Code transcripts", () => {
  it("has the recorded cases", () => {
    expect(cases).toEqual([
      "failing-tool",
      "reference-sample",
      "resumed",
      "skill",
      "text-only",
      "tool-use",
    ]);
  });

  it.each(cases)("%s: matches the expected evidence", (c) => {
    const text = readFileSync(path.join(DIR, `${c}.jsonl`), "utf8");
    const expected = EvidenceSchema.parse(
      JSON.parse(readFileSync(path.join(DIR, `${c}.expected.json`), "utf8")),
    );
    const got = parseEvidence(text, optionsFor(c));
    expect(EvidenceSchema.parse(got)).toEqual(got);
    expect(got).toEqual(expected);
  });

  it.each(cases)("%s: the file reader and a chunked feed give the same evidence", async (c) => {
    const file = path.join(DIR, `${c}.jsonl`);
    const text = readFileSync(file, "utf8");
    const whole = parseEvidence(text, optionsFor(c));
    expect(await parseEvidenceFile(file, optionsFor(c))).toEqual(whole);
    for (const size of [1, 7, 333]) {
      const b = new EvidenceBuilder(optionsFor(c));
      const s = new LineSplitter((l) => b.pushLine(l));
      for (let i = 0; i < text.length; i += size) s.push(text.slice(i, i + size));
      expect(b.finish({ truncated: s.end() })).toEqual(whole);
    }
  });
});
