/**
 * Arm integrity before runs (issue #34 item 5, docs/statistics.md, "Arm integrity"), from what the preparation
 * of each arm's workspace and agent config showed (runner/arm-preflight.ts gathers it; no agent
 * is started). Pure.
 *
 * - `arm_mismatch`: a treatment's Skill is not where its agent discovers Skills, or not
 *   hash-equal to the frozen copy; an arm's workspace holds a Skill its treatment does not
 *   install (CONTROL holds none); the agent's settings or the run's settled facts (agent binary
 *   and version, model, sandbox, timeout, interaction, profile) differ across the arms of a task
 *   beyond what a treatment declares; the agent's HOME or config is the host user's.
 * - `host_skill_shadow`: the host user has a Skill of the same name as one under test where the
 *   agent would discover it at user level; reported, though the run's private HOME keeps it out.
 */
import type { ArmProblem } from "../core/arm-integrity.js";

/** One prepared arm: a task's workspace under one treatment and agent. */
export interface ArmObservation {
  task: string;
  treatment: string;
  agent: string;
  /** The agent's install folder (`.claude/skills`) and the dot-folders it discovers Skills in. */
  skillsDir: string;
  skillFolders: readonly string[];
  /** The treatment's Skills: name and frozen hash. */
  declared: ReadonlyArray<{ name: string; hash: string }>;
  /** Skill folders found in the prepared workspace: `.<folder>/skills/<name>`, its tree hash. */
  found: ReadonlyArray<{ folder: string; name: string; hash: string }>;
  /** A hash of the agent's project settings in the workspace (its dot-folders, Skills aside). */
  settings: string;
  /** The treatment declares settings: hooks of its own, or its Skills ask for some. */
  declaresSettings: boolean;
  /** The treatment names a profile of its own. */
  declaresProfile: boolean;
  /** The settled run's facts that must not differ across arms (name → value). */
  facts: Readonly<Record<string, string>>;
}

/** What the host user has and how the agent's environment is built, per agent. */
export interface HostObservation {
  agent: string;
  /** `~/.<folder>/skills/<name>` paths that exist on the host, for Skills under test. */
  hostSkills: ReadonlyArray<{ name: string; path: string }>;
  /** Variables of the agent's built environment that point at the host user's HOME (empty: isolated). */
  leakingEnv: readonly string[];
}

const mismatch = (o: ArmObservation, subject: string, cause: string): ArmProblem => ({
  kind: "arm_mismatch",
  task: o.task,
  treatment: o.treatment,
  agent: o.agent,
  subject,
  runs: [],
  cause,
});

function armProblems(o: ArmObservation): ArmProblem[] {
  const out: ArmProblem[] = [];
  const discovered = o.skillFolders.map((f) => `.${f}/skills`);
  if (o.declared.length > 0 && !discovered.includes(o.skillsDir))
    out.push(
      mismatch(
        o,
        o.skillsDir,
        `${o.agent} installs Skills in ${o.skillsDir} but discovers them in ${discovered.join(", ") || "no folder"}`,
      ),
    );
  for (const s of o.declared) {
    const at = o.found.find((f) => `.${f.folder}/skills` === o.skillsDir && f.name === s.name);
    if (at === undefined)
      out.push(mismatch(o, s.name, `the Skill ${s.name} is not in ${o.skillsDir}/${s.name}`));
    else if (at.hash !== s.hash)
      out.push(
        mismatch(
          o,
          s.name,
          `${o.skillsDir}/${s.name} is not the frozen copy (${at.hash} ≠ ${s.hash}): the task's environment/ put other files there`,
        ),
      );
  }
  const own = new Set(o.declared.map((s) => s.name));
  for (const f of o.found)
    if (!own.has(f.name))
      out.push(
        mismatch(
          o,
          f.name,
          `the workspace holds the Skill ${f.name} at .${f.folder}/skills/${f.name} (the task's environment/ ships it), which ${o.treatment} does not install`,
        ),
      );
  return out;
}

/** Differences of settings and facts between the arms of one task and agent. */
function acrossArms(arms: readonly ArmObservation[]): ArmProblem[] {
  const out: ArmProblem[] = [];
  const first = arms[0];
  if (first === undefined) return out;
  const plain = arms.filter((a) => !a.declaresSettings);
  const ref = plain[0];
  if (ref !== undefined)
    for (const a of plain.slice(1))
      if (a.settings !== ref.settings)
        out.push(
          mismatch(
            a,
            "settings",
            `the agent's project settings differ from ${ref.treatment}'s, and neither declares hooks`,
          ),
        );
  for (const a of arms.slice(1))
    for (const [name, v] of Object.entries(first.facts)) {
      if (name === "profile" && (a.declaresProfile || first.declaresProfile)) continue;
      const w = a.facts[name];
      if (w !== v)
        out.push(
          mismatch(a, name, `${name} is ${w ?? "unset"} here but ${v} under ${first.treatment}`),
        );
    }
  return out;
}

export function classifyArms(
  arms: readonly ArmObservation[],
  hosts: readonly HostObservation[],
): ArmProblem[] {
  const out: ArmProblem[] = [];
  for (const h of hosts) {
    for (const s of h.hostSkills)
      out.push({
        kind: "host_skill_shadow",
        task: null,
        treatment: null,
        agent: h.agent,
        subject: s.name,
        runs: [],
        cause: `the host user has a Skill of this name (${s.path}); the runs' HOME is private, so ${h.agent} never sees it, but a run outside skillbench would`,
      });
    if (h.leakingEnv.length > 0)
      out.push({
        kind: "arm_mismatch",
        task: null,
        treatment: null,
        agent: h.agent,
        subject: "HOME",
        runs: [],
        cause: `the agent's environment points at the host user's HOME (${h.leakingEnv.join(", ")}): the host's Skills, plugins and settings can reach the runs`,
      });
  }
  const groups = new Map<string, ArmObservation[]>();
  for (const a of arms) {
    out.push(...armProblems(a));
    const key = `${a.task}\0${a.agent}`;
    groups.set(key, [...(groups.get(key) ?? []), a]);
  }
  for (const g of groups.values()) out.push(...acrossArms(g));
  return out;
}
