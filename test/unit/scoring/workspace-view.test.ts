import { mkdtemp, mkdir, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { globToRegExp, makeMemoryWorkspaceView } from "../../../src/scoring/index.js";
import {
  isWorkflowCheck,
  splitChecks,
} from "../../../src/scoring/profiles/comet-workflow/index.js";
import { makeFsWorkspaceView } from "../../../src/scoring/fs-view.js";

describe("globToRegExp", () => {
  it.each<[string, string, boolean]>([
    ["*.md", "a.md", true],
    ["*.md", "d/a.md", false],
    ["**/*.md", "a.md", true],
    ["**/*.md", "d/e/a.md", true],
    ["docs/**", "docs/a/b", true],
    ["docs/**/spec.md", "docs/spec.md", true],
    ["docs/**/spec.md", "docs/x/y/spec.md", true],
    ["a?.txt", "ab.txt", true],
    ["a?.txt", "a/.txt", false],
    ["[ab].txt", "b.txt", true],
    ["[!ab].txt", "c.txt", true],
    ["[!ab].txt", "a.txt", false],
    ["trajectory*.jsonl", "trajectory.jsonl", true],
    ["a.b", "aXb", false],
    [".comet/*", ".comet/x", true],
  ])("%s ~ %s -> %s", (g, p, want) => {
    expect(globToRegExp(g).test(p)).toBe(want);
  });
});

describe("makeMemoryWorkspaceView", () => {
  const v = makeMemoryWorkspaceView(
    { "b/c.txt": "hi", "./a.md": "x", "bin.dat": "a\0b", "big.txt": "x".repeat(1024 * 1024 + 1) },
    { symlinks: ["a.md"] },
  );

  it.each<[string, boolean]>([
    ["a.md", true],
    ["b", true],
    ["b/", true],
    ["b/c.txt", true],
    ["c.txt", false],
    ["**/*.txt", true],
    ["b/*", true],
    ["*", true],
    ["x/*", false],
  ])("exists(%s) -> %s", (p, want) => {
    expect(v.exists(p)).toBe(want);
  });

  it("reads text, refuses binary and oversized files, lists sorted, knows symlinks", () => {
    expect([v.read("b/c.txt"), v.read("bin.dat"), v.read("big.txt"), v.read("nope")]).toEqual([
      "hi",
      null,
      null,
      null,
    ]);
    expect(v.list()).toEqual(["a.md", "b/c.txt", "big.txt", "bin.dat"]);
    expect([v.isSymlink("a.md"), v.isSymlink("b/c.txt")]).toEqual([true, false]);
  });
});

describe("makeFsWorkspaceView", () => {
  let root = "";
  let ws = "";
  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), "sb-fsview-"));
    ws = path.join(root, "ws");
    await mkdir(path.join(ws, "d/.hidden"), { recursive: true });
    await mkdir(path.join(ws, "emptydir"));
    await writeFile(path.join(root, "secret.txt"), "outside");
    await writeFile(path.join(ws, "a.md"), "hello");
    await writeFile(path.join(ws, "d/.hidden/x.json"), "{}");
    await writeFile(path.join(ws, "bin.dat"), Buffer.from([1, 0, 2]));
    await writeFile(path.join(ws, "big.txt"), "x".repeat(1024 * 1024 + 1));
    await symlink(path.join(root, "secret.txt"), path.join(ws, "escape.txt"));
    await symlink(path.join(ws, "a.md"), path.join(ws, "inner-link.md"));
    await symlink(root, path.join(ws, "outdir"));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it("lists files and symlinks without following linked folders", () => {
    expect(makeFsWorkspaceView(ws).list()).toEqual([
      "a.md",
      "big.txt",
      "bin.dat",
      "d/.hidden/x.json",
      "escape.txt",
      "inner-link.md",
      "outdir",
    ]);
  });

  it.each<[string, string | null]>([
    ["a.md", "hello"],
    ["./a.md", "hello"],
    ["d/.hidden/x.json", "{}"],
    ["bin.dat", null],
    ["big.txt", null],
    ["missing", null],
    ["escape.txt", null],
    ["inner-link.md", "hello"],
    ["../secret.txt", null],
    ["outdir/secret.txt", null],
    ["/etc/passwd", null],
  ])("read(%s)", (p, want) => {
    expect(makeFsWorkspaceView(ws).read(p)).toBe(want);
  });

  it.each<[string, boolean]>([
    ["a.md", true],
    ["emptydir", true],
    ["d", true],
    ["**/*.json", true],
    ["*.txt", true],
    ["nope/*", false],
    ["../secret.txt", false],
  ])("exists(%s) -> %s", (p, want) => {
    expect(makeFsWorkspaceView(ws).exists(p)).toBe(want);
  });

  it("isSymlink", () => {
    const v = makeFsWorkspaceView(ws);
    expect([
      v.isSymlink("escape.txt"),
      v.isSymlink("a.md"),
      v.isSymlink("nope"),
      v.isSymlink("../x"),
    ]).toEqual([true, false, false, false]);
  });
});

describe("splitChecks (business vs workflow checks)", () => {
  it.each<[string, boolean]>([
    ["openspec_artifacts: proposal.md found", true],
    ["comet_state", true],
    ["workflow_phases: 4/5", true],
    ["tests_written: yes", true],
    ["tests_exist: no", true],
    ["native_skill_invocation: ok", true],
    ["native_artifacts: ok", true],
    ["native_state: ok", true],
    ["native_trajectory: ok", true],
    ["native_isolation: ok", true],
    ["tests pass", false],
    ["Artifact not found: x", false],
    ["my openspec_artifacts", false],
  ])("%s -> workflow %s", (m, want) => {
    expect(isWorkflowCheck(m)).toBe(want);
  });

  it("keeps order and status", () => {
    expect(
      splitChecks({ passed: ["a", "comet_state: ok", "b"], failed: ["tests_exist: no", "c"] }),
    ).toEqual({
      business: { passed: ["a", "b"], failed: ["c"] },
      workflow: { passed: ["comet_state: ok"], failed: ["tests_exist: no"] },
    });
  });
});
