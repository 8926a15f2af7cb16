/**
 * A task of the original harness's shape, end to end (the built CLI, the real claude binary, the
 * scripted model): its validator imports a helper package from the user's own checkout through
 * skillbench.yaml's `validation.python_path` (a folder the sandbox hides unless it is bound in
 * read-only), reads `native_terminal` from `_test_context.json` and gets `validation.env`; the
 * Native treatment's prompt starts with the Native block, its CLAUDE.md and its PreToolUse hook
 * are installed, and so is the Comet guard its `comet` Skill ships (under the generic profile). A validator that prints terminal escapes in a check name leaves none in the
 * console, summary.md or comparison_report.md. Under `--sandbox local` every report carries the
 * local warning.
 */
import { execFileSync } from "node:child_process";
import { cp, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { probeSandboxes } from "../../src/sandbox/index.js";
import { stripControls } from "../../src/util/safe-text.js";
import {
  assertBuilt,
  fixtureSuite,
  makeSandbox,
  readRunReport,
  REPO_ROOT,
  runCli,
  type CliResult,
  type Sandbox,
} from "../helpers/cli.js";

const probe = await probeSandboxes();
const inCi = process.env.CI === "true";
const dockerReady =
  probe.dockerDaemon &&
  (() => {
    try {
      execFileSync("docker", ["image", "inspect", "skillbench-base:bookworm"], { stdio: "ignore" });
      return true;
    } catch {
      return false;
    }
  })();

const LOCAL_WARNING = "local: the agent can read and change your files and environment";
const CHECKS = [
  "helper_from_checkout",
  "native_terminal_in_context",
  "prompt_matches_treatment",
  "hook_ran",
  "guard_ran",
  "treatment_claude_md",
  "validator_env",
];

let box: Sandbox;
let suite: string;
const outs: Record<string, string> = {};
const results: Record<string, CliResult> = {};

function run(name: string, ...extra: string[]): Promise<CliResult> {
  outs[name] = box.dir(name);
  return runCli(
    [
      "run",
      suite,
      "--model-script",
      path.join(suite, "model-script.yaml"),
      "--out",
      outs[name],
      "--env",
      "CLAUDE_CODE_MAX_RETRIES=0",
      ...extra,
    ],
    { env: box.env() },
  ).then((r) => (results[name] = r));
}

/** The check names of a run, passed or failed, without their details. */
async function checkNames(
  out: string,
  runId: string,
): Promise<{ passed: string[]; failed: string[] }> {
  const r = await readRunReport(out, runId);
  // report.json keeps a check's text as the validator wrote it; the reports strip escapes.
  const name = (c: string): string => stripControls(c.split(":")[0] ?? c);
  return { passed: r.checks_passed.map(name), failed: r.checks_failed.map(name) };
}

beforeAll(async () => {
  assertBuilt();
  box = await makeSandbox("original");
  // The suite and "the user's checkout" side by side under the test's temp folder, which bwrap
  // hides: the helper package is reachable only through python_path's read-only binding.
  suite = path.join(box.root, "suite");
  await cp(fixtureSuite("e2e-original"), suite, { recursive: true });
  await cp(
    path.join(REPO_ROOT, "test/fixtures/original-checkout"),
    path.join(box.root, "checkout"),
    {
      recursive: true,
    },
  );
  await writeFile(
    path.join(suite, "skillbench.yaml"),
    "validation:\n  python_path: ../checkout/eval\n  env:\n    ORIGINAL_SUITE: 'yes'\n",
  );
  await run("local", "--sandbox", "local", "--junit", path.join(box.root, "local.xml"));
});

afterAll(async () => {
  await box.remove();
});

async function expectRunsOfTheOriginal(out: string): Promise<void> {
  for (const treatment of ["CONTROL", "COMET_NATIVE_PHASE1"]) {
    const c = await checkNames(out, `native-task-${treatment}-r1`);
    expect(c.passed, `${treatment}: ${c.failed.join(", ")}`).toEqual(CHECKS);
    // Only the hostile check fails, with its escapes gone.
    expect(c.failed).toEqual(["hostile name"]);
  }
}

describe("the original's task features, under --sandbox local", () => {
  it("the validator imports the checkout's helper, reads native_terminal; the Native prompt, CLAUDE.md and hook take effect", async () => {
    expect(results.local?.code, results.local?.stderr).toBe(1);
    await expectRunsOfTheOriginal(outs.local ?? "");
    const requests = (await readFile(path.join(outs.local ?? "", "model-requests.jsonl"), "utf8"))
      .split("\n")
      .filter((l) => l.includes("COMET_NATIVE_PHASE1"))
      .join("\n");
    expect(requests).toContain("[COMET NATIVE TREATMENT]");
    expect(requests).toContain("Leave the Native changes the task asks for active");
    expect(requests).toContain("[ORIGINAL BUSINESS TASK]");
  });

  it("no terminal escape from a validator or the agent reaches the console, summary.md or comparison_report.md", async () => {
    for (const text of [
      results.local?.stdout ?? "",
      results.local?.stderr ?? "",
      await readFile(path.join(outs.local ?? "", "summary.md"), "utf8"),
      await readFile(path.join(outs.local ?? "", "comparison_report.md"), "utf8"),
    ]) {
      // eslint-disable-next-line no-control-regex
      expect(text).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
    }
    expect(await readFile(path.join(outs.local ?? "", "summary.md"), "utf8")).toContain(
      "hostile name",
    );
  });

  it("the local warning is on the console and in every report", async () => {
    expect(results.local?.stderr).toContain(LOCAL_WARNING);
    for (const file of ["summary.md", "comparison_report.md", "comparison.json"]) {
      expect(await readFile(path.join(outs.local ?? "", file), "utf8"), file).toContain(
        LOCAL_WARNING,
      );
    }
    for (const file of ["summary.html", "comparison_report.html"])
      expect(await readFile(path.join(outs.local ?? "", file), "utf8"), file).toContain(
        `"local_warning":"${LOCAL_WARNING}"`,
      );
    const junit = await readFile(path.join(box.root, "local.xml"), "utf8");
    expect(junit).toContain(`<property name="sandbox" value="local"/>`);
    expect(junit).toContain(`<property name="sandbox_warning" value="${LOCAL_WARNING}"/>`);
  });
});

describe.runIf(probe.bwrap || inCi)("the same suite under the default sandbox (bwrap here)", () => {
  beforeAll(async () => {
    await run("default", "--no-html");
  }, 600_000);

  it("python_path is bound read-only into bwrap; no local warning", async () => {
    expect(results.default?.code, results.default?.stderr).toBe(1);
    const r = await readRunReport(outs.default ?? "", "native-task-CONTROL-r1");
    expect(r.sandbox?.kind).toBe("bwrap");
    await expectRunsOfTheOriginal(outs.default ?? "");
    expect(await readFile(path.join(outs.default ?? "", "summary.md"), "utf8")).not.toContain(
      LOCAL_WARNING,
    );
  });
});

describe.runIf(dockerReady || inCi)("the same suite under docker", () => {
  beforeAll(async () => {
    await run("docker", "--sandbox", "docker", "--no-html");
  }, 600_000);

  it("python_path is mounted read-only into the container", async () => {
    expect(results.docker?.code, results.docker?.stderr).toBe(1);
    const r = await readRunReport(outs.docker ?? "", "native-task-CONTROL-r1");
    expect(r.sandbox?.kind).toBe("docker");
    await expectRunsOfTheOriginal(outs.docker ?? "");
  });
});
