import { describe, expect, it } from "vitest";
import { LineSplitter } from "../../../src/evidence/lines.js";
// The registry hands evidence the registered agents' Skill folders when it loads.
import "../../../src/agents/registry.js";
import { findSkillPaths, relativize } from "../../../src/evidence/paths.js";
import { capText, toolResultText } from "../../../src/evidence/text.js";

describe("relativize", () => {
  it.each([
    ["/ws/a/b.ts", ["/ws"], "a/b.ts"],
    ["/ws", ["/ws"], "."],
    ["/ws/", ["/ws"], "."],
    ["/ws/../etc/x", ["/ws"], "/etc/x"],
    ["/wsx/a", ["/ws"], "/wsx/a"],
    ["/b/a", ["/a", "/b"], "a"],
    ["a//b/./c", ["/ws"], "a/b/c"],
    ["../up", ["/ws"], "../up"],
    ["/abs/dir/", [], "/abs/dir"],
    ["/ws/a", ["relative-root"], "/ws/a"],
  ])("%s in %j -> %s", (p, roots, want) => {
    expect(relativize(p, roots)).toBe(want);
  });
});

describe("findSkillPaths", () => {
  it.each([
    ["/ws/.claude/skills/hello/SKILL.md", [["hello", "/ws/.claude/skills/hello/SKILL.md"]]],
    [".agents/skills/a", [["a", ".agents/skills/a"]]],
    [
      'cat ".qoder/skills/q/x y" && ls .codebuddy/skills/c/',
      [
        ["q", ".qoder/skills/q/x"],
        ["c", ".codebuddy/skills/c/"],
      ],
    ],
    ["ls .claude/skills/", []],
    ["cat .claude/skills/*/SKILL.md", []],
    ["cat .claude/skills/$NAME/SKILL.md", []],
    ["echo skills/hello/SKILL.md", []],
    ["cat x.claude/skills/my.skill/a;echo", [["my.skill", "x.claude/skills/my.skill/a"]]],
  ])("%s", (text, want) => {
    expect(findSkillPaths(text).map((m) => [m.skill, m.path])).toEqual(want);
  });
});

describe("text helpers", () => {
  it.each([
    ["short", 10, "short"],
    ["abcdefghij", 10, "abcdefghij"],
    ["abcdefghijk", 10, "abcdefghij\n[skillbench: truncated 1 characters]"],
    ["abcdefghi😀z", 10, "abcdefghi\n[skillbench: truncated 3 characters]"],
  ])("capText(%j, %i)", (s, max, want) => {
    expect(capText(s, max)).toBe(want);
  });

  it.each([
    ["s", "s"],
    [[{ type: "text", text: "a" }, "b", { type: "image" }, 7, { foo: 1 }], "a\nb\n[image]"],
    [42, null],
    [null, null],
  ])("toolResultText(%j)", (content, want) => {
    expect(toolResultText(content)).toBe(want);
  });
});

describe("LineSplitter", () => {
  it.each([
    [["a\nb\n"], ["a", "b"], false],
    [["a\nb"], ["a", "b"], true],
    [["a", "b", "\n", "c"], ["ab", "c"], true],
    [["", "\n\n"], ["", ""], false],
    [[], [], false],
  ])("%j", (chunks, want, unterminated) => {
    const got: string[] = [];
    const s = new LineSplitter((l) => got.push(l));
    for (const c of chunks) s.push(c);
    expect(s.end()).toBe(unterminated);
    expect(got).toEqual(want);
  });
});
