import { describe, expect, it } from "vitest";
import { HealthReportSchema, leftOutTasks } from "../../../src/core/health.js";
import { checkName } from "../../../src/core/check-name.js";
import { classifyTask, flakyChecks, type TaskObservation } from "../../../src/health/classify.js";

const set = (passed: string[], failed: string[] = []) => ({ passed, failed });
const ok = (repeats: ReturnType<typeof set>[]): TaskObservation["oracle"] => ({
  outcome: "ok",
  exit_code: 0,
  duration_ms: 5,
  output_tail: "",
  cause: null,
  repeats,
});
const obs = (o: Partial<TaskObservation>): TaskObservation => ({
  task: "t",
  solution: "solve.sh",
  sandbox: "bwrap",
  oracle: ok([set(["a", "b"]), set(["a", "b"])]),
  null_agent: [set([], ["a: missing", "b"]), set([], ["a: missing", "b"])],
  ...o,
});

describe("checkName", () => {
  it.each([
    ["answer_value: got 41", "answer_value"],
    ["answer_value", "answer_value"],
    ["a:b", "a:b"],
    ["Validator crashed (exit 1): check.py: boom", "Validator crashed (exit 1)"],
  ])("%s → %s", (msg, name) => {
    expect(checkName(msg)).toBe(name);
  });
});

describe("flakyChecks", () => {
  it.each([
    { repeats: [set(["a"]), set(["a"]), set(["a"])], flaky: [] },
    { repeats: [set(["a: x"]), set(["a: y"])], flaky: [] },
    { repeats: [set(["a"]), set([], ["a"])], flaky: [{ check: "a", seen: ["passed", "failed"] }] },
    { repeats: [set(["a", "b"]), set(["a"])], flaky: [{ check: "b", seen: ["passed", "absent"] }] },
    { repeats: [set(["a"])], flaky: [] },
  ])("$repeats.length repeats → $flaky.length flaky", ({ repeats, flaky }) => {
    expect(flakyChecks(repeats)).toEqual(flaky);
  });
});

describe("classifyTask", () => {
  const table: { name: string; o: TaskObservation; status: string; kinds: string[] }[] = [
    {
      name: "sound: the oracle passes, the null agent fails",
      o: obs({}),
      status: "sound",
      kinds: [],
    },
    {
      name: "no solution: unverified, not a problem",
      o: obs({ solution: null, oracle: null }),
      status: "unverified",
      kinds: [],
    },
    {
      name: "a check fails on the oracle",
      o: obs({ oracle: ok([set(["a"], ["b: wrong"]), set(["a"], ["b: wrong"])]) }),
      status: "unsound",
      kinds: ["oracle_failed"],
    },
    {
      name: "the oracle gives no check at all",
      o: obs({ oracle: ok([set([]), set([])]) }),
      status: "unsound",
      kinds: ["oracle_failed"],
    },
    {
      name: "every check passes on the untouched workspace",
      o: obs({ null_agent: [set(["a", "b"]), set(["a", "b"])] }),
      status: "unsound",
      kinds: ["vacuous"],
    },
    {
      name: "no check at all on the untouched workspace is a note (the rubric decides)",
      o: obs({ solution: null, oracle: null, null_agent: [set([]), set([])] }),
      status: "unverified",
      kinds: ["no_checks"],
    },
    {
      name: "a check that differs between repeats is flaky, not oracle_failed",
      o: obs({ oracle: ok([set(["a"], ["b"]), set(["a", "b"])]) }),
      status: "unsound",
      kinds: ["flaky"],
    },
    {
      name: "flaky on both workspaces is named once",
      o: obs({
        oracle: ok([set(["a", "b"]), set(["a"], ["b"])]),
        null_agent: [set([], ["a", "b"]), set(["b"], ["a"])],
      }),
      status: "unsound",
      kinds: ["flaky"],
    },
    ...(["timeout", "crashed", "escaped", "error"] as const).map((outcome) => ({
      name: `the solution ended ${outcome}`,
      o: obs({
        oracle: {
          outcome,
          exit_code: null,
          duration_ms: 1,
          output_tail: "",
          cause: `ended ${outcome}`,
          repeats: [],
        },
      }),
      status: "unsound",
      kinds: [
        outcome === "timeout"
          ? "oracle_timeout"
          : outcome === "escaped"
            ? "oracle_escape"
            : "oracle_error",
      ],
    })),
  ];
  it.each(table)("$name", ({ o, status, kinds }) => {
    const r = classifyTask(o);
    expect(r.health.status).toBe(status);
    expect(r.problems.map((p) => p.kind)).toEqual(kinds);
    for (const p of r.problems) expect(p.task).toBe("t");
  });

  it("names the failing check and its message", () => {
    const r = classifyTask(obs({ oracle: ok([set(["a"], ["b: wrong"])]) }));
    expect(r.problems).toEqual([
      {
        task: "t",
        check: "b",
        kind: "oracle_failed",
        phase: "oracle",
        cause: "fails on the reference solution's workspace: b: wrong",
      },
    ]);
  });

  it("a report of classified tasks parses and says which tasks are left out", () => {
    const a = classifyTask(obs({ task: "a" }));
    const b = classifyTask(obs({ task: "b", null_agent: [set(["x"])] }));
    const report = HealthReportSchema.parse({
      schema: "skillbench.health.v1",
      target: "/suite",
      repeats: 2,
      sound: false,
      tasks: [a.health, b.health],
      problems: [...a.problems, ...b.problems],
    });
    expect([...leftOutTasks(report)]).toEqual([["b", ["vacuous"]]]);
  });
});
