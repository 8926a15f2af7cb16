/**
 * Golden files: summary.md, comparison_report.md and the JUnit XML, rendered from fixed stored
 * runs (no agent runs). Each case is a folder `test/golden/<case>/`:
 *
 *   results/             a stored results folder: metadata.json and runs/<id>/report.json
 *   summary.md           the expected renderings (golden files)
 *   comparison_report.md
 *   junit.xml
 *
 * The test copies `results/` to a temporary folder and renders it through the library API the CLI
 * uses (`writeExperimentReports`, as `skillbench report` does, and `writeCiOutputs` for `--junit`),
 * then compares each file byte for byte. The only normalisation is the temporary folder's path,
 * written as `<RESULTS>`: everything else comes from the stored runs, so any other difference is
 * a change in what the reports say.
 *
 * Cases:
 * - `demo`: the bundled demo (3 tasks × 2 treatments × 2 repetitions, the LLM judge on), as played
 *   by the scripted model; failures, N/A dimensions and judge columns included.
 * - `mixed`: one task of the demo, with one run excluded (rate limit, errored), one flagged and
 *   the judge missing on the excluded run: the data-quality paths of every report.
 *
 * After an intended change to a report, regenerate the golden files and review the diff:
 *
 *   UPDATE_GOLDEN=1 npx vitest run test/golden
 *
 * To add a case, add `test/golden/<case>/results/` (a stored results folder with its absolute
 * paths made neutral) and run the update once.
 */
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readReports, writeCiOutputs, writeExperimentReports } from "../../src/index.js";
import { readMetadata } from "../../src/store/metadata.js";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const UPDATE = process.env.UPDATE_GOLDEN === "1";
const FILES = ["summary.md", "comparison_report.md", "junit.xml"] as const;

const tmp = mkdtempSync(path.join(tmpdir(), "skillbench-golden-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const cases = readdirSync(HERE, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(path.join(HERE, d.name, "results")))
  .map((d) => d.name)
  .sort();

/** Render a case's stored runs; file name -> text with the results folder's path neutral. */
async function render(name: string): Promise<Record<string, string>> {
  const dir = path.join(tmp, name);
  cpSync(path.join(HERE, name, "results"), dir, { recursive: true });
  await writeExperimentReports(dir, { html: false });
  await writeCiOutputs(dir, { junit: "junit.xml", cwd: dir, env: {} });
  const out: Record<string, string> = {};
  for (const f of FILES)
    out[f] = readFileSync(path.join(dir, f), "utf8").split(dir).join("<RESULTS>");
  return out;
}

describe("golden report files", () => {
  it("has cases", () => {
    expect(cases).toEqual(["demo", "mixed"]);
  });

  for (const name of cases) {
    describe(name, () => {
      let rendered: Record<string, string> = {};
      beforeAll(async () => {
        rendered = await render(name);
      });
      it("every stored run parses (a report the schema refuses would silently leave the files)", async () => {
        // index: false: the test reads the checked-in folder and must not write a run index into it.
        const stored = await readReports(path.join(HERE, name, "results"), { index: false });
        expect(stored.problems).toEqual([]);
        const meta = await readMetadata(path.join(HERE, name, "results", "metadata.json"));
        expect(meta?.matrix?.length).toBeGreaterThan(0);
        expect(stored.reports).toHaveLength(meta?.matrix?.length ?? -1);
      });
      for (const file of FILES) {
        it(`${file} matches test/golden/${name}/${file}`, () => {
          const text = rendered[file];
          const golden = path.join(HERE, name, file);
          if (UPDATE) writeFileSync(golden, text ?? "");
          expect(existsSync(golden), `${golden} is missing: run with UPDATE_GOLDEN=1`).toBe(true);
          expect(text).toBe(readFileSync(golden, "utf8"));
        });
      }
    });
  }
});
