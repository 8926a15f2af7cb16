/**
 * Depth of use (analysis/skill-usage.ts) on each agent's normalised evidence: the golden
 * recordings of every real CLI, and hand-built evidence as each decoder derives it (its read
 * tool's paths, its shell commands, its Skill invocations).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AGENT_NAMES, agentDriver } from "../../../src/agents/index.js";
import {
  simpleCommands,
  skillUsageOf,
  type InstalledSkillFiles,
} from "../../../src/analysis/skill-usage.js";
import type { Evidence } from "../../../src/core/evidence.js";
import { parseEvidenceChunks } from "../../../src/evidence/index.js";
import { REPO_ROOT } from "../../helpers/cli.js";

const DIR = path.join(REPO_ROOT, "test/fixtures/agents/transcripts");

function golden(name: string): Evidence {
  const text = readFileSync(path.join(DIR, `${name}.jsonl`), "utf8");
  const opts = JSON.parse(readFileSync(path.join(DIR, `${name}.options.json`), "utf8")) as {
    workspace: string;
  };
  const driver = agentDriver(name);
  if (driver === null) throw new Error(`no driver ${name}`);
  return parseEvidenceChunks([text], driver.decoder(opts));
}

describe.each(AGENT_NAMES)("the %s recording (the hello Skill invoked)", (name) => {
  const e = golden(name);
  it("is invoked, SKILL.md read, all of a one-file Skill used", () => {
    expect(skillUsageOf(e, { name: "hello", files: ["SKILL.md"] })).toEqual({
      skill: "hello",
      invoked: true,
      files_read: ["SKILL.md"],
      scripts_run: [],
      coverage: 1,
      files: ["SKILL.md"],
    });
  });
  it("uses half of a Skill with a reference it never opened", () => {
    const u = skillUsageOf(e, { name: "hello", files: ["references/a.md", "SKILL.md"] });
    expect([u.files_read, u.coverage, u.files]).toEqual([
      ["SKILL.md"],
      0.5,
      ["SKILL.md", "references/a.md"],
    ]);
  });
  it("leaves another Skill unused", () => {
    const u = skillUsageOf(e, { name: "other", files: ["SKILL.md"] });
    expect([u.invoked, u.files_read, u.coverage]).toEqual([false, [], 0]);
  });
});

/** The lists every decoder derives (evidence/derive.ts), as a hand-built evidence. */
const ev = (
  over: Partial<Pick<Evidence, "files_read" | "commands_run" | "skills_invoked">>,
): Pick<Evidence, "files_read" | "commands_run" | "skills_invoked"> => ({
  files_read: [],
  commands_run: [],
  skills_invoked: [],
  ...over,
});

const FMT: InstalledSkillFiles = {
  name: "fmt",
  files: [
    "SKILL.md",
    "assets/template.txt",
    "references/format.md",
    "references/style.md",
    "scripts/check.py",
    "scripts/fix.sh",
  ],
};

