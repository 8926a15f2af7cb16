/**
 * The flag table (cli/flags.ts): each flag's key is the attribute commander stores its value
 * under, and `run --help` lists the flags under their groups' headings, in the groups' order.
 */
import { Command, Option } from "commander";
import { describe, expect, it } from "vitest";
import {
  addFlags,
  CALIBRATE_ONLY_FLAGS,
  EVAL_ONLY_FLAGS,
  FLAG_GROUPS,
  RUN_FLAGS,
  RUN_ONLY_FLAGS,
  SEQUENTIAL_FLAGS,
} from "../../../src/cli/flags.js";

const ALL = [
  ...RUN_FLAGS,
  ...SEQUENTIAL_FLAGS,
  ...RUN_ONLY_FLAGS,
  ...EVAL_ONLY_FLAGS,
  ...CALIBRATE_ONLY_FLAGS,
];

describe("the flag table", () => {
  it.each(ALL.map((f) => [f.flags, f.key]))("%s is stored as %s", (flags, key) => {
    expect(new Option(flags).attributeName()).toBe(key);
  });

  it("lists run's flags under the group headings, in the groups' order", () => {
    const cmd = addFlags(new Command("run"), [
      ...RUN_FLAGS,
      ...SEQUENTIAL_FLAGS,
      ...RUN_ONLY_FLAGS,
    ]);
    const headings = cmd
      .helpInformation()
      .split("\n")
      .filter((l) => /^\S.*:$/.test(l) && l !== "Usage:");
    expect(headings).toEqual([...Object.values(FLAG_GROUPS), "Options:"]);
  });

  it("parses as before: values, repeats, negations and bad arguments", () => {
    const cmd = addFlags(new Command("run").exitOverride(), RUN_FLAGS).configureOutput({
      writeErr: () => undefined,
    });
    cmd.parse(
      [
        "-n",
        "3",
        "--env",
        "A=1",
        "--env",
        "B=2",
        "--no-judge",
        "--sandbox",
        "local",
        "--langsmith",
      ],
      { from: "user" },
    );
    expect(cmd.opts()).toMatchObject({
      count: 3,
      env: ["A=1", "B=2"],
      judge: false,
      sandbox: "local",
      langsmith: true,
    });
    expect(() =>
      addFlags(new Command("run").exitOverride(), RUN_FLAGS)
        .configureOutput({ writeErr: () => undefined })
        .parse(["--agent-retries", "11"], { from: "user" }),
    ).toThrow("--agent-retries must be a whole number from 0 to 10");
  });
});
