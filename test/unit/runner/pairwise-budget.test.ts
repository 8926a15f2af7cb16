/**
 * One order of a pairwise judgement under the experiment's budget (docs/budgets.md, "The judge"):
 * a call the budget refuses is not sent and the order fails with that cause; an admitted call's
 * reported usage goes to the budget.
 */
import { describe, expect, it } from "vitest";
import type { JudgeBudget, JudgeReply } from "../../../src/judge/types.js";
import { askOrder } from "../../../src/runner/pairwise-stage.js";

const usage = { add: (): void => undefined };

function budget(refuseAfter: number): JudgeBudget & { replies: unknown[]; asked: number } {
  const b = {
    replies: [] as unknown[],
    asked: 0,
    admit(): Promise<string | null> {
      b.asked += 1;
      return Promise.resolve(b.asked > refuseAfter ? "the budget has $0.0000 left" : null);
    },
    replied(model: string, tokens: { input: number; output: number } | null): void {
      b.replies.push({ model, tokens });
    },
  };
  return b;
}

const answer = (text: string): JudgeReply => ({
  ok: true,
  text,
  tokens: { input: 10, output: 2 },
  costUsd: null,
});

describe("askOrder under a budget", () => {
  it.each([
    // [calls the budget admits, replies, preferred, reason starts, calls sent, replies booked]
    [0, ['{"preferred":"A","reason":"a"}'], null, "budget: the budget has", 0, 0],
    [1, ['{"preferred":"A","reason":"a"}'], "A", "a", 1, 1],
    // the repair turn is refused: no preference, the parse failure and the budget named
    [1, ["not json"], null, "", 1, 1],
    [2, ["not json", '{"preferred":"B","reason":"b"}'], "B", "b", 2, 2],
  ] as const)(
    "admits %i call(s): preference %s",
    async (admits, replies, preferred, reasonStart, sent, booked) => {
      const b = budget(admits);
      let i = 0;
      const transport = (): Promise<JudgeReply> => Promise.resolve(answer(replies[i++] ?? ""));
      const r = await askOrder(transport, "prompt", usage, undefined, {
        judge: b,
        model: "judge-m",
      });
      expect(r.preferred).toBe(preferred);
      expect(r.reason.startsWith(reasonStart)).toBe(true);
      if (preferred === null) expect(r.reason).toContain("budget: the budget has $0.0000 left");
      expect(i).toBe(sent);
      expect(r.calls).toBe(sent);
      expect(b.replies).toHaveLength(booked);
      if (booked > 0)
        expect(b.replies[0]).toEqual({ model: "judge-m", tokens: { input: 10, output: 2 } });
    },
  );

  it("without a budget, asks as before", async () => {
    const r = await askOrder(
      () => Promise.resolve(answer('{"preferred":"A","reason":"a"}')),
      "prompt",
      usage,
      undefined,
    );
    expect(r).toMatchObject({ preferred: "A", calls: 1, repairs: 0 });
  });
});
