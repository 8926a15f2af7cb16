/** The original harness's task features in the suite loader: Native treatments, prompt prefixes, hooks, validation settings. */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { treatmentPrompt, validatorEnv } from "../../../src/suite/index.js";
import { renderRunPrompt } from "../../../src/plan/prompt.js";
import { nativePrefix } from "../../../src/scoring/profiles/comet-workflow/native-treatment.js";
import { load, loadError, makeDir, oneTask } from "./make-suite.js";

const SKILL = { "skills/s/SKILL.md": "---\nname: s\ndescription: d\n---\nbody\n" };

describe("treatment fields", () => {
  it.each([
    ["COMET_NATIVE_PHASE1", "{}", { clarification_mode: null }],
    ["COMET_NATIVE_SEQUENTIAL", "{}", { clarification_mode: "sequential" }],
    ["COMET_NATIVE_BATCH", "{}", { clarification_mode: "batch" }],
    ["MINE", "{native: true}", { clarification_mode: null }],
    ["MINE", "{native: true, native_clarification_mode: batch}", { clarification_mode: "batch" }],
    ["COMET_NATIVE_PHASE1", "{native: false}", undefined],
    ["MINE", "{}", undefined],
    // A name that is a property of every object is not a built-in Native name.
    ["constructor", "{}", undefined],
    ["toString", "{}", undefined],
  ])("%s %s -> native %j", async (name, body, native) => {
    const { suite } = await load(oneTask("", { "treatments/t.yaml": `${name}: ${body}\n` }));
    expect(suite.treatments.find((t) => t.name === name)?.native).toEqual(native);
  });

  it.each([
    [
      "MINE: {native_clarification_mode: batch}",
      "native_clarification_mode: is only for Native treatments",
    ],
    ["MINE: {native: yes-please}", "native: expected a boolean"],
    ["MINE: {hooks: [1]}", "hooks: expected a mapping of hook events"],
    ["MINE: {hooks: {preToolUse: []}}", 'hooks.preToolUse: "preToolUse" is not a hook event name'],
    [
      "MINE: {hooks: {PreToolUse: [{hooks: [{type: command}]}]}}",
      "MINE.hooks.PreToolUse[0].hooks[0].command",
    ],
  ])("%s is refused", async (yaml, message) => {
    expect(await loadError(oneTask("", { "treatments/t.yaml": `${yaml}\n` }))).toContain(message);
  });

  it("reads prompt_prefix and hooks", async () => {
    const { suite } = await load(
      oneTask("", {
        ...SKILL,
        "treatments/t.yaml": [
          "MINE:",
          "  prompt_prefix: Use the Skill.",
          "  hooks:",
          "    PreToolUse:",
          "      - matcher: Write",
          "        hooks: [{type: command, command: 'true', timeout: 5}]",
          "",
        ].join("\n"),
      }),
    );
    const t = suite.treatments.find((x) => x.name === "MINE");
    expect(t?.prompt_prefix).toBe("Use the Skill.");
    expect(t?.hooks).toEqual({
      PreToolUse: [{ matcher: "Write", hooks: [{ type: "command", command: "true", timeout: 5 }] }],
    });
  });
});

describe("treatment prompts", () => {
  it("puts the Native block, the treatment's prefix and the Comet contract before the instruction", async () => {
    const { suite } = await load(
      oneTask('[evaluation]\nnative_terminal = "active-blocked"\n', {
        "treatments/t.yaml": "COMET_NATIVE_BATCH: {prompt_prefix: 'House rules.'}\n",
      }),
    );
    const task = suite.tasks[0];
    const control = suite.treatments.find((t) => t.name === "CONTROL");
    const native = suite.treatments.find((t) => t.name === "COMET_NATIVE_BATCH");
    if (!task || !control || !native) throw new Error("fixture");
    expect(treatmentPrompt(task, control, "Do it.")).toBe("Do it.");
    expect(renderRunPrompt(task, control, "comet-workflow", "id")).toMatch(
      /^## Eval harness requirement\n[^]*\n\nDo it\.\n$/,
    );
    expect(renderRunPrompt(task, native, "comet-workflow", "id")).toMatch(
      /^\[COMET NATIVE TREATMENT\][^]*\[ORIGINAL BUSINESS TASK\]\nHouse rules\.\n\n## Eval harness requirement\n[^]*Do it\.\n$/,
    );
    const p = treatmentPrompt(task, native, "Do it.");
    expect(p.startsWith("[COMET NATIVE TREATMENT]\n")).toBe(true);
    expect(p).toContain("native.clarification_mode `batch`");
    expect(p).toContain("blocked state the runtime enforces");
    expect(p.endsWith("[ORIGINAL BUSINESS TASK]\nHouse rules.\n\nDo it.")).toBe(true);
  });

  it.each([
    ["archive", "Finish with a verified, terminal Native archive."],
    ["active", "do not force an Archive"],
    ["active-blocked", "leave the change active in the blocked state"],
  ] as const)("native_terminal %s", (terminal, rule) => {
    const block = nativePrefix(terminal, null);
    expect(block).toContain(rule);
    expect(block).not.toContain("clarification_mode");
  });
});

describe("skillbench.yaml validation:", () => {
  it("resolves python_path against the suite root and gives validators PYTHONPATH and env", async () => {
    const helper = await makeDir({ "pkg/__init__.py": "" });
    const { suite } = await load(
      oneTask("", {
        "skillbench.yaml": `validation:\n  python_path: [${helper}, lib]\n  env: {MODE: strict}\n`,
        "lib/.keep": "",
      }),
    );
    expect(suite.config.validation?.python_path).toEqual([helper, path.join(suite.root, "lib")]);
    expect(validatorEnv(suite.config)).toEqual({
      MODE: "strict",
      PYTHONPATH: `${helper}:${path.join(suite.root, "lib")}`,
    });
  });

  it.each([
    ["validation:\n  python_path: missing\n", "validation.python_path:", "is not a folder"],
    ["validation:\n  env: {PATH: /x}\n", "validation.env.PATH", "is set by skillbench"],
    [
      "validation:\n  env: {PYTHONPATH: /x}\n",
      "validation.env.PYTHONPATH",
      "validation.python_path",
    ],
  ])("%j is refused", async (yaml, field, message) => {
    const e = await loadError(oneTask("", { "skillbench.yaml": yaml }));
    expect(e).toContain(field);
    expect(e).toContain(message);
  });

  it("no validation: setting, no variables", async () => {
    const { suite } = await load(oneTask(""));
    expect(validatorEnv(suite.config)).toEqual({});
  });
});
