import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { InputError } from "../../../src/core/errors.js";
import { compactDigest, digestOf } from "../../../src/core/digest.js";
import { RunReportSchema } from "../../../src/core/report.js";
import { loadFrozenBaseline } from "../../../src/runner/baseline-from.js";
import { readReports, readStoredRuns } from "../../../src/store/read.js";
import { RUN_INDEX_FILE } from "../../../src/store/run-index.js";

// An unindexed reading parses each report.json for its digest alone (store/read.ts parseDigest):
// what the digest holds is checked as a whole reading checks it, the rest by what reads runs whole.
const GOLDEN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../golden/mixed");
const tmp = mkdtempSync(path.join(tmpdir(), "skillbench-read-digest-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const RUN = "hello-file-CONTROL-r2";
let dir: string;
let n = 0;
beforeEach(() => {
  dir = path.join(tmp, `r${n++}`);
  cpSync(path.join(GOLDEN, "results"), dir, { recursive: true });
  rmSync(path.join(dir, RUN_INDEX_FILE), { force: true });
});
const reportFile = (): string => path.join(dir, "runs", RUN, "report.json");

/** report.json of RUN, changed by `edit` (its JSON, changed in place). */
function editReport(edit: (r: Record<string, unknown>) => void): void {
  const r = JSON.parse(readFileSync(reportFile(), "utf8")) as Record<string, unknown>;
  edit(r);
  writeFileSync(reportFile(), JSON.stringify(r));
}

describe("readStoredRuns without the run index", () => {
  it("gives every run the digest a whole reading gives", async () => {
    const runs = await readStoredRuns(dir, { index: false });
    expect(runs.problems).toEqual([]);
    const file = (id: string): unknown =>
      JSON.parse(readFileSync(path.join(dir, "runs", id, "report.json"), "utf8"));
    for (const d of runs.digests)
      // a packed digest's fields are getters: compared as the plain object they read as
      expect(compactDigest(d)).toStrictEqual(digestOf(RunReportSchema.parse(file(d.run_id))));
  });

  it.each([
    ["schema version", (r: Record<string, unknown>) => (r.schema = "skillbench.run/0"), "schema"],
    ["`passed` field", (r: Record<string, unknown>) => (r.passed = "yes"), "passed"],
    [
      "first rubric dimension's score",
      (r: Record<string, unknown>) => {
        const rubric = r.rubric as { dimensions: Array<Record<string, unknown>> };
        (rubric.dimensions[0] ?? {}).score = "high";
      },
      "rubric.dimensions.0.score",
    ],
  ])("lists a run whose %s is wrong as a problem naming the field", async (_what, edit, field) => {
    editReport(edit);
    const runs = await readStoredRuns(dir, { index: false });
    expect(runs.digests.map((d) => d.run_id)).not.toContain(RUN);
    expect(runs.problems).toHaveLength(1);
    expect(runs.problems[0]?.file).toBe(reportFile());
    expect(runs.problems[0]?.message).toContain(`${field}: `);
  });

  it("counts a run broken only where a digest does not look; reading it whole names the file and field", async () => {
    editReport((r) => ((r.artifacts as Record<string, unknown>).stdout = 7));
    const runs = await readStoredRuns(dir, { index: false });
    expect(runs.problems).toEqual([]);
    expect(runs.digests.map((d) => d.run_id)).toContain(RUN);
    const whole = readReports(dir, { index: false });
    await expect(whole).rejects.toBeInstanceOf(InputError);
    await expect(whole).rejects.toThrow(
      `${reportFile()}: not a valid run report: artifacts.stdout: `,
    );
  });

  it("--baseline-from names such a report rather than take the folder for one without runs", async () => {
    editReport((r) => ((r.artifacts as Record<string, unknown>).stdout = 7));
    const loaded = loadFrozenBaseline(dir, ["hello-file"]);
    await expect(loaded).rejects.toBeInstanceOf(InputError);
    await expect(loaded).rejects.toThrow(
      `${reportFile()}: not a valid run report: artifacts.stdout: `,
    );
  });
});
