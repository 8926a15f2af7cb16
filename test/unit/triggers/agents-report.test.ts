/** The cross-agent trigger report (src/triggers/agents.ts): verdicts per query, the renderings. Pure. */
import { describe, expect, it } from "vitest";
import {
  buildAgentsReport,
  renderAgentsHtml,
  renderAgentsMarkdown,
} from "../../../src/triggers/agents.js";
import { buildTriggersReport } from "../../../src/triggers/report.js";
import type { ProbeOutcome, ProbeRecord, TriggerQuery } from "../../../src/triggers/types.js";

const QUERIES: TriggerQuery[] = [
  { id: "q1", query: "add a changelog entry", should_trigger: true },
  { id: "q2", query: "fix | the typo", should_trigger: false },
  { id: "q3", query: "bump lodash", should_trigger: false },
];

const TARGET: ProbeOutcome = { kind: "target", via: "skill_tool" };
const NONE: ProbeOutcome = { kind: "none", why: "turn_ended" };
const INVALID: ProbeOutcome = { kind: "invalid", reason: "api_error", detail: "500" };

function rec(query: string, outcome: ProbeOutcome): ProbeRecord {
  const a = {
    attempt: 1,
    outcome,
    agent_outcome: "completed",
    stopped_early: false,
    duration_ms: 1,
    detail: "",
  };
  return {
    schema: "skillbench.trigger-probe.v1",
    probe_id: `current/${query}/r1`,
    variant: "current",
    query_id: query,
    rep: 1,
    attempts: [a],
    outcome,
  };
}

function report(agent: string, outcomes: ProbeOutcome[]) {
  return buildTriggersReport({
    skill: { name: "cw", dir: "/s/cw", hash: "h" },
    agent: { name: agent, version: "1.0", bin: "/bin/x" },
    model: null,
    modelScript: "/s/script.yaml",
    settings: {
      count: 1,
      concurrency: 1,
      max_turns: 2,
      timeout_sec: 60,
      max_attempts: 1,
      sandbox: "auto",
    },
    installed: { neighbours: [], decoys: [], skipped: [] },
    queries: QUERIES,
    queriesSource: "q.yaml",
    variants: [{ name: "current", description: "d", file: null }],
    records: QUERIES.map((q, i) => rec(q.id, outcomes[i] as ProbeOutcome)),
    notRun: [],
    startedAt: "2026-01-01T00:00:00Z",
    finishedAt: "2026-01-01T00:00:01Z",
  });
}

describe("buildAgentsReport", () => {
  const r = buildAgentsReport([
    { agent: "codex", report: report("codex", [TARGET, TARGET, NONE]) },
    { agent: "gemini", report: report("gemini", [TARGET, NONE, INVALID]) },
  ]);

  it("gives each agent's rates and a verdict per query", () => {
    expect(
      r.agents.map((a) => [a.agent, a.variants[0]?.precision.value, a.variants[0]?.recall.value]),
    ).toEqual([
      ["codex", 0.5, 1],
      ["gemini", 1, 1],
    ]);
    expect(r.same_description.map((q) => [q.query, q.verdict])).toEqual([
      ["q1", "triggers on every agent"],
      ["q2", "differs"],
      // gemini's only probe of q3 is invalid: no answer, so no verdict
      ["q3", "unknown"],
    ]);
    expect(r.same_description[1]?.by_agent).toEqual([
      { agent: "codex", triggered: 1, runs: 1, rate: 1 },
      { agent: "gemini", triggered: 0, runs: 1, rate: 0 },
    ]);
  });

  it("renders the tables (cells escaped) and the page with links to each agent's own", () => {
    const md = renderAgentsMarkdown(r);
    expect(md).toContain(
      "| codex | 1.0 | current | 0.50 (1/2) | [0.09, 0.91] | 1.00 (1/1) | [0.21, 1.00] | 0.67 | 0 |",
    );
    expect(md).toContain("| current | q2 | fix \\| the typo | no | 1/1 | 0/1 | differs |");
    const html = renderAgentsHtml(r);
    expect(html).toContain('<a href="codex/triggers.html">codex</a>');
    expect(html).toContain('<td class="bad">differs</td>');
  });
});
