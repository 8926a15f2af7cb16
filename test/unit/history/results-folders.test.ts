import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  HISTORY_FOLDER_CAP,
  historyResultsFolders,
  historySourceTarget,
  pickResultsFolders,
} from "../../../src/history/results-folders.js";

const r = (results_dir: string, recorded_at: string) => ({ results_dir, recorded_at });
const all = (): boolean => true;

describe("pickResultsFolders", () => {
  it.each([
    ["none", [], all, 5, []],
    [
      "newest first",
      [r("/a", "2026-01-01"), r("/c", "2026-03-01"), r("/b", "2026-02-01")],
      all,
      5,
      ["/c", "/b", "/a"],
    ],
    [
      "a folder recorded twice (kinds, re-imports) once, at its newest place",
      [r("/a", "2026-01-01"), r("/b", "2026-02-01"), r("/a", "2026-03-01")],
      all,
      5,
      ["/a", "/b"],
    ],
    [
      "a folder gone or without runs/ is skipped",
      [r("/a", "2026-01-01"), r("/gone", "2026-02-01")],
      (d: string) => d !== "/gone",
      5,
      ["/a"],
    ],
    [
      "capped, newest kept",
      [r("/a", "2026-01-01"), r("/b", "2026-02-01"), r("/c", "2026-03-01")],
      all,
      2,
      ["/c", "/b"],
    ],
    [
      "equal times: the one stored last first",
      [r("/a", "2026-01-01"), r("/b", "2026-01-01")],
      all,
      5,
      ["/b", "/a"],
    ],
  ] as const)("%s", (_, records, usable, cap, want) => {
    expect(pickResultsFolders(records, usable, cap)).toEqual(want);
  });

  it("the cap by default is HISTORY_FOLDER_CAP (20)", () => {
    const many = Array.from({ length: 30 }, (_, i) =>
      r(`/d${String(i).padStart(2, "0")}`, `2026-01-${String(i + 1).padStart(2, "0")}`),
    );
    const got = pickResultsFolders(many, all);
    expect(HISTORY_FOLDER_CAP).toBe(20);
    expect(got).toHaveLength(20);
    expect(got[0]).toBe("/d29");
  });
});

describe("historySourceTarget", () => {
  it.each([
    ["--no-history: none", false, "/w/out", {}, null],
    ["--history FILE, relative to the cwd", "h.db", "/w/out", {}, "/cwd/h.db"],
    ["--history URL as given", "postgres://u:p@h/db", "/w/out", {}, "postgres://u:p@h/db"],
    ["default beside the results", undefined, "/w/out", {}, "/w/.skillbench/history.db"],
    [
      "default: SKILLBENCH_HISTORY_URL first",
      undefined,
      "/w/out",
      { SKILLBENCH_HISTORY_URL: "postgres://x/y" },
      "postgres://x/y",
    ],
  ] as const)("%s", (_, flag, out, env, want) => {
    expect(historySourceTarget(flag, out, "/cwd", env)).toBe(want);
  });
});

describe("historyResultsFolders never creates a store", () => {
  let dir = "";
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "skillbench-histsrc-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("a SQLite file that does not exist: none, and no file (nor folder) is made", async () => {
    const file = path.join(dir, "nowhere", "history.db");
    const warnings: string[] = [];
    const got = await historyResultsFolders(file, (l) => warnings.push(l));
    expect(got.folders).toEqual([]);
    expect(warnings).toEqual([]);
    expect(existsSync(path.join(dir, "nowhere"))).toBe(false);
  });

  it("a file that is not a store: one warning line, none", async () => {
    await mkdir(path.join(dir, "adir.db"));
    const warnings: string[] = [];
    const got = await historyResultsFolders(path.join(dir, "adir.db"), (l) => warnings.push(l));
    expect(got.folders).toEqual([]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^warning: the history store .*adir\.db was not read/);
  });

  it("an unreachable PostgreSQL: one warning line with the password masked, none", async () => {
    const warnings: string[] = [];
    const got = await historyResultsFolders("postgres://u:secret@127.0.0.1:1/db", (l) =>
      warnings.push(l),
    );
    expect(got.folders).toEqual([]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("postgres://u:***@127.0.0.1:1/db");
    expect(warnings[0]).not.toContain("secret");
  });
});
