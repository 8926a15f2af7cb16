/**
 * The streams of the agent-neutral scenario recorded from each real CLI
 * (test/e2e/agents-<name>.test.ts) decode, each through its own driver's decoder, to the same
 * normalised evidence. Pure: no binary runs here.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AGENT_NAMES, agentDriver } from "../../../src/agents/index.js";
import { EvidenceSchema } from "../../../src/core/evidence.js";
import { expectedNeutral, neutralEvidence } from "../../helpers/agents.js";
import { REPO_ROOT } from "../../helpers/cli.js";

const DIR = path.join(REPO_ROOT, "test/fixtures/agents/transcripts");

function decode(name: string, chunk?: number) {
  const text = readFileSync(path.join(DIR, `${name}.jsonl`), "utf8");
  const opts: unknown = JSON.parse(readFileSync(path.join(DIR, `${name}.options.json`), "utf8"));
  const workspace =
    typeof opts === "object" && opts !== null && "workspace" in opts ? String(opts.workspace) : "";
  const d = agentDriver(name)!.decoder({ workspace });
  let pending = "";
  const step = chunk ?? text.length;
  for (let i = 0; i < text.length; i += step) {
    pending += text.slice(i, i + step);
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const l of lines) d.pushLine(l);
  }
  if (pending !== "") d.pushLine(pending);
  return d.finish();
}

describe.each(AGENT_NAMES)("the %s recording of the agent-neutral scenario", (name) => {
  it("decodes to the same normalised evidence as every other agent", () => {
    const e = decode(name);
    expect(EvidenceSchema.parse(e)).toEqual(e);
    expect(neutralEvidence(e, name)).toEqual(expectedNeutral(name));
    expect(e.agent.name).toBe(name);
    expect(e.diagnostics.malformed_lines).toEqual([]);
    expect(e.diagnostics.unknown_types).toEqual({});
  });

  it("reports tokens where the agent does, and cost only where it does", () => {
    const e = decode(name);
    expect(e.tokens).toMatchObject({ input: 500, output: 100 });
    if (name === "codex" || name === "gemini") expect(e.total_cost_usd).toBeNull();
    else expect(e.total_cost_usd).toBeGreaterThan(0);
  });

  it("gives the same evidence whatever the chunking", () => {
    expect(decode(name, 7)).toEqual(decode(name));
  });
});
