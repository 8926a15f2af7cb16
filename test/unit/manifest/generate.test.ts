import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generationKey, parseGeneratedTasks } from "../../../src/manifest/generate.js";
import {
  applyLimits,
  readSkillSnapshot,
  referencedFiles,
  snapshotOrder,
} from "../../../src/manifest/snapshot.js";

const tmp: string[] = [];
afterAll(async () => {
  for (const d of tmp) await rm(d, { recursive: true, force: true });
});

describe("the Skill snapshot", () => {
  const files = [
    "README.md",
    "SKILL.md",
    "docs/api.md",
    "docs/apix.md",
    "examples/a.md",
    "notes.txt",
    "references/r.md",
    "scripts/run.py",
    "templates/t.md",
  ];

  it.each([
    ["a markdown link", "see [the API](docs/api.md)", ["docs/api.md"]],
    ["a ./ path in backticks", "run `./scripts/run.py`", ["scripts/run.py"]],
    ["a longer name is not a shorter one", "docs/apix.md only", ["docs/apix.md"]],
    ["a suffix of another path is not a match", "mydocs/api.md", []],
    ["SKILL.md itself is not a reference", "SKILL.md and README.md", ["README.md"]],
  ])("references: %s", (_label, text, want) => {
    expect(referencedFiles(text, files)).toEqual(want);
  });

  it("orders SKILL.md, referenced files, then scripts/ references/ examples/ templates/", () => {
    expect(snapshotOrder("read notes.txt and references/r.md", files)).toEqual([
      "SKILL.md",
      "notes.txt",
      "references/r.md",
      "scripts/run.py",
      "examples/a.md",
      "templates/t.md",
    ]);
  });

  it("applies the file and byte limits in order, and leaves binaries out", () => {
    const c = (
      p: string,
      size: number,
      binary = false,
    ): { path: string; size: number; binary: boolean } => ({
      path: p,
      size,
      binary,
    });
    const r = applyLimits([c("a", 40), c("b", 50), c("bin", 1, true), c("c", 10), c("d", 1)], {
      files: 2,
      bytes: 60,
    });
    expect(r.included.map((x) => x.path)).toEqual(["a", "c"]);
    expect(r.omitted).toEqual([
      { path: "b", reason: "over the 0 KiB limit (50 bytes)" },
      { path: "bin", reason: "binary file" },
      { path: "d", reason: "over the 2-file limit" },
    ]);
  });

  it("stops at 128 files, records what is left out, and skips the manifest and .skillbench", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "sb-snap-"));
    tmp.push(dir);
    await writeFile(path.join(dir, "SKILL.md"), "# S\n");
    await writeFile(path.join(dir, "eval.yaml"), "x: 1\n");
    await mkdir(path.join(dir, ".skillbench", "generated"), { recursive: true });
    await writeFile(path.join(dir, ".skillbench", "generated", "k.yaml"), "x\n");
    await mkdir(path.join(dir, "references"));
    for (let i = 0; i < 130; i++)
      await writeFile(path.join(dir, "references", `r${String(i).padStart(3, "0")}.md`), `${i}\n`);
    const { snapshot, contents } = await readSkillSnapshot(dir);
    expect(snapshot.files).toHaveLength(128);
    expect(snapshot.files[0]?.path).toBe("SKILL.md");
    expect(snapshot.omitted.map((o) => o.path)).toEqual([
      "references/r127.md",
      "references/r128.md",
      "references/r129.md",
    ]);
    expect(snapshot.truncated).toBe(true);
    expect(contents.has("eval.yaml")).toBe(false);
    expect([...contents.keys()].some((k) => k.startsWith(".skillbench"))).toBe(false);
  });
});

