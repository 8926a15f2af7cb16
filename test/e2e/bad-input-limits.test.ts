/**
 * Bad input that used to crash the CLI (exit 3, a stack trace, or node out of memory; issue 39
 * point 7) is refused with exit 2 naming the file, the field and the line: YAML alias bombs and
 * unresolved aliases in an eval manifest, a treatment file and a trigger query file (one YAML
 * helper, src/util/yaml.ts, gives every file the same limit), a NUL in a trigger query, and a plan
 * too big to hold (`--count 1000000000`, `--max-count 1000000000`). Nothing here starts an agent.
 */
import { cp, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  assertBuilt,
  fixtureSuite,
  makeSandbox,
  REPO_ROOT,
  runCli,
  type Sandbox,
} from "../helpers/cli.js";

const skill = (name: string): string => path.join(REPO_ROOT, "test", "fixtures", "skills", name);
let box: Sandbox;

beforeAll(async () => {
  assertBuilt();
  box = await makeSandbox("bad-input-limits");
});
afterAll(async () => {
  await box.remove();
});

/** Ten levels of ten: 10^5 nodes from a few lines ("billion laughs", cut short). */
function bomb(indent: string): string {
  const rows = [`${indent}a: &a [x, x, x, x, x, x, x, x, x, x]`];
  for (const [from, to] of [
    ["a", "b"],
    ["b", "c"],
    ["c", "d"],
    ["d", "e"],
  ] as const)
    rows.push(`${indent}${to}: &${to} [${Array(10).fill(`*${from}`).join(", ")}]`);
  return `${rows.join("\n")}\n`;
}

describe("YAML aliases", () => {
  it.each([
    [
      "an alias bomb",
      (head: string) => `${head}metadata:\n  name: x\n  description: x\nx_bomb:\n${bomb("  ")}`,
      /eval\.yaml: x_bomb\.b\[0\] \(line 8\): the aliases expand to more than 1000 nodes \(\*a, used 10 times\)/,
    ],
    [
      "an unresolved alias",
      (head: string) => `${head}metadata:\n  name: *nope\n`,
      /eval\.yaml: metadata\.name \(line 4\): alias \*nope names no anchor set before it/,
    ],
  ])("in an eval manifest: %s (validate and eval)", async (name, text, message) => {
    const dir = box.dir(`manifest-${name.replace(/\W+/g, "-")}`);
    await cp(skill("greeter"), dir, { recursive: true });
    await writeFile(
      path.join(dir, "eval.yaml"),
      text("apiVersion: comet.eval/v1alpha1\nkind: SkillEvalManifest\n"),
    );
    for (const args of [
      ["validate", dir],
      ["eval", dir, "--out", box.dir(`${name}-out`)],
    ]) {
      const r = await runCli(args, { env: box.env() });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toContain("internal error");
    }
  });

  it.each([
    [
      "an alias bomb",
      `CONTROL:\n  description: x\n${bomb("")}`,
      /treatments\/matrix\.yaml: b\[0\] \(line 4\): the aliases expand to more than 1000 nodes/,
    ],
    [
      "an unresolved alias",
      "CONTROL:\n  description: *nope\n",
      /treatments\/matrix\.yaml: CONTROL\.description \(line 2\): alias \*nope names no anchor/,
    ],
  ])("in a treatment file: %s (run --dry-run)", async (name, text, message) => {
    const suite = box.dir(`suite-${name.replace(/\W+/g, "-")}`);
    await cp(fixtureSuite("e2e-matrix"), suite, { recursive: true });
    await writeFile(path.join(suite, "treatments", "matrix.yaml"), text);
    const r = await runCli(["run", suite, "--dry-run", "--sandbox", "local"], { env: box.env() });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toContain("internal error");
  });

  it.each([
    [
      "an alias bomb",
      `- {query: ok, should_trigger: true}\n- &a [x, x, x, x, x, x, x, x, x, x]\n- &b [${Array(10).fill("*a").join(", ")}]\n- &c [${Array(10).fill("*b").join(", ")}]\n- &d [${Array(10).fill("*c").join(", ")}]\n- [${Array(10).fill("*d").join(", ")}]\n`,
      /queries\.yaml: \[2\]\[0\] \(line 3\): the aliases expand to more than 1000 nodes/,
    ],
    [
      "an unresolved alias",
      "- {query: ok, should_trigger: *yes}\n- {query: two, should_trigger: false}\n",
      /queries\.yaml: \[0\]\.should_trigger \(line 1\): alias \*yes names no anchor/,
    ],
    [
      "a NUL in a query",
      '- {query: "find\\0me", should_trigger: true}\n- {query: two, should_trigger: false}\n',
      /queries\.yaml: \[0\]\.query \(line 1\): must not contain a NUL character/,
    ],
  ])("in a trigger query file: %s (refused at load)", async (name, text, message) => {
    const file = box.dir(`${name.replace(/\W+/g, "-")}-queries.yaml`);
    await writeFile(file, text);
    const out = box.dir(`${name.replace(/\W+/g, "-")}-triggers`);
    const r = await runCli(["triggers", skill("greeter"), "--queries", file, "--out", out], {
      env: box.env(),
    });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(existsSync(path.join(out, "probes"))).toBe(false);
  });
});

describe("a plan too big to hold", () => {
  it("run --count 1000000000 --dry-run is refused with the plan's size", async () => {
    const r = await runCli(
      [
        "run",
        fixtureSuite("e2e-matrix"),
        "--count",
        "1000000000",
        "--dry-run",
        "--sandbox",
        "local",
      ],
      { env: box.env() },
    );
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(
      /--count 1000000000: the plan would hold 4,000,000,000 runs .* more than the 100,000 one experiment may hold/,
    );
  });

  it("list and eval --dry-run of a Skill refuse it alike", async () => {
    for (const args of [
      ["list", skill("greeter"), "--count", "1000000000"],
      ["eval", skill("greeter"), "--count", "1000000000", "--dry-run", "--sandbox", "local"],
    ]) {
      const r = await runCli(args, { env: box.env() });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/--count 1000000000: the plan would hold [\d,]+ runs/);
    }
  });

  it("run --until-decided --max-count 1000000000 is refused before any run", async () => {
    const out = box.dir("max-count");
    const r = await runCli(
      [
        "run",
        fixtureSuite("e2e-matrix"),
        "--until-decided",
        "--max-count",
        "1000000000",
        "--out",
        out,
        "--model-script",
        path.join(fixtureSuite("e2e-matrix"), "model-script.yaml"),
      ],
      { env: box.env() },
    );
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(
      "--max-count 1000000000: more than the 100,000 runs one experiment may hold",
    );
    expect(existsSync(path.join(out, "runs"))).toBe(false);
  });
});
