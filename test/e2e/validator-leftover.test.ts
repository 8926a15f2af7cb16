/**
 * Validators that leave a process running, under `--sandbox local` (issues 40.1, 39.8): the run
 * ends when the validator's own process ends (not when a leftover closes its output), with the
 * validator's outcome, and nothing it started is left running. An eval manifest's `commands`
 * step that leaves a background child passes when its shell exits 0.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  assertBuilt,
  killStrays,
  makeSandbox,
  readRunFile,
  readRunReport,
  runArgs,
  runCli,
  type Sandbox,
} from "../helpers/cli.js";

let box: Sandbox;

beforeAll(async () => {
  assertBuilt();
  box = await makeSandbox("validator-leftover");
});

afterAll(async () => {
  await box.remove();
});

const Validation = z.object({
  scripts: z.array(z.object({ status: z.string(), duration_ms: z.number() })),
});

describe("under --sandbox local", () => {
  it("a validator that leaves `sleep &` (in its group or in a session of its own) ends with its own process", async () => {
    const out = box.dir("run");
    const res = await runCli(
      runArgs("e2e-validator-leftover", out, "--sandbox", "local", "--no-html"),
      { env: box.env() },
    );
    expect(res.code, res.stderr).toBe(0);
    for (const task of ["bg-child", "bg-setsid"]) {
      const id = `${task}-CONTROL-r1`;
      const report = await readRunReport(out, id);
      expect(report.status, id).toBe("passed");
      expect(report.checks_passed).toEqual(["greeting"]);
      const v = Validation.parse(JSON.parse(await readRunFile(out, id, "validation.json")));
      expect(v.scripts[0]?.status).toBe("ok");
      // The validator's own process ends at once; its leftover's open output was not waited
      // for (it used to be, 5 s for a process out of the group; the CLI then never exited).
      expect(v.scripts[0]?.duration_ms, id).toBeLessThan(4000);
    }
    // Nothing the validators started is still running (every process under the sandbox).
    expect(await killStrays(box.root)).toEqual([]);
  });

  it("an eval `commands` step that leaves a background child passes when its shell exits 0", async () => {
    const skill = path.join(box.root, "bg-skill");
    await mkdir(skill, { recursive: true });
    await writeFile(
      path.join(skill, "SKILL.md"),
      "---\nname: bg-skill\ndescription: Writes greetings.\n---\n\n# bg-skill\n\nWrite greeting.txt.\n",
    );
    await writeFile(
      path.join(skill, "eval.yaml"),
      [
        "apiVersion: comet.eval/v1alpha1",
        "kind: SkillEvalManifest",
        "metadata: {name: bg-eval}",
        "skill: {name: bg-skill}",
        "evaluation:",
        "  trials: 1",
        "  tasks:",
        "    - name: greet",
        '      prompt: "Write hello e2e to greeting.txt."',
        "      expect:",
        "        commands:",
        '          - run: "sleep 1000 & grep -q hello greeting.txt"',
        "            timeout: 20",
        "",
      ].join("\n"),
    );
    const script = path.join(skill, "model-script.yaml");
    await writeFile(
      script,
      [
        "version: 1",
        "rules:",
        "  - steps:",
        '      - tool_use: {name: Write, input: {file_path: greeting.txt, content: "hello e2e\\n"}}',
        '      - text: "Wrote greeting.txt."',
        "",
      ].join("\n"),
    );
    const out = box.dir("eval");
    const res = await runCli(
      [
        "eval",
        skill,
        "--model-script",
        script,
        "--out",
        out,
        "--sandbox",
        "local",
        "--env",
        "CLAUDE_CODE_MAX_RETRIES=0",
        "--no-html",
      ],
      { env: box.env() },
    );
    expect(res.stderr).not.toMatch(/internal error/);
    for (const id of ["greet-CONTROL-r1", "greet-WITH_SKILL-r1"]) {
      const report = await readRunReport(out, id);
      expect(report.checks_failed, id).toEqual([]);
      expect(report.checks_passed, id).toContain("command:sleep 1000 & grep -q hello greeting.txt");
    }
    expect(await killStrays(box.root)).toEqual([]);
  });
});