describe("the cache key", () => {
  const snapshot = {
    files: [{ path: "SKILL.md", bytes: 3, sha256: "a".repeat(64) }],
    omitted: [],
    bytes: 3,
    truncated: false,
  };
  const base = {
    snapshot,
    agent: { name: "claude-code", version: "2.1.328" },
    model: "m",
    profile: "generic",
  };
  it("is stable, and changes with the snapshot, the agent, the model and the profile", () => {
    const k = generationKey(base);
    expect(k).toMatch(/^[0-9a-f]{64}$/);
    expect(generationKey({ ...base })).toBe(k);
    const changed = [
      {
        ...base,
        snapshot: { ...snapshot, files: [{ ...snapshot.files[0], sha256: "b".repeat(64) }] },
      },
      { ...base, agent: { name: "claude-code", version: "2.1.329" } },
      { ...base, model: "n" },
      { ...base, profile: "authoring-skill" },
    ] as (typeof base)[];
    for (const c of changed) expect(generationKey(c)).not.toBe(k);
  });
});

describe("parseGeneratedTasks", () => {
  const good = [
    "tasks:",
    "  - name: a",
    "    prompt: do a",
    "    expect: {files: [a.txt]}",
    "  - name: b",
    "    prompt: do b",
    "    workspace: {in.txt: hello}",
    "    expect: {not_contains: {b.txt: [x]}}",
  ].join("\n");

  it("reads YAML, a fenced block inside prose, JSON, and snake_case keys", () => {
    expect(parseGeneratedTasks(good).map((t) => t.name)).toEqual(["a", "b"]);
    expect(parseGeneratedTasks(`Sure!\n\n\`\`\`yaml\n${good}\n\`\`\`\nDone.`)[1]?.expect).toEqual({
      notContains: { "b.txt": ["x"] },
    });
    const json = JSON.stringify([
      { name: "a", prompt: "p", expect: { files: ["x"] } },
      { name: "b", prompt: "q", expect: { skill_invoked: true } },
    ]);
    expect(parseGeneratedTasks(json)[1]?.expect).toEqual({ skillInvoked: true });
  });

  it.each([
    ["prose only", "I could not think of tasks.", /expected a mapping with a tasks: list/],
    [
      "one task",
      "tasks:\n  - {name: a, prompt: p, expect: {files: [x]}}",
      /expected 2 to 4 tasks, got 1/,
    ],
    [
      "five tasks",
      `tasks:\n${[1, 2, 3, 4, 5].map((i) => `  - {name: t${i}, prompt: p, expect: {files: [x]}}`).join("\n")}`,
      /expected 2 to 4 tasks, got 5/,
    ],
    [
      "a task with no expect",
      "tasks:\n  - {name: a, prompt: p, expect: {files: [x]}}\n  - {name: b, prompt: p}",
      /tasks\[1\]\.expect: /,
    ],
    [
      "an empty expect",
      "tasks:\n  - {name: a, prompt: p, expect: {files: [x]}}\n  - {name: b, prompt: p, expect: {}}",
      /tasks\[1\]\.expect: expect needs at least one check/,
    ],
    [
      "an unknown field",
      "tasks:\n  - {name: a, prompt: p, expect: {files: [x]}, colour: red}\n  - {name: b, prompt: p, expect: {files: [x]}}",
      /tasks\[0\]: unknown field\(s\) colour/,
    ],
    [
      "a workspace folder",
      "tasks:\n  - {name: a, prompt: p, workspace: fixtures/x, expect: {files: [x]}}\n  - {name: b, prompt: p, expect: {files: [x]}}",
      /tasks\[0\]\.workspace: give the files inline/,
    ],
    [
      "a task folder",
      "tasks:\n  - {source: tasks/a}\n  - {name: b, prompt: p, expect: {files: [x]}}",
      /tasks\[0\]\.source: a generated task is written inline/,
    ],
    [
      "a name used twice",
      "tasks:\n  - {name: a, prompt: p, expect: {files: [x]}}\n  - {name: a, prompt: q, expect: {files: [y]}}",
      /tasks\[1\]\.name: a is used twice/,
    ],
    ["not YAML", "tasks: [a\n  b: }", /the answer is not YAML or JSON/],
  ])("rejects %s", (_label, text, re) => {
    expect(() => parseGeneratedTasks(text)).toThrow(re);
  });
});