const WS = "/tmp/ws";
const table: Array<{
  what: string;
  e: ReturnType<typeof ev>;
  invoked: boolean;
  read: string[];
  run: string[];
}> = [
  {
    what: "Claude Code: the Skill tool, a Read of a reference, a script run by python",
    e: ev({
      skills_invoked: ["fmt"],
      files_read: [".claude/skills/fmt/references/format.md"],
      commands_run: ["python3 .claude/skills/fmt/scripts/check.py out.txt"],
    }),
    invoked: true,
    read: ["SKILL.md", "references/format.md"],
    run: ["scripts/check.py"],
  },
  {
    what: "Codex: SKILL.md and a reference opened with cat (absolute), a script by bash",
    e: ev({
      skills_invoked: ["fmt"],
      commands_run: [
        `cat '${WS}/.agents/skills/fmt/SKILL.md'`,
        `sed -n '1,80p' ${WS}/.agents/skills/fmt/references/style.md`,
        `bash ${WS}/.agents/skills/fmt/scripts/fix.sh --in out.txt`,
      ],
    }),
    invoked: true,
    read: ["SKILL.md", "references/style.md"],
    run: ["scripts/fix.sh"],
  },
  {
    what: "Gemini CLI: activate_skill, read_file of an asset, cd into the Skill then ./script",
    e: ev({
      skills_invoked: ["fmt"],
      files_read: [".agents/skills/fmt/assets/template.txt"],
      commands_run: ["cd .agents/skills/fmt && ./scripts/fix.sh && python scripts/check.py"],
    }),
    invoked: true,
    read: ["SKILL.md", "assets/template.txt"],
    run: ["scripts/check.py", "scripts/fix.sh"],
  },
  {
    what: "opencode: the skill tool, a read of both references",
    e: ev({
      skills_invoked: ["fmt"],
      files_read: [
        ".claude/skills/fmt/references/format.md",
        ".claude/skills/fmt/references/style.md",
      ],
    }),
    invoked: true,
    read: ["SKILL.md", "references/format.md", "references/style.md"],
    run: [],
  },
  {
    what: "a script read, not run (cat), and a folder listed (no file)",
    e: ev({
      commands_run: ["cat .claude/skills/fmt/scripts/check.py", "ls .claude/skills/fmt/references"],
    }),
    invoked: false,
    read: ["scripts/check.py"],
    run: [],
  },
  {
    what: "wrappers and launchers: env, uv run, bash -lc, a subshell",
    e: ev({
      commands_run: [
        "FOO=1 env BAR=2 uv run .claude/skills/fmt/scripts/check.py",
        "bash -lc 'sh .claude/skills/fmt/scripts/fix.sh'",
        "(cd .claude/skills/fmt; head -5 references/format.md)",
      ],
    }),
    invoked: false,
    read: ["references/format.md"],
    run: ["scripts/check.py", "scripts/fix.sh"],
  },
  {
    what: "outside the Skill: the workspace's own scripts/ and another Skill's files",
    e: ev({
      files_read: [".claude/skills/other/references/format.md"],
      commands_run: ["python scripts/check.py", "cd .claude/skills/fmt && cd /tmp && cat SKILL.md"],
    }),
    invoked: false,
    read: [],
    run: [],
  },
  {
    what: "a path that is not one of the Skill's files",
    e: ev({ commands_run: ["cat .claude/skills/fmt/references/missing.md"] }),
    invoked: false,
    read: [],
    run: [],
  },
];

describe("depth of use on hand-built evidence", () => {
  it.each(table)("$what", ({ e, invoked, read, run }) => {
    const u = skillUsageOf(e, FMT);
    expect(u.invoked).toBe(invoked);
    expect(u.files_read).toEqual(read);
    expect(u.scripts_run).toEqual(run);
    expect(u.coverage).toBe(new Set([...read, ...run]).size / FMT.files.length);
    expect(u.files).toEqual([...FMT.files].sort());
    expect(u).not.toHaveProperty("key_files");
  });

  it("carries the declared key files", () => {
    const u = skillUsageOf(ev({}), { ...FMT, keyFiles: ["references/format.md"] });
    expect(u.key_files).toEqual(["references/format.md"]);
  });

  it("an empty file list is coverage 0, never NaN", () => {
    expect(skillUsageOf(ev({ skills_invoked: ["fmt"] }), { name: "fmt", files: [] }).coverage).toBe(
      0,
    );
  });
});

describe("simple commands of a shell line", () => {
  it.each([
    ["a && b || c; d | e & f", [["a"], ["b"], ["c"], ["d"], ["e"], ["f"]]],
    [`cat 'a b' "c \\"d\\"" e\\ f`, [["cat", "a b", 'c "d"', "e f"]]],
    ["(cd x; ls)\nrm y", [["cd", "x"], ["ls"], ["rm", "y"]]],
  ])("%s", (line, want) => {
    expect(simpleCommands(line)).toEqual(want);
  });
});
