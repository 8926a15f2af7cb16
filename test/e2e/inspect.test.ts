/**
 * `list`, `validate` and `run --dry-run` through the built CLI: nothing here may start an
 * agent. The agent binary given to the dry run is a script that leaves a marker when it is
 * executed, and the test asserts the marker is absent.
 */
import { chmod, cp, mkdir, readdir, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
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
  box = await makeSandbox("inspect");
});
afterAll(async () => {
  await box.remove();
});

const PlanJson = z.object({
  schema: z.literal("skillbench.plan.v1"),
  kind: z.enum(["suite", "skill"]),
  tasks: z.array(z.object({ name: z.string(), profile: z.string(), timeout_sec: z.number() })),
  treatments: z.array(
    z.object({ name: z.string(), skills: z.array(z.object({ name: z.string() })) }),
  ),
  runs: z.array(
    z.object({
      run_id: z.string(),
      profile: z.string(),
      sandbox: z.string(),
      timeout_sec: z.number(),
      interaction: z.object({ mode: z.string(), max_turns: z.number() }),
    }),
  ),
  skill: z
    .object({
      skill: z.string(),
      manifest: z.string().nullable(),
      baselines: z.array(z.object({ name: z.string(), origin: z.string() })),
      quality_gates: z.array(z.object({ key: z.string() })),
    })
    .nullable(),
});

describe("list --json", () => {
  it("a Skill folder: its tasks, CONTROL + the Skill + baselines, eval's defaults", async () => {
    const res = await runCli(["list", skill("greeter"), "--json"], { env: box.env() });
    expect(res.code, res.stderr).toBe(0);
    const plan = PlanJson.parse(JSON.parse(res.stdout));
    expect(plan.kind).toBe("skill");
    expect(plan.tasks.map((t) => t.name)).toEqual(["farewell", "greet"]);
    expect(plan.treatments.map((t) => [t.name, t.skills.map((s) => s.name)])).toEqual([
      ["CONTROL", []],
      ["WITH_SKILL", ["greeter"]],
      ["GREETER_V1", ["greeter"]],
    ]);
    // trials: 2 in the manifest; the sandbox that isolates best (auto).
    expect(plan.runs).toHaveLength(12);
    expect(plan.runs[0]).toMatchObject({
      run_id: "farewell-CONTROL-r1",
      profile: "generic",
      sandbox: "auto",
      timeout_sec: 900,
      interaction: { mode: "none" },
    });
    expect(plan.skill?.quality_gates.map((g) => g.key)).toEqual([
      "minPassRate",
      "minChecksPassRate",
      "minPassHat2",
      "noRegression",
    ]);
  });

  it("a suite folder, with --task and --count", async () => {
    const res = await runCli(
      ["list", fixtureSuite("e2e-matrix"), "--json", "--task", "tone", "-n", "3"],
      { env: box.env() },
    );
    expect(res.code, res.stderr).toBe(0);
    const plan = PlanJson.parse(JSON.parse(res.stdout));
    expect(plan.kind).toBe("suite");
    expect(plan.runs.map((r) => r.run_id)).toEqual([
      "tone-CONTROL-r1",
      "tone-CONTROL-r2",
      "tone-CONTROL-r3",
      "tone-WITH_SKILL-r1",
      "tone-WITH_SKILL-r2",
      "tone-WITH_SKILL-r3",
    ]);
    // The default is auto: the best isolation this machine offers, chosen when a run starts.
    expect(plan.runs.every((r) => r.sandbox === "auto")).toBe(true);
  });
});

