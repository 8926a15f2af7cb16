/**
 * `triggers --dry-run`'s estimate (cli/estimate.ts `probeEstimateText`, docs/cost.md): every
 * agent's probes are counted, each from its own agent's figure scaled to a probe (at --max-turns
 * 4: 0.4 of its ten-turn default) and priced under its own model; the agents run one after the
 * other, so the wall time is the sum of theirs. Claude's probe: 2,000 + 1,200 + 80,000 + 10,000 =
 * 93,200 tokens, 36 s; Codex's: 24,000 + 1,600 + 60,000 = 85,600 tokens, 48 s.
 */
import { describe, expect, it } from "vitest";
import { probeEstimateText } from "../../../src/cli/estimate.js";

const probes = (n: number): { variant: string; query_id: string }[] =>
  Array.from({ length: n }, (_, i) => ({ variant: "v", query_id: `q${i + 1}` }));

function estimate(
  agents: { agent: string; model: string | null }[],
  n: number,
  concurrency = 1,
): Promise<string> {
  return probeEstimateText(
    { probes: probes(n), agents, concurrency, maxTurns: 4, timeoutSec: 90, scripted: false },
    {},
  );
}

const claude = { agent: "claude", model: "claude-sonnet-4-5" };
const codex = { agent: "codex", model: "gpt-5" };

/** The cost line's mean dollars. */
function usdOf(text: string): number {
  const m = /^ {2}cost {4}\$([\d.,]+)/m.exec(text)?.[1];
  if (m === undefined) throw new Error(`no cost in:\n${text}`);
  return Number(m.replace(/,/g, ""));
}

describe("probeEstimateText", () => {
  it.each([
    [
      "one agent",
      [claude],
      2,
      1,
      "Estimate (2 probes, -j 1):",
      "total 186,400 (",
      "wall    1m12s (",
    ],
    // The agent's own figure, not the default agent's (Claude's 186,400).
    [
      "another agent alone",
      [codex],
      2,
      1,
      "Estimate (2 probes, -j 1):",
      "total 171,200 (",
      "wall    1m36s (",
    ],
    [
      "two agents",
      [claude, codex],
      2,
      1,
      "Estimate (4 probes, -j 1):",
      "total 357,600 (",
      "wall    2m48s (",
    ],
    // One after the other: 2 slots over Claude's 3 probes (72 s), then Codex's 3 (96 s); laid out
    // as one list over 2 slots the six would take 132 s.
    [
      "two agents at -j 2",
      [claude, codex],
      3,
      2,
      "Estimate (6 probes, -j 2):",
      "total 536,400 (",
      "wall    2m48s (",
    ],
  ])("%s", async (_, agents, n, j, head, total, wall) => {
    const text = await estimate(agents, n, j);
    expect(text).toContain(head);
    expect(text).toContain(total);
    expect(text).toContain(wall);
    expect(text).toContain(`source  ${agents.length * n} run(s): the agent's default figure`);
  });

  it("prices each agent's probes under its own model", async () => {
    const [both, one, other] = await Promise.all([
      estimate([claude, codex], 5),
      estimate([claude], 5),
      estimate([codex], 5),
    ]);
    expect(usdOf(one)).toBeGreaterThan(0);
    expect(usdOf(other)).toBeGreaterThan(0);
    expect(usdOf(both)).toBeCloseTo(usdOf(one) + usdOf(other), 3);
    // An agent with no model named is unpriced; the other's probes are still priced.
    const half = await estimate([claude, { agent: "codex", model: null }], 5);
    expect(usdOf(half)).toBeCloseTo(usdOf(one), 4);
    expect(half).toContain("for 5 priced run(s)");
    expect(half).toContain("5 run(s) unpriced: the agent's default model");
  });
});
