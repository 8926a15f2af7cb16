/**
 * Frozen generated tasks (`eval --generate`, docs/manifest.md) edited by hand (issue 39):
 *  - the generator's rules hold on every reuse: a frozen file edited to name a folder, a task
 *    folder or a path outside the workspace is refused (exit 2, file, field, line), even with
 *    --accept-edited;
 *  - the record holds the hash of the set's text: an edited set, or one without its record, is
 *    refused as "edited by hand" unless --accept-edited, which runs it labelled as edited on the
 *    console and in eval.json.
 * One generation (real claude binary, scripted model) is copied into a fresh Skill per case.
 */
import { cp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, makeSandbox, REPO_ROOT, runCli, type Sandbox } from "../helpers/cli.js";

const FIXTURE = path.join(REPO_ROOT, "test", "fixtures", "skills", "untested-greeter");
const SCRIPT = path.join(REPO_ROOT, "test", "fixtures", "eval-generate", "model-script.yaml");

let box: Sandbox;
let base: string;
let frozenName: string;

function evalArgs(skill: string, out: string, ...extra: string[]): string[] {
  return [
    "eval",
    skill,
    "--model-script",
    SCRIPT,
    "--out",
    out,
    "-n",
    "1",
    "--treatment",
    "CONTROL",
    "--task",
    "write-greeting",
    "--env",
    "CLAUDE_CODE_MAX_RETRIES=0",
    ...extra,
  ];
}

beforeAll(async () => {
  assertBuilt();
  box = await makeSandbox("eval-frozen");
  base = box.dir("base");
  await cp(FIXTURE, base, { recursive: true });
  const r = await runCli(evalArgs(base, box.dir("gen"), "--generate"), { env: box.env() });
  if (r.code !== 0) throw new Error(`generation failed: ${r.stderr}`);
  const files = (await readdir(path.join(base, ".skillbench", "generated"))).sort();
  frozenName = (files.find((f) => f.endsWith(".yaml")) ?? "").replace(/\.yaml$/, "");
}, 240_000);

afterAll(async () => {
  await box.remove();
});

/** A copy of the Skill with its frozen set, the set's text passed through `edit`. */
async function variant(
  name: string,
  edit: (text: string) => string,
): Promise<{ dir: string; file: string }> {
  const dir = box.dir(name);
  await cp(base, dir, { recursive: true });
  const file = path.join(dir, ".skillbench", "generated", `${frozenName}.yaml`);
  const text = await readFile(file, "utf8");
  const edited = edit(text);
  await writeFile(file, edited);
  return { dir, file };
}

const PROMPT = "      prompt: Please greet Ada in greeting.txt.\n";

describe("a frozen set edited to break the generator's rules is refused on reuse", () => {
  it.each([
    [
      "a workspace folder",
      (t: string) => t.replace(PROMPT, `${PROMPT}      workspace: ../../../host-secret\n`),
      /\.yaml: evaluation\.tasks\[0\]\.workspace: a generated task gives its workspace files inline \(path: text\), not a folder \(line 17\)/,
    ],
    [
      "a task folder",
      (t: string) => `${t}    - source: ../../..\n`,
      /\.yaml: evaluation\.tasks\[2\]\.source: a generated task is written inline \(no task folders\) \(line 32\)/,
    ],
    [
      "an expect target outside the workspace",
      (t: string) => t.replace("          greeting.txt:\n", "          /etc/passwd:\n"),
      /\.yaml: evaluation\.tasks\[0\]\.expect\.contains\.\/etc\/passwd: must be relative to the workspace, got absolute path "\/etc\/passwd" \(line 21\)/,
    ],
  ])("%s (even with --accept-edited)", async (name, edit, message) => {
    const { dir } = await variant(`rules-${name.replace(/\W+/g, "-")}`, edit);
    for (const extra of [[], ["--accept-edited"]]) {
      const out = box.dir(`rules-${name.replace(/\W+/g, "-")}-out${extra.length}`);
      const r = await runCli(evalArgs(dir, out, ...extra), { env: box.env() });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(existsSync(path.join(out, "runs"))).toBe(false);
    }
  });
});

describe("a frozen set edited by hand", () => {
  it("is refused without --accept-edited, naming the file (exit 2, nothing run)", async () => {
    const { dir, file } = await variant("trivial", (t) => t.replace("^Hello, Ada!$", "."));
    const out = box.dir("trivial-out");
    const r = await runCli(evalArgs(dir, out), { env: box.env() });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${file}: edited by hand: its text (sha256 `);
    expect(r.stderr).toContain("--accept-edited");
    expect(existsSync(path.join(out, "runs"))).toBe(false);
  });

  it("runs with --accept-edited, labelled as edited on the console and in eval.json", async () => {
    const { dir } = await variant("accepted", (t) => t.replace("^Hello, Ada!$", "."));
    const out = box.dir("accepted-out");
    const r = await runCli(evalArgs(dir, out, "--accept-edited"), { env: box.env() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("tasks (generated (edited by hand)): write-greeting");
    expect(r.stderr).toMatch(/EDITED BY HAND: its text \(sha256 [0-9a-f]{12}…\) is not the text/);
    const ev = JSON.parse(await readFile(path.join(out, "eval.json"), "utf8")) as {
      task_source: string;
      generated: { edited_by_hand: string | null; cached: boolean };
    };
    expect(ev.task_source).toBe("generated (edited by hand)");
    expect(ev.generated.edited_by_hand).toMatch(/is not the text the generator froze/);
  }, 120_000);

  it("without its record is refused as edited by hand", async () => {
    const { dir } = await variant("no-record", (t) => t);
    await rm(path.join(dir, ".skillbench", "generated", `${frozenName}.json`));
    const r = await runCli(evalArgs(dir, box.dir("no-record-out")), { env: box.env() });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/edited by hand: its generation record .*\.json is missing/);
  });

  it("as generated is reused as before (generated (cached))", async () => {
    const { dir } = await variant("untouched", (t) => t);
    const out = box.dir("untouched-out");
    const r = await runCli(evalArgs(dir, out), { env: box.env() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("tasks (generated (cached)): write-greeting");
    expect(r.stderr).not.toContain("EDITED BY HAND");
  }, 120_000);
});

describe("eval --dry-run of a Skill whose tasks are frozen generated ones", () => {
  const dryArgs = (dir: string, ...extra: string[]): string[] => [
    "eval",
    dir,
    "--dry-run",
    "--model-script",
    SCRIPT,
    "-n",
    "1",
    "--sandbox",
    "local",
    ...extra,
  ];

  it("plans them, as eval would run them", async () => {
    const { dir, file } = await variant("dry-run", (t) => t);
    const r = await runCli(dryArgs(dir), { env: box.env() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`tasks: generated, frozen in ${file}`);
    expect(r.stdout).toContain("4 runs planned (2 tasks × 2 treatments × 1 repetitions");
    expect(r.stdout).toMatch(/write-greeting-WITH_SKILL-r1/);
    expect(r.stdout).toMatch(/record-status-CONTROL-r1/);
  });

  it("refuses an edited set as eval does, and plans it with --accept-edited", async () => {
    const { dir } = await variant("dry-run-edited", (t) => t.replace("^Hello, Ada!$", "."));
    const refused = await runCli(dryArgs(dir), { env: box.env() });
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toContain("edited by hand");
    const accepted = await runCli(dryArgs(dir, "--accept-edited"), { env: box.env() });
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(accepted.stdout).toContain("4 runs planned");
  });
});
