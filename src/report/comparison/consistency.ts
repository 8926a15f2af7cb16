import type { RunDigest } from "../../core/digest.js";
import type { ConsistencyWarning, Roles } from "./types.js";

type Value = string | null;

/** The distinct values of runs, with how many runs and which treatments (first seen) have each, in first-seen order. */
class Distinct {
  readonly values: ConsistencyWarning["values"] = [];
  private readonly rows = new Map<
    Value,
    { row: ConsistencyWarning["values"][number]; seen: Set<string> }
  >();

  add(value: Value, treatment: string): void {
    let at = this.rows.get(value);
    if (!at) {
      at = { row: { value, runs: 0, treatments: [] }, seen: new Set<string>() };
      this.rows.set(value, at);
      this.values.push(at.row);
    }
    at.row.runs++;
    if (!at.seen.has(treatment)) {
      at.seen.add(treatment);
      at.row.treatments.push(treatment);
    }
  }
}

function distinct(runs: RunDigest[], get: (r: RunDigest) => Value): ConsistencyWarning["values"] {
  const d = new Distinct();
  for (const r of runs) d.add(get(r), r.treatment);
  return d.values;
}

function describe(
  values: ConsistencyWarning["values"],
  unset: string,
  short = (v: string): string => v,
): string {
  return values
    .map(
      (v) =>
        `${v.value === null ? unset : short(v.value)} (${v.runs} run(s): ${v.treatments.join(", ")})`,
    )
    .join("; ");
}

/** The sandbox kind with its limits, e.g. `docker cpus=2 memory=512m pids=-`; null when not recorded. */
function sandboxKey(r: RunDigest): Value {
  const s = r.sandbox;
  if (!s) return null;
  const l = s.limits;
  return l
    ? `${s.kind} cpus=${l.cpus ?? "-"} memory=${l.memory ?? "-"} pids=${l.pids ?? "-"}`
    : s.kind;
}

const hashPrefix = (h: string): string => `${h.replace(/^sha256:/, "").slice(0, 12)}…`;

/**
 * Runs that should be comparable but are not: different agent versions, model ids or
 * task contents (per task). One warning per kind (and per task). Pure.
 */
export function consistencyWarnings(
  reports: RunDigest[],
  tasks: string[],
  roles?: Roles,
): ConsistencyWarning[] {
  const out: ConsistencyWarning[] = [];
  // One pass over the runs for every kind: versions per agent, models, sandboxes, task
  // contents per task, and the agents of the candidate's and the baseline's runs.
  const versionsOf = new Map<string, Distinct>();
  const modelValues = new Distinct();
  const sandboxValues = new Distinct();
  const hashesOf = new Map<string, Distinct>();
  const armAgents = new Map<string, Set<string>>();
  for (const r of reports) {
    let v = versionsOf.get(r.agent.name);
    if (!v) versionsOf.set(r.agent.name, (v = new Distinct()));
    v.add(r.agent.version, r.treatment);
    modelValues.add(r.model, r.treatment);
    sandboxValues.add(sandboxKey(r), r.treatment);
    let h = hashesOf.get(r.task);
    if (!h) hashesOf.set(r.task, (h = new Distinct()));
    h.add(r.hashes.task, r.treatment);
    let agents = armAgents.get(r.treatment);
    if (!agents) armAgents.set(r.treatment, (agents = new Set<string>()));
    agents.add(r.agent.name);
  }
  // Versions are compared within each agent: two agents differ in version by nature.
  for (const [agent, d] of versionsOf) {
    const versions = d.values;
    if (versions.length > 1)
      out.push({
        kind: "agent_version",
        task: null,
        values: versions,
        message: `different ${agent} versions: ${describe(versions, "(unknown)")}`,
      });
  }
  // Each arm on one agent, but not the same one: the difference is the agents' as much as the treatments'.
  if (roles) {
    const agentsOf = (t: string): string[] => [...(armAgents.get(t) ?? [])];
    const [c, b] = [agentsOf(roles.candidate), agentsOf(roles.baseline)];
    if (c.length === 1 && b.length === 1 && c[0] !== b[0]) {
      const agents = distinct(
        reports.filter((r) => r.treatment === roles.candidate || r.treatment === roles.baseline),
        (r) => r.agent.name,
      );
      out.push({
        kind: "agent",
        task: null,
        values: agents,
        message: `the candidate ran on ${c.join("")} and the baseline on ${b.join("")}: the difference is the agents' as much as the treatments'`,
      });
    }
  }
  const models = modelValues.values;
  if (models.length > 1)
    out.push({
      kind: "model",
      task: null,
      values: models,
      message: `different model ids: ${describe(models, "(CLI default)")}`,
    });
  // Isolation and resources change scores (container resources alone moved Terminal-Bench by 6 points).
  const sandboxes = sandboxValues.values;
  if (sandboxes.length > 1)
    out.push({
      kind: "sandbox",
      task: null,
      values: sandboxes,
      message: `different sandboxes or resource limits: ${describe(sandboxes, "(not recorded)")}`,
    });
  for (const task of tasks) {
    const hashes = hashesOf.get(task)?.values ?? [];
    if (hashes.length > 1)
      out.push({
        kind: "task_content",
        task,
        values: hashes,
        message: `task ${task} changed between runs: ${describe(hashes, "(unknown)", hashPrefix)}`,
      });
  }
  return out;
}
