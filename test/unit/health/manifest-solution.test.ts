import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileManifest } from "../../../src/manifest/compile.js";
import { loadManifest } from "../../../src/manifest/load.js";
import { findSolution } from "../../../src/health/solution.js";

let root: string;
let dir: string;
let out: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "skillbench-manifest-solution-"));
  dir = path.join(root, "skill");
  out = path.join(root, "out");
  await mkdir(dir);
  await writeFile(path.join(dir, "SKILL.md"), "---\nname: s\ndescription: d\n---\nbody\n");
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const manifest = (solution: string): string => `apiVersion: comet.eval/v1alpha1
kind: SkillEvalManifest
metadata: {name: s-eval}
skill: {name: s}
evaluation:
  tasks:
    - name: t
      prompt: Write a.txt.
      expect: {files: [a.txt]}
${solution}`;

describe("a manifest task's solution:", () => {
  it("compiles files into solution/files/ and commands into solution/solve.sh", async () => {
    const file = path.join(dir, "eval.yaml");
    await writeFile(
      file,
      manifest(
        `      solution:\n        files: {a.txt: "hi\\n"}\n        commands: ["echo done"]\n`,
      ),
    );
    const compiled = await compileManifest(await loadManifest(file), {
      outDir: out,
    });
    const task = path.join(compiled.dir, "tasks", "t");
    expect(await readFile(path.join(task, "solution/files/a.txt"), "utf8")).toBe("hi\n");
    const script = await readFile(path.join(task, "solution/solve.sh"), "utf8");
    expect(script).toBe("#!/usr/bin/env bash\nset -euo pipefail\necho done\n");
    expect((await stat(path.join(task, "solution/solve.sh"))).mode & 0o111).not.toBe(0);
    expect((await findSolution(task))?.kind).toBe("files+solve.sh");
  });

  it.each([
    ["an empty solution", "      solution: {}\n", "solution needs files or commands"],
    ["a path leaving the workspace", '      solution: {files: {"../x": "y"}}\n', "solution.files"],
  ])("refuses %s", async (_name, yaml, message) => {
    const file = path.join(dir, "eval.yaml");
    await writeFile(file, manifest(yaml));
    await expect(
      loadManifest(file).then((m) => compileManifest(m, { outDir: out })),
    ).rejects.toThrow(message);
  });

  it("a task folder without solution/ has none", async () => {
    expect(await findSolution(dir)).toBeNull();
  });
});
