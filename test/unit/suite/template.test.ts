import { describe, expect, it } from "vitest";
import { InputError } from "../../../src/core/errors.js";
import {
  renderInstruction,
  renderTemplate,
  templatePlaceholders,
  type TaskSpec,
} from "../../../src/suite/index.js";
import { load, oneTask } from "./make-suite.js";

describe("renderTemplate", () => {
  it.each([
    ["Run {run_id}.", { run_id: "R" }, "Run R.", []],
    ["{a}{b}{a}", { a: "1", b: "2" }, "121", []],
    ["literal {{braces}} and {{run_id}}", { run_id: "R" }, "literal {braces} and {run_id}", []],
    ["{{{run_id}}}", { run_id: "R" }, "{R}", []],
    ["function f() { return 1; }", {}, "function f() { return 1; }", []],
    ["lone { and lone }", {}, "lone { and lone }", []],
    [
      "python fields {0} {a.b} {x:>4} {a-b} { run_id }",
      { run_id: "R", a: "A", x: "X" },
      "python fields {0} {a.b} {x:>4} {a-b} { run_id }",
      [],
    ],
    ['json {"k": 1}', {}, 'json {"k": 1}', []],
    ["missing {foo} and {foo} and {bar}", {}, "missing {foo} and {foo} and {bar}", ["foo", "bar"]],
    [
      "no prototype lookups: {constructor} {toString}",
      {},
      "no prototype lookups: {constructor} {toString}",
      ["constructor", "toString"],
    ],
    [
      "a value with braces is not re-rendered",
      { a: "{b} {{" },
      "a value with braces is not re-rendered",
      [],
    ],
    ["{a}", { a: "{b} {{" }, "{b} {{", []],
  ])("%j", (text, vars, out, missing) => {
    expect(renderTemplate(text, vars)).toEqual({ text: out, missing });
  });

  it.each([
    ["Run {run_id} on {dataset}, {{not}} {run_id}", ["run_id", "dataset"]],
    ["{ x } {0} {{y}}", []],
  ])("templatePlaceholders(%j)", (text, names) => {
    expect(templatePlaceholders(text)).toEqual(names);
  });
});

async function task(toml: string, instruction: string): Promise<TaskSpec> {
  const { suite } = await load(oneTask(toml, {}, instruction));
  const t = suite.tasks[0];
  if (!t) throw new Error("no task");
  return t;
}

function renderError(t: TaskSpec, vars: Record<string, string>): string {
  try {
    renderInstruction(t, vars);
  } catch (e) {
    if (e instanceof InputError) return e.message;
    throw e;
  }
  throw new Error("expected an InputError");
}

describe("renderInstruction", () => {
  it("fills run_id and template vars (which may use run_id); caller vars win", async () => {
    const t = await task(
      '[setup]\ntemplate_vars = { project = "p-{run_id}", name = "n" }\n',
      "P={project} N={name} R={run_id} {{x}}\n",
    );
    expect(renderInstruction(t, { run_id: "abc" })).toBe("P=p-abc N=n R=abc {x}\n");
    expect(renderInstruction(t, { run_id: "abc", name: "given" })).toBe(
      "P=p-abc N=given R=abc {x}\n",
    );
  });

  it("leaves code braces alone", async () => {
    const t = await task(
      "",
      "```js\nfunction f() { return 1; }\nconst o = { a: 1 };\n```\nrun {run_id}\n",
    );
    expect(renderInstruction(t, { run_id: "R" })).toBe(
      "```js\nfunction f() { return 1; }\nconst o = { a: 1 };\n```\nrun R\n",
    );
  });

  it.each([
    ["", "Use {foo}.", {}, "tasks/t/instruction.md: missing template variable 'foo'"],
    ["", "Use {foo} {bar}.", {}, "tasks/t/instruction.md: missing template variables 'foo', 'bar'"],
    [
      '[template]\nrequired = ["dataset", "other"]\n',
      "Hi {run_id}",
      {},
      "tasks/t/task.toml: [template].required: required template variables 'dataset', 'other' not supplied",
    ],
    [
      '[setup]\ntemplate_vars = { p = "{nope}" }\n',
      "Hi {p}",
      {},
      "tasks/t/task.toml: [setup].template_vars.p: missing template variable 'nope'",
    ],
  ])("fails on %j + %j", async (toml, instruction, vars, expected) => {
    const t = await task(toml, instruction);
    expect(renderError(t, { run_id: "R", ...vars })).toBe(expected);
  });

  it("accepts required names supplied by the caller or by template vars", async () => {
    const t = await task(
      '[template]\nrequired = ["dataset", "p"]\n[setup]\ntemplate_vars = { p = "x" }\n',
      "{dataset}/{p}",
    );
    expect(renderInstruction(t, { run_id: "R", dataset: "d" })).toBe("d/x");
  });
});
