import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  createRunDirs,
  installValidation,
  prepareWorkspace,
  removeRunDirs,
} from "../../../src/workspace/prepare.js";
import { isSavedPath, saveWorkspace } from "../../../src/workspace/save.js";

let tmp: string;
beforeEach(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), "skillbench-ws-test-"));
});
afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

async function files(dir: string, map: Record<string, string>): Promise<string> {
  for (const [rel, text] of Object.entries(map)) {
    await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await writeFile(path.join(dir, rel), text);
  }
  return dir;
}

describe("prepareWorkspace", () => {
  it("lays out environment/ (Dockerfile too), path and inline skills, and claude_md; validators and data stay out", async () => {
    const env = await files(path.join(tmp, "task/environment"), {
      Dockerfile: "FROM x\n",
      "src/app.py": "print(1)\n",
    });
    const skill = await files(path.join(tmp, "skills/greeter"), {
      "SKILL.md": "---\nname: greeter\n---\nGreet.\n",
      "scripts/run.sh": "echo hi\n",
    });
    const dirs = await createRunDirs("t-CONTROL-r1", tmp);
    const before = await prepareWorkspace({
      workspace: dirs.workspace,
      environmentDir: env,
      skills: [
        { name: "greeter", path: skill, content: null },
        { name: "inline", path: null, content: "---\nname: inline\n---\nInline body.\n" },
      ],
      claudeMd: "Prefer small commits.",
    });
    expect([...before].sort()).toEqual([
      ".claude/skills/greeter/SKILL.md",
      ".claude/skills/greeter/scripts/run.sh",
      ".claude/skills/inline/SKILL.md",
      "CLAUDE.md",
      "Dockerfile",
      "src/app.py",
    ]);
    expect(await readFile(path.join(dirs.workspace, "CLAUDE.md"), "utf8")).toBe(
      "Prefer small commits.",
    );
    expect(existsSync(path.join(dirs.workspace, "validation"))).toBe(false);
    for (const d of [dirs.home, dirs.config, dirs.tmp]) expect(existsSync(d)).toBe(true);
    await removeRunDirs(dirs);
    expect(existsSync(dirs.root)).toBe(false);
  });
});

describe("installValidation", () => {
  it("copies validation/ and data/ after the agent, replacing whatever the agent left under those names", async () => {
    const ws = await files(path.join(tmp, "ws"), {
      "validation/json.py": "planted by the agent\n",
      "data/x.csv": "agent\n",
    });
    const validation = await files(path.join(tmp, "task/validation"), {
      "check.py": 'print("{}")\n',
    });
    const data = await files(path.join(tmp, "task/data"), { "input.csv": "a,b\n" });
    await installValidation({ workspace: ws, validationDir: validation, dataDir: data });
    expect(existsSync(path.join(ws, "validation/json.py"))).toBe(false);
    expect(existsSync(path.join(ws, "data/x.csv"))).toBe(false);
    expect(await readFile(path.join(ws, "validation/check.py"), "utf8")).toBe('print("{}")\n');
    expect(await readFile(path.join(ws, "data/input.csv"), "utf8")).toBe("a,b\n");
  });
});

describe("saveWorkspace", () => {
  it.each([
    ["notes.txt", true],
    ["src/data/rows.json", true],
    ["lib/validation/rules.py", true],
    ["validation/check.py", false],
    ["data/input.csv", false],
    [".claude/skills/x/SKILL.md", false],
    ["node_modules/a/index.js", false],
    ["pkg/.git/HEAD", false],
    ["_test_results.json", false],
  ])("%s saved: %s", (rel, saved) => {
    expect(isSavedPath(rel)).toBe(saved);
  });

  it("keeps text files, redacted; skips binary files", async () => {
    const ws = await files(path.join(tmp, "ws2"), {
      "a.txt": "token sk-secret-1234\n",
      "validation/v.sh": "x\n",
    });
    await writeFile(path.join(ws, "bin.dat"), Buffer.from([1, 0, 2, 3]));
    const dest = path.join(tmp, "saved");
    const r = await saveWorkspace(ws, dest, (s) => s.replace("sk-secret-1234", "[REDACTED]"));
    expect(r.saved).toEqual(["a.txt"]);
    expect(r.skipped).toEqual(["bin.dat"]);
    expect(await readFile(path.join(dest, "a.txt"), "utf8")).toBe("token [REDACTED]\n");
  });
});
