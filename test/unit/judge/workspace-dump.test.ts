import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  assembleDump,
  EMPTY_WORKSPACE,
  fileChunk,
  skipReasonForPath,
} from "../../../src/judge/dump-text.js";
import { dumpWorkspace } from "../../../src/judge/workspace-dump.js";

describe("skipReasonForPath", () => {
  it.each<[string, boolean, string | null]>([
    ["src/a.ts", false, null],
    [".env", false, "dot path"],
    ["src/.hidden/x", false, "dot path"],
    [".claude", true, "dot path"],
    ["node_modules", true, "skipped folder"],
    ["a/node_modules/b.js", false, "skipped folder"],
    ["venv", true, "skipped folder"],
    ["pkg/__pycache__", true, "skipped folder"],
    ["env", true, "skipped folder"],
    ["env.txt", false, null],
    ["validation", true, "harness folder"],
    ["data", true, "harness folder"],
    ["src/data", true, null],
    ["_test_results.json", false, "harness file"],
    ["sub/_test_context.json", false, "harness file"],
  ])("%s (dir %s)", (rel, isDir, why) => {
    expect(skipReasonForPath(rel, isDir)).toBe(why);
  });
});

describe("assembleDump", () => {
  const f = (rel: string, n: number, ch = "x"): { rel: string; text: string } => ({
    rel,
    text: ch.repeat(n),
  });
  it.each<
    [
      string,
      Array<{ rel: string; text: string }>,
      number,
      { included: string[]; cut: string[]; overBudget: string[]; length?: number },
    ]
  >([
    ["empty", [], 20_000, { included: [], cut: [], overBudget: [] }],
    [
      "a 5,000 char file cut to 3,000",
      [f("a", 5000)],
      20_000,
      {
        included: ["a"],
        cut: ["a"],
        overBudget: [],
        length: fileChunk("a", "x".repeat(3000)).length,
      },
    ],
    [
      "total budget: a truncated last chunk when > 200 chars remain",
      [
        f("a", 3000),
        f("b", 3000),
        f("c", 3000),
        f("d", 3000),
        f("e", 3000),
        f("f", 3000),
        f("g", 3000),
        f("h", 3000),
      ],
      20_000,
      { included: ["a", "b", "c", "d", "e", "f", "g"], cut: [], overBudget: ["h"], length: 20_000 },
    ],
    [
      "no truncated chunk when <= 200 chars remain",
      [f("a", 1000), f("b", 1000)],
      fileChunk("a", "x".repeat(1000)).length + 150,
      {
        included: ["a"],
        cut: [],
        overBudget: ["b"],
        length: fileChunk("a", "x".repeat(1000)).length,
      },
    ],
  ])("%s", (_n, files, budget, exp) => {
    const d = assembleDump(files, budget);
    expect(d.included).toEqual(exp.included);
    expect(d.cut).toEqual(exp.cut);
    expect(d.overBudget).toEqual(exp.overBudget);
    if (exp.length !== undefined) expect(d.text.length).toBe(exp.length);
    if (files.length === 0) expect(d.text).toBe(EMPTY_WORKSPACE);
  });
});

describe("dumpWorkspace on disk", () => {
  let root: string;
  let ws: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), "skillbench-judge-dump-"));
    ws = path.join(root, "ws");
    await mkdir(path.join(ws, "src"), { recursive: true });
    await mkdir(path.join(ws, ".git"), { recursive: true });
    await mkdir(path.join(ws, "node_modules", "x"), { recursive: true });
    await mkdir(path.join(ws, "validation"), { recursive: true });
    await mkdir(path.join(root, "outside-dir"), { recursive: true });
    await writeFile(path.join(root, "outside.txt"), "OUTSIDE-SECRET-CONTENT");
    await writeFile(path.join(root, "outside-dir", "f.txt"), "OUTSIDE-DIR-CONTENT");
    await writeFile(path.join(ws, "big.txt"), "B".repeat(60_000));
    await writeFile(path.join(ws, "five.txt"), `${"F".repeat(4999)}Z`);
    await writeFile(path.join(ws, "bin.dat"), Buffer.from([0x41, 0x00, 0x42]));
    await writeFile(path.join(ws, ".env"), "DOT=1");
    await writeFile(path.join(ws, ".git", "config"), "GITCONFIG");
    await writeFile(path.join(ws, "node_modules", "x", "i.js"), "NODEMOD");
    await writeFile(path.join(ws, "validation", "check.py"), "VALIDATOR");
    await writeFile(path.join(ws, "_test_results.json"), "{}");
    await writeFile(path.join(ws, "src", "app.ts"), "export const app = 1;\n");
    await symlink(path.join(root, "outside.txt"), path.join(ws, "leak.txt"));
    await symlink(path.join(root, "outside-dir"), path.join(ws, "leakdir"));
    await symlink(path.join(ws, "src", "app.ts"), path.join(ws, "inner-link.ts"));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it("applies every collection rule", async () => {
    const d = await dumpWorkspace(ws);
    expect(d.included).toEqual(["five.txt", "inner-link.ts", "src/app.ts"]);
    expect(d.cut).toEqual(["five.txt"]);
    expect(d.text).toContain(`\n=== five.txt ===\n${"F".repeat(3000)}\n`);
    expect(d.text).not.toContain("Z");
    for (const absent of [
      "OUTSIDE",
      "BBBB",
      "GITCONFIG",
      "NODEMOD",
      "VALIDATOR",
      "DOT=1",
      "=== bin.dat",
      "_test_results",
    ])
      expect(d.text).not.toContain(absent);
    const reasons = Object.fromEntries(d.skipped.map((s) => [s.rel, s.reason]));
    expect(reasons).toMatchObject({
      "big.txt": "larger than 50000 bytes",
      "bin.dat": "binary",
      "leak.txt": "symlink leaves the workspace",
      leakdir: "symlink leaves the workspace",
      ".env": "dot path",
      ".git": "dot path",
      node_modules: "skipped folder",
      validation: "harness folder",
      "_test_results.json": "harness file",
    });
  });

  it("an empty workspace says so", async () => {
    const empty = path.join(root, "empty");
    await mkdir(empty);
    expect((await dumpWorkspace(empty)).text).toBe(EMPTY_WORKSPACE);
  });
});

describe("dumpWorkspace of a saved copy with no folder", () => {
  it("is the empty workspace, not an error (an agent that left no file)", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "skillbench-dump-none-"));
    try {
      const dump = await dumpWorkspace(path.join(dir, "workspace"));
      expect(dump.text).toBe(EMPTY_WORKSPACE);
      expect(dump.skipped).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