describe("validate", () => {
  it("passes the fixtures and says what it checked", async () => {
    for (const t of [skill("greeter"), skill("comet-style"), fixtureSuite("e2e-matrix")]) {
      const res = await runCli(["validate", t], { env: box.env() });
      expect(res.code, res.stderr).toBe(0);
      expect(res.stdout).toMatch(/OK: \d+ task\(s\), \d+ validator\(s\)/);
    }
  });

  async function brokenSkill(name: string, files: Record<string, string>): Promise<string> {
    const dir = box.dir(name);
    await cp(skill("greeter"), dir, { recursive: true });
    await cp(skill("greeter-v1"), path.join(path.dirname(dir), "greeter-v1"), { recursive: true });
    for (const [rel, text] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
      await writeFile(path.join(dir, rel), text);
    }
    return dir;
  }

  const HEAD =
    "apiVersion: comet.eval/v1alpha1\nkind: SkillEvalManifest\nmetadata: {name: x}\nskill: {name: greeter}\n";

  it.each([
    [
      "an unknown field",
      {
        "eval.yaml": `${HEAD}evaluation:\n  tasks:\n    - name: t\n      promt: hi\n      expect: {files: [a]}\n`,
      },
      /eval\.yaml: .*evaluation\.tasks\[0\]\.promt: unknown field \(did you mean prompt\?\)/,
    ],
    [
      "a quality gate that does not exist",
      {
        "eval.yaml": `${HEAD}evaluation:\n  qualityGates: {min_pass_rat: 0.5}\n  tasks:\n    - {name: t, prompt: p, expect: {files: [a]}}\n`,
      },
      /eval\.yaml: evaluation\.qualityGates\.min_pass_rat: profile generic has no dimension pass_rat/,
    ],
    [
      "a baseline folder that does not exist",
      {
        "eval.yaml": `${HEAD}evaluation:\n  baselineTreatments: [../nowhere]\n  tasks:\n    - {name: t, prompt: p, expect: {files: [a]}}\n`,
      },
      /eval\.yaml: evaluation\.baselineTreatments\[0\]: no folder .*nowhere/,
    ],
    [
      "a profile that does not exist",
      {
        "eval.yaml": `${HEAD.replace("{name: greeter}", "{name: greeter, profile: nosuch}")}evaluation:\n  tasks:\n    - {name: t, prompt: p, expect: {files: [a]}}\n`,
      },
      /tasks\/t\/task\.toml: \[evaluation\]\.profile: .*nosuch/,
    ],
    [
      "a validator that cannot start",
      { "tasks/farewell/validation/check_bye.sh": "if then fi (\n" },
      /tasks\/farewell\/validation\/check_bye\.sh: validator cannot start: does not parse/,
    ],
  ])("exits 2 on %s, naming the file and field", async (name, files, message) => {
    const dir = await brokenSkill(name.replace(/\W+/g, "-"), files);
    const res = await runCli(["validate", dir], { env: box.env() });
    expect(res.code, res.stdout).toBe(2);
    expect(res.stderr).toMatch(message);
  });

  it("a manifest error names its line", async () => {
    const dir = await brokenSkill("line", {
      "eval.yaml": `${HEAD}evaluation:\n  trials: 0\n`,
    });
    const res = await runCli(["validate", dir], { env: box.env() });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("eval.yaml: evaluation.trials: Too small");
    // line 6 is "  trials: 0"; the InputError carries it and the CLI prints the message.
    const { loadManifest } = await import("../../src/manifest/index.js");
    const e = await loadManifest(path.join(dir, "eval.yaml")).catch((x: unknown) => x);
    expect((e as { details: { line?: number } }).details.line).toBe(6);
  });
});

describe("eval on a Skill with no tasks", () => {
  it("exits 2 before anything runs, saying how to add tasks", async () => {
    const dir = box.dir("bare-skill");
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, "SKILL.md"), "---\nname: bare\ndescription: x\n---\nBody\n");
    const out = box.dir("bare-out");
    const res = await runCli(["eval", dir, "--out", out], { env: box.env() });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("no tasks to run: add evaluation.tasks to an eval.yaml");
    expect(res.stderr).toContain("--quick for one smoke task");
    expect(existsSync(path.join(out, "runs"))).toBe(false);
  });
});

describe("run --dry-run", () => {
  it("prints each run's profile, sandbox, timeout and interaction and starts nothing", async () => {
    const marker = box.dir("agent-started");
    const fakeAgent = box.dir("fake-claude");
    await writeFile(fakeAgent, `#!/bin/sh\ntouch ${JSON.stringify(marker)}\necho 2.1.328\n`);
    await chmod(fakeAgent, 0o755);
    const out = box.dir("never-written");
    const res = await runCli(
      [
        "run",
        fixtureSuite("e2e-matrix"),
        "--dry-run",
        "--agent-bin",
        fakeAgent,
        "--model-script",
        path.join(fixtureSuite("e2e-matrix"), "model-script.yaml"),
        "--out",
        out,
        "--sandbox",
        "bwrap",
        "--timeout",
        "77",
      ],
      { env: box.env() },
    );
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/^RUN +PROFILE +SANDBOX +TIMEOUT +INTERACTION$/m);
    expect(res.stdout).toMatch(/^tone-WITH_SKILL-r1 +generic +bwrap +77s +none$/m);
    expect(res.stdout).toContain("Dry run: no agent, validator or model server was started.");
    expect(existsSync(marker)).toBe(false);
    expect(existsSync(out)).toBe(false);
    expect(await readdir(box.tmp)).toEqual([]);
  });

  it("eval --dry-run plans the Skill the same way", async () => {
    const res = await runCli(["eval", skill("comet-style"), "--dry-run", "--count", "1"], {
      env: box.env(),
    });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/^record-fix-CONTROL-r1 +generic +auto\S* +900s +none$/m);
    expect(res.stdout).toContain("2 runs planned");
  });
});
