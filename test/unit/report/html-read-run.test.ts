/**
 * readRunPageSync parses the first run pages of a process with zod's interpreted parsers and the
 * rest with the compiled ones (a static page embeds ~190): both must give the same page.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readRunPageSync } from "../../../src/report/html/read-run.js";

const GOLDEN = path.resolve(import.meta.dirname, "../../golden/mixed/results/runs");
const EVIDENCE = path.resolve(
  import.meta.dirname,
  "../../fixtures/transcripts/claude/skill.expected.json",
);

const root = mkdtempSync(path.join(tmpdir(), "skillbench-read-run-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("readRunPageSync", () => {
  it("the same page whether read with the interpreted schemas (the first 32) or the compiled ones", () => {
    const id = "hello-file-WITH_SKILL-r1";
    const dir = path.join(root, "runs", id);
    mkdirSync(dir, { recursive: true });
    cpSync(path.join(GOLDEN, id, "report.json"), path.join(dir, "report.json"));
    cpSync(EVIDENCE, path.join(dir, "events.json"));
    // schema-valid JSON that is not a report: no page
    const broken = path.join(root, "runs", "broken-r1");
    mkdirSync(broken, { recursive: true });
    cpSync(EVIDENCE, path.join(broken, "report.json"));

    expect(readRunPageSync(root, "broken-r1")).toBeNull();
    const pages = Array.from({ length: 40 }, () => readRunPageSync(root, id));
    expect(readRunPageSync(root, "broken-r1")).toBeNull();
    const first = pages[0];
    expect(first?.evidence).not.toBeNull();
    for (const p of pages) expect(p).toEqual(first);
  });
});
