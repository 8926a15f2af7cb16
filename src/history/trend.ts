/**
 * What `skillbench history` shows (docs/history.md), from stored records. Pure.
 *
 * - The trend: one row per version of a Skill (its content hash, in the order the versions were
 *   first recorded), with the candidate arm's pass rate pooled over that version's experiments and
 *   its Wilson interval, the change against the previous version with Newcombe's interval, and the
 *   cost per verdict (the mean cost of an experiment of that version).
 * - The flaky-case ledger: a task whose outcome flips between experiments in which nothing it
 *   depends on changed (the task's content, the Skill's, the agent and its version, the model).
 * - Triggers: precision and recall per description, in the order recorded.
 */
import { mean, newcombeInterval, wilsonInterval, type Interval } from "../stats/index.js";
import type { HistoryRecord } from "./record.js";

export interface VersionRow {
  /** The Skill's content hash (null: the candidate had no Skill). */
  skill_hash: string | null;
  /** A short label: the hash's first 12 hex digits, with the git ref when one was recorded. */
  label: string;
  git_ref: string | null;
  first_recorded: string;
  experiments: number;
  /** Candidate runs and passes, pooled over this version's experiments. */
  runs: number;
  passed: number;
  pass_rate: number | null;
  interval: Interval | null;
  /** The band of this version's latest experiment (candidate against its own baseline). */
  band: string | null;
  /** Pass rate minus the previous version's, with Newcombe's interval; null for the first. */
  change: {
    delta: number;
    interval: Interval;
    reading: "better" | "worse" | "no clear change";
  } | null;
  cost_per_verdict_usd: number | null;
  /** Any experiment of this version ran against the scripted model (its figures are not real). */
  scripted: boolean;
}

export interface FlakyCase {
  task: string;
  treatment: string;
  agent: string | null;
  model: string | null;
  /** Per experiment, in order: passed runs of runs. */
  outcomes: { experiment_id: string; c: number; n: number }[];
}

export interface SkillHistory {
  skill: string;
  versions: VersionRow[];
  flaky: FlakyCase[];
  triggers: {
    experiment_id: string;
    description: string;
    precision: number | null;
    recall: number | null;
  }[];
}

function shortHash(h: string | null): string {
  if (h === null) return "(no Skill)";
  return h.replace(/^sha256:/, "").slice(0, 12);
}

/** The candidate arm of a record (its runs and passes), if it has one. */
function candidateArm(r: HistoryRecord): { c: number; n: number } | null {
  const arm = r.arms.find((a) => a.role === "candidate") ?? null;
  return arm ? { c: arm.passed, n: arm.runs } : null;
}

/** One Skill's trend across versions. `records` are that Skill's, oldest first. */
export function versionRows(records: readonly HistoryRecord[]): VersionRow[] {
  const order: (string | null)[] = [];
  const byVersion = new Map<string | null, HistoryRecord[]>();
  for (const r of records) {
    if (r.kind === "triggers") continue;
    const list = byVersion.get(r.skill_hash);
    if (list) list.push(r);
    else {
      byVersion.set(r.skill_hash, [r]);
      order.push(r.skill_hash);
    }
  }
  const rows: VersionRow[] = [];
  for (const hash of order) {
    const rs = byVersion.get(hash) ?? [];
    let runs = 0;
    let passed = 0;
    for (const r of rs) {
      const arm = candidateArm(r);
      if (arm) {
        runs += arm.n;
        passed += arm.c;
      }
    }
    const costs = rs.map((r) => r.cost_usd).filter((x): x is number => x !== null);
    const last = rs[rs.length - 1];
    const prev = rows[rows.length - 1];
    let change: VersionRow["change"] = null;
    if (prev && prev.runs > 0 && runs > 0) {
      const interval = newcombeInterval(passed, runs, prev.passed, prev.runs);
      if (interval) {
        const delta = passed / runs - prev.passed / prev.runs;
        change = {
          delta,
          interval,
          reading: interval.low > 0 ? "better" : interval.high < 0 ? "worse" : "no clear change",
        };
      }
    }
    const ref = rs.find((r) => r.git)?.git?.ref ?? null;
    rows.push({
      skill_hash: hash,
      label: ref ? `${shortHash(hash)} (${ref.slice(0, 12)})` : shortHash(hash),
      git_ref: ref,
      first_recorded: rs[0]?.recorded_at ?? "",
      experiments: rs.length,
      runs,
      passed,
      pass_rate: runs > 0 ? passed / runs : null,
      interval: wilsonInterval(passed, runs),
      band: last?.band ?? null,
      change,
      cost_per_verdict_usd: mean(costs),
      scripted: rs.some((r) => r.endpoint === "scripted"),
    });
  }
  return rows;
}

/**
 * Tasks whose outcome flips between experiments with the same task content, Skill content, agent
 * (and version) and model. An experiment's outcome for a task is the majority of its runs (pass,
 * fail, or split at exactly half); a task whose outcomes differ between such experiments measures
 * noise, not the Skill.
 */
export function flakyCases(records: readonly HistoryRecord[]): FlakyCase[] {
  const groups = new Map<string, FlakyCase>();
  for (const r of records) {
    for (const t of r.tasks) {
      for (const [treatment, cell] of Object.entries(t.cells)) {
        if (cell.n === 0) continue;
        const arm = r.arms.find((a) => a.treatment === treatment);
        const key = JSON.stringify([
          t.task,
          t.task_hash,
          treatment,
          arm?.skill_hash ?? null,
          r.agent,
          r.agent_version,
          r.model,
        ]);
        const g = groups.get(key) ?? {
          task: t.task,
          treatment,
          agent: r.agent,
          model: r.model,
          outcomes: [],
        };
        g.outcomes.push({ experiment_id: r.experiment_id, c: cell.c, n: cell.n });
        groups.set(key, g);
      }
    }
  }
  const outcome = (o: { c: number; n: number }): number => Math.sign(2 * o.c - o.n);
  const out: FlakyCase[] = [];
  for (const g of groups.values()) if (new Set(g.outcomes.map(outcome)).size > 1) out.push(g);
  return out.sort((a, b) => a.task.localeCompare(b.task) || a.treatment.localeCompare(b.treatment));
}

/** A Skill's history: the trend, the ledger, the trigger figures. `records` oldest first. */
export function skillHistory(skill: string, records: readonly HistoryRecord[]): SkillHistory {
  const mine = records.filter((r) => r.skill === skill);
  return {
    skill,
    versions: versionRows(mine),
    flaky: flakyCases(mine),
    triggers: mine.flatMap((r) =>
      r.triggers.map((t) => ({ experiment_id: r.experiment_id, ...t })),
    ),
  };
}
