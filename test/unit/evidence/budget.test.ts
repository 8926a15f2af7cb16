import { describe, expect, it } from "vitest";
import { parseEvidence } from "../../../src/evidence/index.js";
import { SMALL_TOOL_TEXT } from "../../../src/agents/claude/decoder.js";
import { MAX_TOOL_TEXT } from "../../../src/evidence/text.js";
import { init, lines, result, toolResult, toolUse } from "./events.js";

describe("bounded memory: the tool-text budget", () => {
  it("keeps texts at full size until the budget is spent, then cuts each further text short; every call is kept", () => {
    const big = "x".repeat(10_000);
    const events = [init()];
    for (let i = 0; i < 10; i++)
      events.push(toolUse(`t${i}`, "Bash", { command: `echo ${i}` }), toolResult(`t${i}`, big));
    events.push(result());
    const e = parseEvidence(lines(...events), { toolTextBudget: 25_000 });
    expect(e.tool_calls).toHaveLength(10);
    const sizes = e.tool_calls.map((c) => c.output?.length ?? 0);
    // The first three outputs fit (about 30k characters then spent), the rest are cut.
    expect(sizes.slice(0, 3)).toEqual([10_000, 10_000, 10_000]);
    for (const n of sizes.slice(3)) expect(n).toBeLessThan(SMALL_TOOL_TEXT + 100);
    expect(e.tool_calls[9]?.output).toMatch(/\[skillbench: truncated 9500 characters\]$/);
    expect(e.commands_run).toHaveLength(10);
  });

  it("by default a single output is still capped at MAX_TOOL_TEXT", () => {
    const e = parseEvidence(
      lines(
        init(),
        toolUse("a", "Bash", { command: "x" }),
        toolResult("a", "y".repeat(MAX_TOOL_TEXT + 5)),
        result(),
      ),
    );
    expect(e.tool_calls[0]?.output).toMatch(/truncated 5 characters\]$/);
  });
});
