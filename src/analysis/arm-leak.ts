/**
 * A run's arm integrity after the agent ran (issue #34 item 5, docs/statistics.md, "Arm integrity"), from its
 * normalised evidence only, so every agent is judged alike: the tool calls every decoder makes
 * (whatever a tool is called, its input names the paths it touches) and the Skill invocations.
 *
 * - `arm_leak`: a Skill under test (one some treatment of the suite installs) that the run's own
 *   treatment does not install was invoked, or one of its files was named by a tool call that
 *   succeeded (a read, a listing, a shell command): the run saw a Skill its arm must not have.
 * - `skill_drift`: a file of the run's own Skill, read by a successful call, whose content at the
 *   end of the run differs from the frozen copy the treatment installed.
 *
 * Pure: the frozen copies' hashes and the workspace's are handed in.
 */
import type { RunArmProblem } from "../core/arm-integrity.js";
import type { Evidence } from "../core/evidence.js";
import { findSkillPaths, relativize } from "../evidence/paths.js";

/** A Skill the run's treatment installs: its name and the SHA-256 of each file of the frozen copy. */
export interface InstalledSkill {
  name: string;
  /** Skill-relative path (POSIX) → hex SHA-256 of the frozen copy's bytes. */
  files: ReadonlyMap<string, string>;
}

export interface RunArmInput {
  evidence: Pick<Evidence, "tool_calls" | "skills_invoked">;
  /** The run's own treatment's Skills. */
  installed: readonly InstalledSkill[];
  /** Every Skill some compared treatment installs: a leak is of one of these. */
  underTest: ReadonlySet<string>;
  /** Roots the agent's paths are made relative to (workspace, the agent's cwd). */
  roots: readonly string[];
  /**
   * Hex SHA-256 of a workspace-relative file as the run left it (the workspace manifest); null or
   * undefined when it is not known (not hashed, not there): no drift is claimed then.
   */
  workspaceSha: (rel: string) => string | null | undefined;
}

/** Every string of a tool call's input, nested values included (where an agent puts a path varies). */
function stringsOf(v: unknown, out: string[] = []): string[] {
  if (typeof v === "string") out.push(v);
  else if (Array.isArray(v)) for (const x of v) stringsOf(x, out);
  else if (typeof v === "object" && v !== null) for (const x of Object.values(v)) stringsOf(x, out);
  return out;
}

/** `.<folder>/skills/<name>/<rest>` at the end of a workspace-relative path: the Skill-relative rest. */
const SKILL_FILE = /(?:^|\/)\.[^/]+\/skills\/([^/]+)\/(.+)$/;

/** The problems of one run, in the order found (one per kind, Skill and path). */
export function runArmProblems(i: RunArmInput): RunArmProblem[] {
  const own = new Map(i.installed.map((s) => [s.name, s]));
  const out: RunArmProblem[] = [];
  const seen = new Set<string>();
  const add = (p: RunArmProblem): void => {
    const key = `${p.kind}\0${p.skill}\0${p.path ?? ""}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push(p);
  };
  for (const name of i.evidence.skills_invoked)
    if (i.underTest.has(name) && !own.has(name))
      add({
        kind: "arm_leak",
        skill: name,
        path: null,
        cause: `the agent invoked the Skill ${name}, which this arm does not install`,
      });
  for (const call of i.evidence.tool_calls) {
    // A call that failed saw nothing (e.g. `cat` of a Skill that is not there).
    if (call.is_error === true) continue;
    for (const text of stringsOf(call.input))
      for (const m of findSkillPaths(text)) {
        const rel = relativize(m.path, i.roots);
        const skill = own.get(m.skill);
        if (skill === undefined) {
          if (i.underTest.has(m.skill))
            add({
              kind: "arm_leak",
              skill: m.skill,
              path: rel,
              cause: `${call.name} named ${rel}, a file of the Skill ${m.skill}, which this arm does not install`,
            });
          continue;
        }
        const f = SKILL_FILE.exec(rel);
        if (!f || rel.startsWith("/") || f[1] !== m.skill || f[2] === undefined) continue;
        const frozen = skill.files.get(f[2]);
        const now = i.workspaceSha(rel);
        if (frozen === undefined || now === null || now === undefined || now === frozen) continue;
        add({
          kind: "skill_drift",
          skill: m.skill,
          path: rel,
          cause: `${call.name} read ${rel}, whose content differs from the frozen copy of ${m.skill}`,
        });
      }
  }
  return out;
}
