import path from "node:path";
import type { SkillHooks } from "../../types.js";

/**
 * The Comet guard that the original harness adds whenever the treatment installs a `comet`
 * Skill with `scripts/comet-hook-guard.mjs` (or `.sh`): a PreToolUse hook on
 * Write|Edit|MultiEdit, whatever the run's profile. See docs/manifest.md, "Treatments". Pure:
 * `installed` tells what the workspace holds.
 */
export function cometGuardHook(
  installed: (rel: string) => boolean,
  skillsDir: string,
): SkillHooks | null {
  const scripts = path.join(skillsDir, "comet", "scripts");
  for (const [file, runner] of [
    ["comet-hook-guard.mjs", "node"],
    ["comet-hook-guard.sh", "bash"],
  ] as const) {
    const rel = path.posix.join(scripts.split(path.sep).join("/"), file);
    if (installed(rel))
      return {
        PreToolUse: [
          {
            matcher: "Write|Edit|MultiEdit",
            hooks: [{ type: "command", command: `${runner} "$CLAUDE_PROJECT_DIR/${rel}"` }],
          },
        ],
      };
  }
  return null;
}
