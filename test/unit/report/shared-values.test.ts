import { describe, expect, it } from "vitest";
import { buildComparison } from "../../../src/report/comparison/build.js";
import { renderSummaryFiles } from "../../../src/report/summary-md.js";
import type { RunDigest } from "../../../src/core/digest.js";
import { makeMetadata, makeReport, makeSummaryInput } from "./helpers.js";

/**
 * The runs of a results folder share their repeated values (store/packed-digests.ts: every run
 * with the same rubric or check lists holds the very object), and several sections find a
 * value's work once per distinct object. Sharing must change nothing: the same reports with
 * every run's own copies and with equal values shared give the same comparison and summary.
 */
describe("reports over shared values are the reports over copies", () => {
  const runs = (): RunDigest[] =>
    ["task-a", "task-b"].flatMap((task) =>
      ["CONTROL", "WITH_SKILL"].flatMap((treatment) =>
        [1, 2, 3, 4].map((rep) =>
          makeReport({
            task,
            treatment,
            rep,
            passed: (rep + (treatment === "CONTROL" ? 0 : 1)) % 3 !== 0,
            dims:
              rep % 2 === 0
                ? { completion: 1, style: 0.5, safety: null }
                : { completion: treatment === "CONTROL" ? 0 : 1, style: 1, safety: 1 },
            skills: treatment === "WITH_SKILL" ? [{ name: "s", hash: "sha256:abc" }] : [],
          }),
        ),
      ),
    );
  /** Each value equal to one seen before replaced by that first object (by JSON text). */
  const shared = (reports: RunDigest[]): RunDigest[] => {
    const first = new Map<string, unknown>();
    const share = <T>(v: T): T => {
      const key = JSON.stringify(v);
      if (!first.has(key)) first.set(key, v);
      return first.get(key) as T;
    };
    return reports.map((r) => ({
      ...r,
      rubric: share(r.rubric),
      checks_passed: share(r.checks_passed),
      checks_failed: share(r.checks_failed),
      skill_sources: share(r.skill_sources),
      sample_quality: share(r.sample_quality),
    }));
  };
  const input = (reports: RunDigest[]) => ({
    reports,
    metadata: makeMetadata(["CONTROL", "WITH_SKILL"]),
  });
  const summary = (reports: RunDigest[]) =>
    renderSummaryFiles(makeSummaryInput(["CONTROL", "WITH_SKILL"], reports));

  it("shares values (the test's premise)", () => {
    const s = shared(runs());
    expect(s[0]?.rubric).toBe(s[8]?.rubric);
    expect(s[0]?.checks_passed).toBe(s[2]?.checks_passed);
  });

  it("builds the same comparison", () => {
    expect(buildComparison(input(shared(runs())))).toEqual(buildComparison(input(runs())));
  });

  it("writes the same summary", () => {
    expect(summary(shared(runs()))).toEqual(summary(runs()));
  });
});
