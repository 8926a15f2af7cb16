/** Run pages of every agent get a timeline: Claude's from its stream, the others' from their evidence. */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { agentDriver } from "../../../src/agents/index.js";
import type { RunReport } from "../../../src/core/report.js";
import { buildRunPage } from "../../../src/report/html/run-data.js";
import { REPO_ROOT } from "../../helpers/cli.js";
import { makeReport } from "./helpers.js";

const DIR = path.join(REPO_ROOT, "test/fixtures/agents/transcripts");

function decoded(name: string): { stdout: string; evidence: ReturnType<typeof decode> } {
  const stdout = readFileSync(path.join(DIR, `${name}.jsonl`), "utf8");
  return { stdout, evidence: decode(name, stdout) };
}

function decode(name: string, stdout: string) {
  const opts: unknown = JSON.parse(readFileSync(path.join(DIR, `${name}.options.json`), "utf8"));
  const workspace =
    typeof opts === "object" && opts !== null && "workspace" in opts ? String(opts.workspace) : "";
  const d = agentDriver(name)!.decoder({ workspace });
  for (const line of stdout.split("\n")) if (line !== "") d.pushLine(line);
  return d.finish();
}

function page(
  agent: RunReport["agent"]["name"],
  stdout: string | null,
  evidence: ReturnType<typeof decode> | null,
) {
  const report = makeReport();
  report.agent = { name: agent, bin: null, version: "1" };
  return buildRunPage({
    report,
    rawReport: report,
    evidence,
    stdout,
    stderr: null,
    files: [],
    filesTruncated: false,
  });
}

describe("run page timeline by agent", () => {
  it.each(["codex", "gemini", "opencode"] as const)(
    "%s: from its evidence, with every tool call",
    (name) => {
      const { stdout, evidence } = decoded(name);
      expect(evidence.tool_calls.length).toBeGreaterThan(0);
      const tl = page(name, stdout, evidence).timeline;
      expect(tl.source).toBe("evidence");
      expect(tl.malformed_lines).toBe(0);
      expect(tl.tool_calls).toBe(evidence.tool_calls.length);
      const tools = tl.turns.flatMap((t) =>
        t.steps.flatMap((s) => (s.kind === "assistant" ? s.tools : [])),
      );
      expect(tools.map((t) => t.name)).toEqual(evidence.tool_calls.map((t) => t.name));
      expect(tools.every((t) => t.label !== "" || t.input !== "")).toBe(true);
      const last = tl.turns.at(-1);
      expect(last?.result).not.toBeNull();
      if (evidence.result_text !== null) expect(last?.result?.text).toBe(evidence.result_text);
    },
  );

  it("claude-code: from its stream-json, step by step", () => {
    const { stdout, evidence } = decoded("claude");
    const tl = page("claude-code", stdout, evidence).timeline;
    expect(tl.source).toBe("stdout");
    expect(tl.tool_calls).toBe(evidence.tool_calls.length);
    expect(tl.turns[0]?.steps.some((s) => s.kind === "assistant" && s.text.length > 0)).toBe(true);
  });

  it("claude-code without stdout.jsonl: from its evidence", () => {
    const { evidence } = decoded("claude");
    expect(page("claude-code", null, evidence).timeline.source).toBe("evidence");
  });

  it("an agent with neither: an empty timeline, not a crash", () => {
    const tl = page("codex", "{}\n", null).timeline;
    expect(tl.turns).toEqual([]);
  });
});
