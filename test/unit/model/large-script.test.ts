import { describe, expect, it } from "vitest";
import { InputError } from "../../../src/core/errors.js";
import { parseModelScriptText } from "../../../src/model/load-script.js";
import { LARGE_SCRIPT_CHARS } from "../../../src/model/large-script.js";

/** A YAML script with `n` rules, padded by a comment so that it is read as a large script. */
function yamlScript(n: number, indent = "  ", pad = LARGE_SCRIPT_CHARS): string {
  const rules = Array.from(
    { length: n },
    (_, i) =>
      `${indent}- name: r${i}\n${indent}  when: {task: t${i}}\n${indent}  steps:\n${indent}    - text: |\n${indent}        line one of ${i}\n${indent}        - not an item\n${indent}    - text: "done ${i}"\n`,
  ).join("");
  return `version: 1\ndescription: big\n# ${"p".repeat(pad)}\nrules:\n${rules}defaults:\n  model: m\n`;
}

function errorOf(text: string): InputError {
  try {
    parseModelScriptText(text, "big.yaml");
  } catch (e) {
    if (e instanceof InputError) return e;
    throw e;
  }
  throw new Error("expected an InputError");
}

describe("large model scripts", () => {
  it.each([
    ["indented items", "  "],
    ["items at column 0", ""],
  ])("a large YAML script (%s) reads as the same script as a small one", (_what, indent) => {
    const large = parseModelScriptText(yamlScript(50, indent), "big.yaml");
    const small = parseModelScriptText(yamlScript(50, indent, 10), "small.yaml");
    expect(large.rules).toHaveLength(50);
    expect(JSON.stringify(large.rules)).toBe(JSON.stringify(small.rules));
    expect(large.defaults).toEqual(small.defaults);
  });

  it("a large JSON script is read with JSON.parse", () => {
    const rules = Array.from({ length: 20_000 }, (_, i) => ({
      name: `r${i}`,
      when: { task: `t${i}` },
      reply: { text: `reply ${i} ${"x".repeat(40)}` },
    }));
    const text = JSON.stringify({ version: 1, rules });
    expect(text.length).toBeGreaterThan(LARGE_SCRIPT_CHARS);
    expect(parseModelScriptText(text, "big.json").rules).toHaveLength(20_000);
  });

  it("a schema problem names the path and the line of its rule", () => {
    const text = yamlScript(30).replace(
      "- name: r17\n    when: {task: t17}",
      "- name: r17\n    when: {tusk: t17}",
    );
    const e = errorOf(text);
    expect(e.message).toContain("rules[17].when.tusk");
    const line = text.split("\n").findIndex((l) => l.includes("name: r17")) + 1;
    expect(e.message).toContain(`(line ${line})`);
  });

  it("a YAML error names its line in the file", () => {
    const text = yamlScript(30).replace('text: "done 9"', 'text: "done 9');
    const e = errorOf(text);
    expect(e.message).toMatch(/^model script big\.yaml:\d+: not valid YAML/);
    expect(e.details.line).toBeGreaterThan(
      text.split("\n").findIndex((l) => l.includes("name: r9")),
    );
  });

  it("an alias to an anchor in a distant rule is refused", () => {
    // Rules are parsed in small batches: an anchor far away is not in the alias's batch.
    const text = yamlScript(200)
      .replace("when: {task: t1}\n", "when: &w {task: t1}\n")
      .replace("when: {task: t150}\n", "when: *w\n");
    expect(errorOf(text).message).toMatch(/big\.yaml:\d+: not valid YAML/);
  });
});
