import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { artifactFailure, checkArtifacts } from "../../../src/validators/index.js";

let root: string;
let ws: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "sb-artifacts-"));
  ws = path.join(root, "ws");
  await mkdir(path.join(ws, "docs/sub"), { recursive: true });
  await mkdir(path.join(ws, ".hidden"), { recursive: true });
  await writeFile(path.join(ws, "README.md"), "x");
  await writeFile(path.join(ws, "docs/a.md"), "x");
  await writeFile(path.join(ws, "docs/sub/b.md"), "x");
  await writeFile(path.join(ws, ".hidden/c.md"), "x");
  await writeFile(path.join(ws, ".env"), "x");
  await writeFile(path.join(root, "outside.txt"), "x");
  await symlink(path.join(root, "outside.txt"), path.join(ws, "link-out.txt"));
  await symlink(path.join(ws, "README.md"), path.join(ws, "link-in.md"));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("checkArtifacts", () => {
  it.each<[string, boolean, string[], string | undefined]>([
    ["README.md", true, ["README.md"], undefined],
    ["docs", true, ["docs"], undefined],
    ["docs/../README.md", true, ["README.md"], undefined],
    ["missing.txt", false, [], undefined],
    ["docs/*.md", true, ["docs/a.md"], undefined],
    // Globs do not report symlinks (they are never followed); plain paths may name one that stays inside.
    ["**/*.md", true, [".hidden/c.md", "README.md", "docs/a.md", "docs/sub/b.md"], undefined],
    ["link-*.md", false, [], undefined],
    [".hidden/*.md", true, [".hidden/c.md"], undefined],
    [".e?v", true, [".env"], undefined],
    ["docs/[ab].md", true, ["docs/a.md"], undefined],
    ["docs/*", true, ["docs/a.md", "docs/sub"], undefined],
    ["nothing/*.md", false, [], undefined],
    ["link-in.md", true, ["link-in.md"], undefined],
    ["link-out.txt", false, [], "symlink leads outside the workspace (or dangles)"],
    ["link-*.txt", false, [], undefined],
    ["../outside.txt", false, [], "path escapes the workspace"],
    ["../*.txt", false, [], "glob escapes the workspace (..)"],
    ["docs/{..,x}/*.txt", false, [], "glob escapes the workspace (..)"],
    ["/etc/passwd", false, [], "absolute paths are refused"],
    ["/etc/*", false, [], "absolute paths are refused"],
    ["", false, [], "empty path"],
  ])("%s", async (target, found, matches, problem) => {
    const [res] = await checkArtifacts(ws, [target]);
    expect(res).toEqual(
      problem === undefined
        ? { path: target, found, matches }
        : { path: target, found, matches, problem },
    );
  });

  it.each([
    [{ path: "x", found: false, matches: [] }, "Artifact not found: x"],
    [
      { path: "../x", found: false, matches: [], problem: "path escapes the workspace" },
      "Artifact not found: ../x (path escapes the workspace)",
    ],
  ])("artifactFailure %#", (a, msg) => {
    expect(artifactFailure(a)).toBe(msg);
  });
});
