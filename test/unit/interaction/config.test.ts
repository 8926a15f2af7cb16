import { describe, expect, it } from "vitest";
import { InputError } from "../../../src/core/errors.js";
import {
  DEFAULT_CONTINUE_PROMPT,
  GENERIC_SIMULATOR_PROMPT,
  resolveInteraction,
  type InteractionInput,
} from "../../../src/interaction/config.js";
import { COMET_SIMULATOR_PROMPT } from "../../../src/scoring/profiles/comet-workflow/index.js";

function input(
  over: Partial<InteractionInput> = {},
  task: Partial<InteractionInput["task"]> = {},
): InteractionInput {
  return {
    profile: "generic",
    ...over,
    task: {
      mode: null,
      maxTurns: null,
      simulatorPrompt: null,
      decisionPatterns: [],
      decisionReply: null,
      decisionReplies: [],
      continuePrompt: null,
      freshResumeMarker: null,
      ...task,
    },
  };
}

describe("resolveInteraction", () => {
  it.each([
    ["generic", "none", 12, GENERIC_SIMULATOR_PROMPT],
    ["comet-workflow", "auto_user", 12, COMET_SIMULATOR_PROMPT],
    ["authoring-skill", "auto_user", 8, GENERIC_SIMULATOR_PROMPT],
    ["my-custom", "none", 12, GENERIC_SIMULATOR_PROMPT],
    ["constructor", "none", 12, GENERIC_SIMULATOR_PROMPT],
  ] as const)("profile %s defaults to %s / %i", (profile, mode, turns, prompt) => {
    const c = resolveInteraction(input({ profile }));
    expect(c).toMatchObject({
      mode,
      mode_source: "profile",
      max_turns: turns,
      max_turns_source: "profile",
      simulator_prompt: prompt,
      simulator_prompt_source: "profile",
      continue_prompt: DEFAULT_CONTINUE_PROMPT,
    });
  });

  it.each([
    // [profile, task mode, task turns, cli mode, cli turns] -> [mode, source, turns, source]
    ["authoring-skill", null, null, undefined, undefined, "auto_user", "profile", 8, "profile"],
    ["authoring-skill", null, 5, undefined, undefined, "auto_user", "profile", 5, "task"],
    ["authoring-skill", "none", 12, undefined, undefined, "none", "task", 12, "task"],
    ["generic", "auto_user", null, undefined, undefined, "auto_user", "task", 12, "profile"],
    ["generic", "auto_user", 4, "none", 2, "none", "cli", 2, "cli"],
    ["comet-workflow", null, null, "interactive", undefined, "auto_user", "cli", 12, "profile"],
    ["generic", null, null, "AUTO_USER", 3, "auto_user", "cli", 3, "cli"],
  ] as const)(
    "%s task(%s,%s) cli(%s,%s)",
    (profile, taskMode, taskTurns, cliMode, cliTurns, mode, modeSource, turns, turnsSource) => {
      const c = resolveInteraction(
        input(
          { profile, cli: { mode: cliMode, maxTurns: cliTurns } },
          { mode: taskMode, maxTurns: taskTurns },
        ),
      );
      expect([c.mode, c.mode_source, c.max_turns, c.max_turns_source]).toEqual([
        mode,
        modeSource,
        turns,
        turnsSource,
      ]);
    },
  );

  it.each([
    // [cli, env file, task, suite file] -> [prompt, source]
    ["C", "E", "T", "S", "C", "cli"],
    [undefined, "E", "T", "S", "E", "env_file"],
    [undefined, null, "T", "S", "T", "task"],
    [undefined, null, null, "S", "S", "suite_file"],
    ["  ", " \n", "", "\n S \n", "S", "suite_file"],
    [undefined, null, null, null, COMET_SIMULATOR_PROMPT, "profile"],
  ] as const)(
    "simulator prompt: cli %j, env %j, task %j, suite %j",
    (cli, env, task, suite, prompt, source) => {
      const c = resolveInteraction(
        input(
          {
            profile: "comet-workflow",
            cli: { simulatorPrompt: cli },
            envPromptFileText: env,
            suitePromptFileText: suite,
          },
          { simulatorPrompt: task },
        ),
      );
      expect([c.simulator_prompt, c.simulator_prompt_source]).toEqual([prompt, source]);
    },
  );

  it("copies the task values and drops empty ones", () => {
    const c = resolveInteraction(
      input(
        {},
        {
          decisionPatterns: ["db", ""],
          decisionReply: " ",
          decisionReplies: ["a", "b"],
          continuePrompt: "Go on.",
          freshResumeMarker: "",
        },
      ),
    );
    expect(c).toMatchObject({
      decision_patterns: ["db"],
      decision_reply: null,
      decision_replies: ["a", "b"],
      continue_prompt: "Go on.",
      fresh_resume_marker: null,
    });
  });

  it.each<[string, string[], string[] | undefined, string[], string[]]>([
    ["none given", [], undefined, [], []],
    ["task only", ["db"], undefined, ["db"], []],
    [
      "--decision-pattern adds to the task's",
      ["db"],
      ["Pick one", "ship?"],
      ["db", "Pick one", "ship?"],
      ["Pick one", "ship?"],
    ],
    ["a pattern both give is used once", ["db"], ["db", "db"], ["db"], ["db"]],
    ["--decision-pattern without task patterns", [], ["Choose"], ["Choose"], ["Choose"]],
  ])("decision patterns: %s", (_l, task, cli, want, wantCli) => {
    const c = resolveInteraction(
      input({ cli: { decisionPatterns: cli } }, { decisionPatterns: task }),
    );
    expect([c.decision_patterns, c.decision_patterns_cli]).toEqual([want, wantCli]);
  });

  it.each([
    [{ cli: { decisionPatterns: ["ok", " "] } }, {}, "--decision-pattern"],
    [{ cli: { mode: "chatty" } }, {}, "--interaction-mode"],
    [{ cli: { maxTurns: 0 } }, {}, "--max-turns"],
    [{ cli: { maxTurns: 2.5 } }, {}, "--max-turns"],
    [{}, { maxTurns: -1 }, "[interaction].max_turns"],
  ] as const)("rejects bad values (%j %j)", (over, task, field) => {
    expect(() => resolveInteraction(input(over, task))).toThrow(InputError);
    expect(() => resolveInteraction(input(over, task))).toThrow(field);
  });
});
