import { describe, expect, it } from "vitest";
import { InputError } from "../../../src/core/errors.js";
import { planSuite } from "../../../src/inspect/plan.js";
import { makeDir, oneTask } from "../suite/make-suite.js";

const TOML = '[interaction]\nmode = "auto_user"\ndecision_patterns = ["db"]\n';

describe("the plan (run --dry-run) shows the decision patterns each run will use", () => {
  it("the task's, then --decision-pattern's", async () => {
    const suite = await makeDir(oneTask(TOML));
    const plan = await planSuite({
      suite,
      probe: false,
      interaction: { decisionPatterns: ["PICK-DB"] },
    });
    expect(plan.runs.map((r) => r.interaction.decision_patterns)).toEqual([["db", "PICK-DB"]]);
  });

  it("an empty --decision-pattern is bad input before anything runs", async () => {
    const suite = await makeDir(oneTask(TOML));
    await expect(
      planSuite({ suite, probe: false, interaction: { decisionPatterns: [""] } }),
    ).rejects.toThrow(InputError);
  });
});
