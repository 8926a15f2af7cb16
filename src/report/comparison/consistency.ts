import type { RunDigest } from "../../core/digest.js";
import { groupBy } from "../group.js";
import type { ConsistencyWarning, Roles } from "./types.js";

type Value = string | null;

function distinct(runs: RunDigest[], get: (r: RunDigest) => Value): ConsistencyWarning["values"] {
  const out: ConsistencyWarning["values"] = [];
  const rows = new Map<Value, { row: ConsistencyWarning["values"][number]; seen: Set<string> }>();
  for (const r of runs) {
    const value = get(r);
    let at = rows.get(value);
    if (!at) {
      at = { row: { value, runs: 0, treatments: [] }, seen: new Set<string>() };
      rows.set(value, at);
      out.push(at.row);
    }
    at.row.runs++;
    if (!at.seen.has(r.treatment)) {
      at.seen.add(r.treatment);
      at.row.treatments.push(r.treatment);
    }
  }
  return out;
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
  // Versions are compared within each agent: two agents differ in version by nature.
  for (const agent of [...new Set(reports.map((r) => r.agent.name))]) {
    const versions = distinct(
      reports.filter((r) => r.agent.name === agent),
      (r) => r.agent.version,
    );
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
    const agentsOf = (t: string): string[] => [
      ...new Set(reports.filter((r) => r.treatment === t).map((r) => r.agent.name)),
    ];
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
  const models = distinct(reports, (r) => r.model);
  if (models.length > 1)
    out.push({
      kind: "model",
      task: null,
      values: models,
      message: `different model ids: ${describe(models, "(CLI default)")}`,
    });
  // Isolation and resources change scores (container resources alone moved Terminal-Bench by 6 points).
  const sandboxes = distinct(reports, (r) => sandboxKey(r));
  if (sandboxes.length > 1)
    out.push({
      kind: "sandbox",
      task: null,
      values: sandboxes,
      message: `different sandboxes or resource limits: ${describe(sandboxes, "(not recorded)")}`,
    });
  const byTask = groupBy(reports, (r) => r.task);
  for (const task of tasks) {
    const hashes = distinct(byTask.get(task) ?? [], (r) => r.hashes.task);
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
