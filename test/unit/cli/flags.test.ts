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
  JUNIT_FLAGS,
  RUN_FLAGS,
  RUN_ONLY_FLAGS,
  SEQUENTIAL_FLAGS,
  TELEMETRY_FLAGS,
} from "../../../src/cli/flags.js";
import { runOptionsFromFlags, type RunFlags } from "../../../src/cli/commands/run.js";

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

/**
 * Every shared flag reaches the library: `runOptionsFromFlags` (the one CLI → RunOptions mapping)
 * reads it, or it is one the command's end consumes itself (the reporters: CI outputs and
 * telemetry; the exit code). The history store's flags are read by both: the reporter records into
 * the store, and the run reads it as a source (`--reuse history`, estimates). A flag added to
 * RUN_FLAGS and mapped nowhere fails here.
 */
describe("the CLI → RunOptions mapping", () => {
  const COMMAND_ONLY = new Set([
    ...JUNIT_FLAGS.map((f) => f.key),
    ...TELEMETRY_FLAGS.map((f) => f.key),
    "exitZero",
  ]);

  it("reads every flag of RUN_FLAGS that the command itself does not consume", () => {
    const read = new Set<string>();
    const empty: RunFlags = {};
    const flags = new Proxy(empty, {
      get(_, key) {
        if (typeof key === "string") read.add(key);
        return undefined;
      },
    });
    runOptionsFromFlags(flags);
    const unmapped = RUN_FLAGS.map((f) => f.key).filter(
      (k) => !read.has(k) && !COMMAND_ONLY.has(k),
    );
    expect(unmapped).toEqual([]);
    // …and the list of flags the command consumes holds no flag that the mapping reads.
    expect([...COMMAND_ONLY].filter((k) => read.has(k))).toEqual([]);
  });
});
