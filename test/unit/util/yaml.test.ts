import { describe, expect, it } from "vitest";
import { InputError } from "../../../src/core/errors.js";
import { MAX_PLANNED_RUNS, planRuns } from "../../../src/plan/matrix.js";
import { parseYamlDocument, yamlToJs } from "../../../src/util/yaml.js";

/** yamlToJs of a whole document, or the InputError it throws. */
function load(text: string): unknown {
  const { doc, lines } = parseYamlDocument(text, "f.yaml");
  try {
    return yamlToJs(doc, lines, "f.yaml");
  } catch (e) {
    if (e instanceof InputError) return e;
    throw e;
  }
}

const levels = (n: number): string => {
  const rows = ["l0: &l0 [x, x, x, x, x, x, x, x, x, x]"];
  for (let i = 1; i < n; i++)
    rows.push(
      `l${i}: &l${i} [${Array(10)
        .fill(`*l${i - 1}`)
        .join(", ")}]`,
    );
  return `${rows.join("\n")}\n`;
};

describe("the one YAML helper: aliases", () => {
  it.each([
    [
      "a merge of a small base into a few keys",
      "base: &b {a: 1}\nx: {<<: *b, c: 2}\ny: *b\n",
      null,
    ],
    ["two levels of ten (100 nodes)", levels(2), null],
    [
      "four levels of ten (an alias bomb)",
      levels(4),
      /^f\.yaml: l1\[0\] \(line 2\): the aliases expand to more than 1000 nodes \(\*l0, used 10 times\)/,
    ],
    [
      "an alias with no anchor",
      "a:\n  b: [1, *nope]\n",
      /^f\.yaml: a\.b\[1\] \(line 2\): alias \*nope names no anchor set before it \(&nope\)$/,
    ],
    [
      "an alias used before its anchor",
      "a: *late\nb: &late 1\n",
      /^f\.yaml: a \(line 1\): alias \*late names no anchor/,
    ],
  ])("%s", (_what, text, error) => {
    const got = load(text);
    if (error === null) expect(got).not.toBeInstanceOf(InputError);
    else {
      expect(got).toBeInstanceOf(InputError);
      expect((got as InputError).message).toMatch(error);
      expect((got as InputError).details.file).toBe("f.yaml");
    }
  });

  it("a syntax error names its line and column", () => {
    expect(() => parseYamlDocument("a: [\n", "f.yaml")).toThrow(
      /^f\.yaml: line \d+, column \d+: invalid YAML/,
    );
  });
});

describe("the plan's size bound", () => {
  const input = (count: number) => ({
    tasks: [
      { name: "a", default_treatments: [] },
      { name: "b", default_treatments: [] },
    ],
    treatments: ["CONTROL", "WITH_SKILL"],
    treatmentFilter: null,
    count,
  });
  it.each([
    [1, 4],
    [MAX_PLANNED_RUNS / 4, MAX_PLANNED_RUNS],
  ])("--count %d plans %d runs", (count, runs) => {
    expect(planRuns(input(count))).toHaveLength(runs);
  });
  it.each([[MAX_PLANNED_RUNS / 4 + 1], [1_000_000_000]])("--count %d is refused", (count) => {
    expect(() => planRuns(input(count))).toThrow(
      new RegExp(`^--count ${count}: the plan would hold [\\d,]+ runs`),
    );
  });
});
