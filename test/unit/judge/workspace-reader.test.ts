/**
 * The workspace a profile's judge reads (`ProfileJudge.prompt`), as the judge hands it in:
 * real folders only, files by extension, text only from inside the workspace.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { judgeWorkspace } from "../../../src/judge/workspace-reader.js";

let root: string;
let ws: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "skillbench-judge-reader-"));
  ws = path.join(root, "ws");
  await mkdir(path.join(ws, "changes/b"), { recursive: true });
  await mkdir(path.join(ws, "changes/a"), { recursive: true });
  await writeFile(path.join(ws, "changes/a/proposal.md"), "P");
  await writeFile(path.join(ws, "changes/z.md"), "Z");
  await writeFile(path.join(ws, "changes/y.txt"), "Y");
  await writeFile(path.join(ws, "bin.md"), Buffer.from([0x61, 0, 0x62]));
  await writeFile(path.join(root, "secret.md"), "outside");
  await symlink(path.join(ws, "changes/a"), path.join(ws, "changes/link"));
  await symlink(path.join(root, "secret.md"), path.join(ws, "changes/leak.md"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("judgeWorkspace", () => {
  it("subdirs: real folders, sorted; none for a missing folder", async () => {
    const r = judgeWorkspace(ws);
    expect(await r.subdirs("changes")).toEqual(["a", "b"]);
    expect(await r.subdirs("nowhere")).toEqual([]);
  });

  it("files: regular files ending with the extension, as <rel>/<name>, sorted", async () => {
    expect(await judgeWorkspace(ws).files("changes", ".md")).toEqual(["changes/z.md"]);
    expect(await judgeWorkspace(ws).files("nowhere", ".md")).toEqual([]);
  });

  it.each<[string, string | null]>([
    ["changes/a/proposal.md", "P"],
    ["changes/missing.md", null],
    ["../secret.md", null],
    ["changes/leak.md", null],
    ["bin.md", null],
    ["changes", null],
  ])("readText(%s)", async (rel, want) => {
    expect(await judgeWorkspace(ws).readText(rel)).toBe(want);
  });
});
