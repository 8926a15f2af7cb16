import { describe, expect, it } from "vitest";
import { InputError } from "../../../src/core/errors.js";
import { selectNames } from "../../../src/suite/index.js";

const TREATMENTS = ["CONTROL", "WITH_SKILL", "COMET_FULL", "COMET_NATIVE"];
const TASKS = ["comet-fix", "generic-smoke", "comet-perf", "authoring-smoke"];

describe("selectNames", () => {
  it.each([
    ["treatment", TREATMENTS, undefined, TREATMENTS],
    ["treatment", TREATMENTS, "", TREATMENTS],
    ["treatment", TREATMENTS, " , ", TREATMENTS],
    ["treatment", TREATMENTS, "*", TREATMENTS],
    ["treatment", TREATMENTS, "WITH_SKILL,CONTROL", ["CONTROL", "WITH_SKILL"]],
    ["treatment", TREATMENTS, " CONTROL , CONTROL ", ["CONTROL"]],
    ["treatment", TREATMENTS, "COMET_*", ["COMET_FULL", "COMET_NATIVE"]],
    [
      "treatment",
      TREATMENTS,
      "COMET_*,CONTROL,COMET_FULL",
      ["CONTROL", "COMET_FULL", "COMET_NATIVE"],
    ],
    ["task", TASKS, "comet-*", ["comet-fix", "comet-perf"]],
    ["task", TASKS, "*-smoke", ["generic-smoke", "authoring-smoke"]],
    ["task", TASKS, "c*t-p*", ["comet-perf"]],
    ["task", ["a.b", "axb"], "a.b", ["a.b"]],
    ["task", ["a.b", "axb"], "a.*", ["a.b"]],
  ] as const)("%s %j %j", (kind, available, list, expected) => {
    expect(selectNames(kind, [...available], list)).toEqual(expected);
  });

  it.each([
    [
      "treatment",
      TREATMENTS,
      "NOPE",
      "unknown treatment 'NOPE'. Available treatments: CONTROL, WITH_SKILL, COMET_FULL, COMET_NATIVE",
    ],
    [
      "treatment",
      TREATMENTS,
      "control",
      "unknown treatment 'control' (did you mean 'CONTROL'?). Available treatments: CONTROL, WITH_SKILL, COMET_FULL, COMET_NATIVE",
    ],
    [
      "task",
      TASKS,
      "x-*,comet-fix,gone",
      "no task matches pattern 'x-*'; unknown task 'gone'. Available tasks: comet-fix, generic-smoke, comet-perf, authoring-smoke",
    ],
    ["task", [], "a", "unknown task 'a'. Available tasks: (none)"],
  ] as const)("%s %j rejects %j", (kind, available, list, message) => {
    let err: unknown;
    try {
      selectNames(kind, [...available], list);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InputError);
    expect(err instanceof Error ? err.message : "").toBe(message);
  });
});
