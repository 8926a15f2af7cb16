import { mkdtemp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { claudeDriver } from "../../../src/agents/claude/driver.js";
import { mergeHooks } from "../../../src/agents/claude/hooks.js";
import { skillHooks } from "../../../src/scoring/index.js";
import { prepareWorkspace } from "../../../src/workspace/prepare.js";

let dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  dirs = [];
});
async function tmp(): Promise<string> {
  const d = await mkdtemp(path.join(os.tmpdir(), "skillbench-hooks-"));
  dirs.push(d);
  return d;
}

const GUARD = {
  matcher: "Write|Edit|MultiEdit",
  hooks: [
    {
      type: "command",
      command: 'node "$CLAUDE_PROJECT_DIR/.claude/skills/comet/scripts/comet-hook-guard.mjs"',
    },
  ],
};

describe("mergeHooks", () => {
  it("appends groups per event, once", () => {
    const a = { matcher: "Write", hooks: [{ type: "command" as const, command: "a" }] };
    const b = { hooks: [{ type: "command" as const, command: "b" }] };
    expect(
      mergeHooks({ PreToolUse: [a], Stop: "junk" }, { PreToolUse: [a, b], Stop: [b] }),
    ).toEqual({
      PreToolUse: [a, b],
      Stop: [b],
    });
  });
});

describe("prepareWorkspace: hooks", () => {
  it("installs the treatment's hooks and the Comet guard into .claude/settings.json, keeping the environment's settings", async () => {
    const env = await tmp();
    await mkdir(path.join(env, ".claude"), { recursive: true });
    await writeFile(
      path.join(env, ".claude", "settings.json"),
      '{"model": "x", "hooks": {"Stop": []}}',
    );
    const skill = await tmp();
    await mkdir(path.join(skill, "scripts"), { recursive: true });
    await writeFile(path.join(skill, "SKILL.md"), "---\nname: comet\n---\n");
    await writeFile(path.join(skill, "scripts", "comet-hook-guard.mjs"), "");
    const ws = path.join(await tmp(), "ws");
    await mkdir(ws);
    const own = { matcher: "Bash", hooks: [{ type: "command" as const, command: "echo hi" }] };
    await prepareWorkspace({
      workspace: ws,
      environmentDir: env,
      skills: [{ name: "comet", path: skill, content: null }],
      claudeMd: "Be careful.",
      installHooks: claudeDriver.installHooks,
      hooks: { PreToolUse: [own] },
      skillHooks,
    });
    const settings = JSON.parse(await readFile(path.join(ws, ".claude", "settings.json"), "utf8"));
    expect(settings).toEqual({ model: "x", hooks: { Stop: [], PreToolUse: [own, GUARD] } });
    expect(await readFile(path.join(ws, "CLAUDE.md"), "utf8")).toBe("Be careful.");
  });

  it("writes no settings for an agent without hooks (no installHooks) or when there are none", async () => {
    for (const installHooks of [undefined, claudeDriver.installHooks]) {
      const ws = await tmp();
      await prepareWorkspace({
        workspace: ws,
        environmentDir: null,
        skills: [],
        claudeMd: null,
        installHooks,
        hooks:
          installHooks === undefined
            ? { Stop: [{ hooks: [{ type: "command", command: "x" }] }] }
            : undefined,
      });
      await expect(readFile(path.join(ws, ".claude", "settings.json"))).rejects.toThrow();
    }
  });
});
