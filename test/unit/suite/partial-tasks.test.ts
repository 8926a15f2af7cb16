import { describe, expect, it } from "vitest";
import { InputError } from "../../../src/core/errors.js";
import { loadSuite } from "../../../src/suite/index.js";
import type { SuiteWarning } from "../../../src/suite/index.js";
import { makeDir } from "./make-suite.js";

const FILES = {
  "tasks/done/task.toml": "",
  "tasks/done/instruction.md": "Do it.\n",
  "tasks/wip/task.toml": '[metadata]\ndescription = "not written yet"\n',
};

describe("a task folder with task.toml but no instruction.md", () => {
  it("is skipped with a warning naming it, and the complete tasks load", async () => {
    const root = await makeDir(FILES);
    const warnings: SuiteWarning[] = [];
    const suite = await loadSuite(root, { onWarning: (w) => warnings.push(w) });
    expect(suite.tasks.map((t) => t.name)).toEqual(["done"]);
    expect(warnings.map((w) => `${w.file}: ${w.message}`)).toContain(
      "tasks/wip: has task.toml but no instruction.md: an incomplete task, skipped (name it with --task to see why it cannot load)",
    );
  });

  it.each([["done"], ["d*"], ["done,other"]])(
    "is skipped when --task %s does not name it",
    async (filter) => {
      const suite = await loadSuite(await makeDir(FILES), { taskFilter: filter });
      expect(suite.tasks.map((t) => t.name)).toEqual(["done"]);
    },
  );

  it.each([["wip"], ["w*"], ["done,wip"]])(
    "is an error when --task %s names it",
    async (filter) => {
      const err = await loadSuite(await makeDir(FILES), { taskFilter: filter }).catch(
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(InputError);
      expect((err as InputError).message).toBe(
        "tasks/wip: a task folder needs both task.toml and instruction.md; instruction.md is missing",
      );
    },
  );

  it("an instruction.md without task.toml is still an error", async () => {
    const err = await loadSuite(await makeDir({ ...FILES, "tasks/odd/instruction.md": "x" })).catch(
      (e: unknown) => e,
    );
    expect((err as InputError).message).toBe(
      "tasks/odd: a task folder needs both task.toml and instruction.md; task.toml is missing",
    );
  });
});

describe("default_treatments that do not exist say what runs instead", () => {
  it("names the existing defaults that run", async () => {
    const warnings: SuiteWarning[] = [];
    await loadSuite(
      await makeDir({
        "tasks/t/task.toml": '[metadata]\ndefault_treatments = ["CONTROL", "GONE"]\n',
        "tasks/t/instruction.md": "x",
      }),
      { onWarning: (w) => warnings.push(w) },
    );
    expect(warnings.map((w) => w.message)).toContain(
      '[metadata].default_treatments: no treatment named "GONE"; without --treatment the task runs under CONTROL',
    );
  });
});
