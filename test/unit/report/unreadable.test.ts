import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { writeExperimentReports } from "../../../src/index.js";
import { unreadableRunsNote, withNoteAfterTitle } from "../../../src/report/unreadable.js";

const GOLDEN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../golden/mixed");
const tmp = mkdtempSync(path.join(tmpdir(), "skillbench-unreadable-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("unreadableRunsNote", () => {
  it.each([
    [[], null],
    [
      [{ file: "runs/a/report.json", message: "schema:\n  bad   field" }],
      "> ⚠️ **1 stored run report(s) could not be read and are left out of every number below.** Fix or remove them, then run `skillbench report` again:\n> - `runs/a/report.json`: schema: bad field",
    ],
  ])("%j", (problems, expected) => {
    expect(unreadableRunsNote(problems)).toBe(expected);
  });

  it("lists at most 20 files and counts the rest", () => {
    const problems = Array.from({ length: 23 }, (_, i) => ({ file: `f${i}`, message: "x" }));
    const note = unreadableRunsNote(problems) ?? "";
    expect(note.split("\n")).toHaveLength(22);
    expect(note).toContain("… and 3 more");
  });

  it.each([
    ["# T\n\nbody\n", null, "# T\n\nbody\n"],
    ["# T\n\nbody\n", "> n", "# T\n\n> n\n\nbody\n"],
    ["no title\n", "> n", "> n\n\nno title\n"],
  ])("withNoteAfterTitle(%j, %j)", (md, note, expected) => {
    expect(withNoteAfterTitle(md, note)).toBe(expected);
  });
});

describe("reports of a folder with an unreadable run", () => {
  it("summary.md and comparison_report.md say which run was left out", async () => {
    const dir = path.join(tmp, "mixed");
    cpSync(path.join(GOLDEN, "results"), dir, { recursive: true });
    const broken = path.join(dir, "runs", "hello-file-CONTROL-r2", "report.json");
    writeFileSync(broken, '{"schema": "not a run report"}');
    await writeExperimentReports(dir, { html: false });
    for (const file of ["summary.md", "comparison_report.md"]) {
      const text = readFileSync(path.join(dir, file), "utf8");
      expect(text, file).toContain("1 stored run report(s) could not be read");
      expect(text, file).toContain("hello-file-CONTROL-r2");
    }
  });
});
