/**
 * The README's sample outputs are what the commands print (issue 32, point 9), as the golden files
 * are for the reports: each code block after a `<!-- readme-sample: NAME … -->` marker is compared
 * with the output of its command, run through the built CLI with the real claude binary and the
 * scripted model, in a fresh folder as a reader would run it. Both sides are normalised the same
 * way: the folder's path, results-folder stamps, run times, the scripted server's port, and what a
 * task's sandbox resolved to (bubblewrap here, local elsewhere). A line "…" in a block stands for
 * any number of lines (the progress lines, whose order depends on the scheduling).
 *
 * When a command's output changes on purpose, run it as the README says and paste the new output.
 */
import { readFileSync } from "node:fs";
import { mkdir, symlink } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeSandbox, REPO_ROOT, runCli, type Sandbox } from "../helpers/cli.js";

const TIMEOUT = 300_000;
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await makeSandbox("e2e-readme");
});

afterAll(async () => {
  await sandbox?.remove();
});

/** The code block after the marker `<!-- readme-sample: name …`. */
function readmeSample(name: string): string {
  const readme = readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");
  const at = readme.indexOf(`<!-- readme-sample: ${name} `);
  if (at < 0) throw new Error(`README.md has no sample "${name}"`);
  const open = readme.indexOf("```\n", at);
  const close = readme.indexOf("\n```", open + 4);
  return readme.slice(open + 4, close);
}

/** Both sides, the same way: paths, stamps, times, ports and sandbox resolutions made neutral. */
function normalise(text: string, cwd: string | null): string[] {
  let t = cwd ? text.split(`${cwd}/`).join("") : text;
  t = t
    .replace(/\d{8}-\d{6}-[0-9a-f]{6}/g, "<stamp>")
    .replace(/\(\d+(\.\d+)?s\)/g, "(<t>s)")
    .replace(/127\.0\.0\.1:\d+/g, "127.0.0.1:<port>")
    .replace(/^(?:warning: )?sandbox for ([^:]+): .*$/gm, "sandbox for $1: <sandbox>");
  const lines = t.split("\n").map((l) => l.trimEnd());
  while (lines[0] === "") lines.shift();
  while (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** Whether `want` (with "…" for any number of lines) matches `got` line for line. */
function matches(want: string[], got: string[]): boolean {
  const go = (i: number, j: number): boolean => {
    if (i === want.length) return j === got.length;
    if (want[i] === "…") {
      for (let k = j; k <= got.length; k++) if (go(i + 1, k)) return true;
      return false;
    }
    return j < got.length && want[i] === got[j] && go(i + 1, j + 1);
  };
  return go(0, 0);
}

/** A readable failure: the sample and the output, both normalised. */
function expectSample(name: string, output: string, cwd: string): void {
  const want = normalise(readmeSample(name), null);
  const got = normalise(output, cwd);
  if (!matches(want, got)) expect(got.join("\n")).toBe(want.join("\n"));
}

describe("README sample outputs", () => {
  it(
    "first five minutes: init, then eval of the starter Skill (stdout)",
    async () => {
      const cwd = path.join(sandbox.root, "five-minutes");
      await mkdir(cwd, { recursive: true });
      const init = await runCli(["init", "my-eval"], { env: sandbox.env(), cwd });
      expect(init.code, init.stderr).toBe(0);
      const res = await runCli(
        ["eval", "my-eval/skills/house-greeting", "--model-script", "my-eval/model-script.yaml"],
        { env: sandbox.env(), cwd },
      );
      expect(res.code, res.stderr).toBe(0);
      expectSample("eval", res.stdout, cwd);
    },
    TIMEOUT,
  );

  it(
    "first five minutes: check of the starter Skill (stdout)",
    async () => {
      const cwd = path.join(sandbox.root, "five-minutes-check");
      await mkdir(cwd, { recursive: true });
      const init = await runCli(["init", "my-eval"], { env: sandbox.env(), cwd });
      expect(init.code, init.stderr).toBe(0);
      const res = await runCli(["check", "my-eval/skills/house-greeting"], {
        env: sandbox.env(),
        cwd,
      });
      expect(res.code, res.stderr).toBe(0);
      expectSample("check", res.stdout, cwd);
    },
    TIMEOUT,
  );

  it(
    "the demo: npm run demo's command (stderr, then stdout)",
    async () => {
      const cwd = path.join(sandbox.root, "demo");
      await mkdir(cwd, { recursive: true });
      // the README runs it from the clone: the examples at the same relative path
      await symlink(path.join(REPO_ROOT, "examples"), path.join(cwd, "examples"));
      const res = await runCli(
        [
          "run",
          "examples/demo-suite",
          "--model-script",
          "examples/demo-suite/model-script.yaml",
          "--count",
          "3",
          "--judge",
          "--judge-model",
          "scripted-judge",
          "--exit-zero",
        ],
        { env: sandbox.env(), cwd },
      );
      expect(res.code, res.stderr).toBe(0);
      expectSample("demo", `${res.stderr}\n${res.stdout}`, cwd);
    },
    TIMEOUT,
  );

  it("the matcher: '…' stands for any lines, everything else is line for line", () => {
    expect(matches(["a", "…", "d"], ["a", "b", "c", "d"])).toBe(true);
    expect(matches(["a", "…", "d"], ["a", "d"])).toBe(true);
    expect(matches(["a", "…", "d"], ["a", "b", "c"])).toBe(false);
    expect(matches(["a", "b"], ["a", "b", "c"])).toBe(false);
    expect(
      normalise(
        "PASSED    x (1.2s)\nwarning: sandbox for t: requested; local: …\n→ /w/d/.skillbench/runs/20261206-081917-1c520b",
        "/w/d",
      ),
    ).toEqual(["PASSED    x (<t>s)", "sandbox for t: <sandbox>", "→ .skillbench/runs/<stamp>"]);
  });
});
