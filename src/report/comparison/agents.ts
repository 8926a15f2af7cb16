import type { RunDigest } from "../../core/digest.js";
import { bandHeadline, MIXED_AGENTS_NOISE } from "./band.js";
import { signed } from "./fmt.js";
import { mixedRunsOf } from "./split.js";
import type { AgentComparison, AgentRow, Comparison, MixedArm, Roles } from "./types.js";

/**
 * Comparisons by agent (docs/agents.md, "Reports by agent"; docs/statistics.md §9). A treatment
 * may run on several agents (a pinned list, or `--agent claude,codex`), and treatments may pin
 * different agents. An arm is the runs of one treatment; when the candidate's or the baseline's
 * arm holds runs of more than one agent, pooling them would mix each agent's own pass rate into
 * the treatment's effect, so the pooled verdict is inconclusive with that reason and the
 * comparison is split: the same candidate and baseline, compared on each agent alone. Pure.
 */

export function agentRows(reports: readonly RunDigest[]): AgentRow[] {
  // One pass; Maps and Sets keep first-seen order, as the lists they fill.
  const rows = new Map<
    string,
    { row: AgentRow; versions: Set<string | null>; treatments: Set<string> }
  >();
  for (const r of reports) {
    let at = rows.get(r.agent.name);
    if (!at) {
      at = {
        row: { agent: r.agent.name, versions: [], runs: 0, treatments: [] },
        versions: new Set<string | null>(),
        treatments: new Set<string>(),
      };
      rows.set(r.agent.name, at);
    }
    at.row.runs++;
    if (!at.versions.has(r.agent.version)) {
      at.versions.add(r.agent.version);
      at.row.versions.push(r.agent.version);
    }
    if (!at.treatments.has(r.treatment)) {
      at.treatments.add(r.treatment);
      at.row.treatments.push(r.treatment);
    }
  }
  return [...rows.values()].map((a) => a.row);
}

/** Treatments (of those given) whose runs used more than one agent. */
export function mixedArms(reports: readonly RunDigest[], treatments: string[]): MixedArm[] {
  return mixedRunsOf(reports, treatments, (r) => r.agent.name).map(({ treatment, runs }) => ({
    treatment,
    agents: runs.map(([agent, n]) => ({ agent, runs: n })),
  }));
}

/**
 * The comparison on each agent alone, built by `build` (the experiment's own builder) with the
 * experiment's roles; empty when every run used one agent.
 */
export function byAgent(
  reports: readonly RunDigest[],
  roles: Roles,
  build: (reports: RunDigest[], roles: Roles) => Comparison,
): AgentComparison[] {
  const rows = agentRows(reports);
  if (rows.length < 2) return [];
  return rows.map((a) => {
    const rs = reports.filter((r) => r.agent.name === a.agent);
    const missing = [roles.candidate, roles.baseline].filter(
      (t) => !rs.some((r) => r.treatment === t),
    );
    const head = { agent: a.agent, versions: a.versions, runs: a.runs, treatments: a.treatments };
    if (missing.length > 0)
      return {
        ...head,
        comparison: null,
        reason: `no run of ${missing.map((t) => `\`${t}\``).join(" or ")} on ${a.agent}`,
      };
    const control = roles.control !== null && a.treatments.includes(roles.control);
    const full = build(rs, { ...roles, control: control ? roles.control : null });
    const { agents: _a, mixed_arms: _m, by_agent: _b, source_evidence: _s, ...sub } = full;
    return { ...head, comparison: sub, reason: null };
  });
}

/** The pooled verdict when an arm mixes agents: inconclusive, saying why and where to look. */
export function mixedVerdict(
  v: Comparison["verdict"],
  mixed: MixedArm[],
  split: AgentComparison[],
): Comparison["verdict"] {
  const arms = mixed
    .map((m) => `\`${m.treatment}\` (${m.agents.map((a) => `${a.agent} ${a.runs}`).join(", ")})`)
    .join(" and ");
  const reason = `${arms} ran on more than one agent, so a pooled Δ would mix each agent's own pass rate into the treatments' effect; the comparison is split by agent: ${agentSentence(split)}.`;
  // Every line derived from the band says the same: nothing is decided on the pooled runs.
  return {
    ...v,
    kind: "mixed_agents",
    band: "inconclusive",
    rule: "mixed_agents",
    reason,
    noise: MIXED_AGENTS_NOISE,
    runs_needed: {
      status: "nothing",
      goal: null,
      per_treatment_total: null,
      more_per_treatment: null,
      more_per_task: null,
      text: "Per agent: see each agent's comparison (by_agent).",
    },
    headline: bandHeadline({ band: "inconclusive", reason }),
  };
}

/** "claude-code Δ +0.40 [+0.10, +0.70] improved; codex no run of `WITH_SKILL` on codex". */
function agentSentence(split: AgentComparison[]): string {
  return split
    .map((a) => {
      const c = a.comparison;
      if (c === null) return `${a.agent}: ${a.reason ?? "not compared"}`;
      const v = c.verdict;
      const ci = v.ci ? ` [${signed(v.ci.low)}, ${signed(v.ci.high)}]` : "";
      return `${a.agent} Δ ${signed(v.delta)}${ci}, ${v.band.replace("_", "-")}`;
    })
    .join("; ");
}
