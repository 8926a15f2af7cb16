/**
 * `init` → `validate` → `eval` on the scaffold, offline (the real claude binary and the
 * scaffold's own model script), and `init --skill` for an existing Skill.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, makeSandbox, readRunReport, runCli, type Sandbox } from "../helpers/cli.js";

let box: Sandbox;
beforeAll(async () => {
  assertBuilt();
  box = await makeSandbox("init");
});
afterAll(async () => {
  await box.remove();
});

describe("init DIR", () => {
  it("writes a starter that validates, and whose Skill evaluates offline with passing gates", async () => {
    const dir = box.dir("starter");
    const init = await runCli(["init", dir], { env: box.env() });
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain("Next:");

    for (const target of [dir, path.join(dir, "skills/house-greeting")]) {
      const v = await runCli(["validate", target], { env: box.env() });
      expect(v.code, v.stderr).toBe(0);
      expect(v.stdout).toMatch(/^OK: 1 task\(s\), 1 validator\(s\), 2 treatment\(s\)/m);
    }

    const out = box.dir("starter-eval");
    const ev = await runCli(
      [
        "eval",
        path.join(dir, "skills/house-greeting"),
        "--model-script",
        path.join(dir, "model-script.yaml"),
        "--out",
        out,
        "-n",
        "2",
        "-j",
        "2",
        "--env",
        "CLAUDE_CODE_MAX_RETRIES=0",
      ],
      { env: box.env() },
    );
    expect(ev.code, ev.stderr).toBe(0);
    expect(ev.stdout).toContain("PASS  minPassRate: pass_rate = 1.000 ≥ 0.8");
    expect(ev.stdout).toContain("PASS  minPassHat2: pass^2 = 1.000 ≥ 0.5");
    const control = await readRunReport(out, "greet-ada-CONTROL-r1");
    expect(control.checks_failed).toEqual([
      "contains:greeting.txt:^Hello, Ada!$: no match in greeting.txt (7 chars)",
      "skill_invoked:house-greeting: the Skill was not invoked",
    ]);

    // The suite itself runs too (its skillbench.yaml names the model script).
    const run = await runCli(
      [
        "run",
        dir,
        "-n",
        "1",
        "--out",
        box.dir("starter-run"),
        "--env",
        "CLAUDE_CODE_MAX_RETRIES=0",
      ],
      { env: box.env() },
    );
    expect(run.stdout).toContain("1/2 runs passed");
    expect(run.code).toBe(1);
  });

  it("never overwrites", async () => {
    const dir = box.dir("twice");
    expect((await runCli(["init", dir], { env: box.env() })).code).toBe(0);
    const again = await runCli(["init", dir], { env: box.env() });
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/init never overwrites: .*README\.md/);
  });
});

describe("init --skill SKILL_DIR", () => {
  it("writes an eval.yaml named after the Skill that validates", async () => {
    const dir = box.dir("my_skill");
    await mkdir(dir, { recursive: true });
    await writeFile(
      path.join(dir, "SKILL.md"),
      "---\nname: tidy-notes\ndescription: Tidies notes.\n---\n\nTidy the notes.\n",
    );
    const init = await runCli(["init", "--skill", dir], { env: box.env() });
    expect(init.code, init.stderr).toBe(0);
    const manifest = await readFile(path.join(dir, "eval.yaml"), "utf8");
    expect(manifest).toContain("name: tidy-notes\n");
    const v = await runCli(["validate", dir], { env: box.env() });
    expect(v.code, v.stderr).toBe(0);
    expect(v.stdout).toContain("Skill: tidy-notes");
    const again = await runCli(["init", "--skill", dir], { env: box.env() });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain("this Skill already has an eval manifest");
  });
});
