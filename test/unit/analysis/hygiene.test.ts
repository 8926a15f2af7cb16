import { describe, expect, it } from "vitest";
import { assertionHygiene, caseDefects } from "../../../src/analysis/hygiene.js";
import { checkName } from "../../../src/core/check-name.js";
import { makeReport } from "../report/helpers.js";

const SKILL = [{ name: "house-style", hash: `sha256:${"b".repeat(64)}` }];

/** A run of `treatment` on `task` with these check lines; `invoked` Skills in its evidence. */
function run(
  task: string,
  treatment: string,
  passed: string[],
  failed: string[],
  invoked: string[] = [],
  excluded = false,
) {
  const r = makeReport({
    task,
    treatment,
    skills: treatment === "A" ? SKILL : [],
    quality: excluded ? "excluded" : "included",
  });
  r.checks_passed = passed;
  r.checks_failed = failed;
  if (r.events_summary) r.events_summary.skills_invoked = invoked;
  return r;
}

const roles = { candidate: "A", baseline: "CONTROL" };
const kinds = (rs: ReturnType<typeof run>[]) =>
  assertionHygiene(rs, roles).map((p) => [p.kind, p.task, p.subject]);

describe("checkName", () => {
  it.each([
    ["exists", "exists"],
    ['exact: wrong greeting: "x"', "exact"],
    ["Validator timed out after 30s: check.mjs", "Validator timed out after 30s"],
  ])("%s -> %s", (line, want) => expect(checkName(line)).toBe(want));
});

describe("assertionHygiene", () => {
  it.each<[string, ReturnType<typeof run>[], Array<[string, string | null, string]>]>([
    [
      "a check passing in every run of both arms is non-discriminating; one that differs is not",
      [
        run("t", "A", ["exists", "exact"], [], ["house-style"]),
        run("t", "A", ["exists", "exact"], [], ["house-style"]),
        run("t", "CONTROL", ["exists"], ["exact: wrong"]),
        run("t", "CONTROL", ["exists"], ["exact: wrong"]),
      ],
      [["non_discriminating", "t", "exists"]],
    ],
    [
      "failing everywhere counts too (with its message stripped)",
      [
        run("t", "A", ["ok"], ["lint: 3 errors"], ["house-style"]),
        run("t", "CONTROL", [], ["lint: 5 errors"]),
      ],
      [["non_discriminating", "t", "lint"]],
    ],
    [
      "a check some run lacks is not non-discriminating, whatever the others say",
      [
        run("t", "A", ["exists", "extra"], [], ["house-style"]),
        run("t", "A", ["exists"], [], ["house-style"]),
        run("t", "CONTROL", ["exists", "extra"], []),
      ],
      [["non_discriminating", "t", "exists"]],
    ],
    [
      "runs sharing their check lists count once each (a name in both lists: failed)",
      (() => {
        // One pair of lists for three runs, as packed digests share them.
        const passed = ["b", "a", "c"];
        const failed = ["c: broke"];
        const shared = [1, 2, 3].map(() => {
          const r = run("t", "A", [], [], ["house-style"]);
          r.checks_passed = passed;
          r.checks_failed = failed;
          return r;
        });
        return [...shared, run("t", "CONTROL", ["a", "b"], ["c: broke too"])];
      })(),
      [
        ["non_discriminating", "t", "b"],
        ["non_discriminating", "t", "a"],
        ["non_discriminating", "t", "c"],
      ],
    ],
    [
      "a task only one arm ran compares nothing",
      [run("t", "A", ["exists"], [], ["house-style"]), run("u", "CONTROL", ["exists"], [])],
      [],
    ],
    [
      "an excluded run does not count",
      [
        run("t", "A", ["exists"], [], ["house-style"]),
        run("t", "CONTROL", ["exists"], []),
        run("t", "CONTROL", [], ["exists: missing"], [], true),
      ],
      [["non_discriminating", "t", "exists"]],
    ],
    [
      "no candidate run invoked its Skill: never exercised",
      [
        run("t", "A", ["exact"], []),
        run("t", "A", ["exact"], [], ["other-skill"]),
        run("t", "CONTROL", [], ["exact: wrong"]),
      ],
      [["never_exercised", "t", "house-style"]],
    ],
  ])("%s", (_name, rs, want) => expect(kinds(rs)).toEqual(want));
});

describe("caseDefects", () => {
  it("flags a query no variant got right, not one that some variant got right or none answered", () => {
    const got = caseDefects(
      [
        {
          variant: "current",
          queries: [
            { id: "q1", query: "write a greeting", runs: 3, correct: 0 },
            { id: "q2", query: "tidy the answer", runs: 3, correct: 0 },
            { id: "q3", query: "unanswered", runs: 0, correct: 0 },
          ],
        },
        {
          variant: "short",
          queries: [
            { id: "q1", query: "write a greeting", runs: 3, correct: 0 },
            { id: "q2", query: "tidy the answer", runs: 3, correct: 1 },
            { id: "q3", query: "unanswered", runs: 0, correct: 0 },
          ],
        },
      ],
      "house-style",
    );
    expect(got.map((p) => [p.kind, p.subject])).toEqual([["case_defect", "q1"]]);
    expect(got[0]?.cause).toContain("6 probe(s) under 2 variant(s)");
  });
});
