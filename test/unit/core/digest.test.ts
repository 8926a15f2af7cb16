import { describe, expect, it } from "vitest";
import { digestOf, RunDigestSchema } from "../../../src/core/digest.js";
import { RunReportSchema } from "../../../src/core/report.js";
import { makeReport } from "../report/helpers.js";

describe("run digests", () => {
  const report = RunReportSchema.parse({
    ...makeReport({ passed: false }),
    interaction: {
      mode: "auto_user",
      max_turns: 4,
      actual_turns: 2,
      end_reason: "agent_done",
      nudges: 1,
      turns: [{ prompt: "first" }, { prompt: "second" }],
    },
  });

  it("parse with their schema and keep every field the reports read", () => {
    const d = digestOf(report);
    expect(RunDigestSchema.parse(d)).toEqual(d);
    expect(d.checks_failed).toEqual(report.checks_failed);
    expect(d.rubric_lines).toEqual(report.rubric_lines);
    expect(d.rubric?.weighted_score).toBe(report.rubric?.weighted_score);
    expect(d.rubric?.dimensions.map((x) => [x.name, x.score, x.weight])).toEqual(
      report.rubric?.dimensions.map((x) => [x.name, x.score, x.weight]),
    );
    expect(d.interaction).toEqual({
      mode: "auto_user",
      max_turns: 4,
      actual_turns: 2,
      end_reason: "agent_done",
      nudges: 1,
    });
  });

  it.each([
    [
      {
        input_tokens: 12,
        output_tokens: 3,
        cache_read_input_tokens: 400,
        cache_creation_input_tokens: 0,
      },
    ],
    [
      {
        input_tokens: null,
        output_tokens: null,
        cache_read_input_tokens: null,
        cache_creation_input_tokens: null,
      },
    ],
  ])("keep the tokens by kind (%o), and still parse a digest made before them", (kinds) => {
    const r = RunReportSchema.parse({
      ...report,
      events_summary: { ...report.events_summary, ...kinds },
    });
    const d = digestOf(r);
    expect(d.events_summary).toMatchObject(kinds);
    expect(RunDigestSchema.parse(d)).toEqual(d);
    const old = { ...d, events_summary: { ...d.events_summary } } as Record<string, unknown>;
    for (const k of Object.keys(kinds)) delete (old.events_summary as Record<string, unknown>)[k];
    expect(RunDigestSchema.parse(old)).toEqual(old);
  });

  it("leave out what only a run's own page shows", () => {
    const d = digestOf(report) as Record<string, unknown>;
    expect(d).not.toHaveProperty("artifacts");
    const es = d.events_summary as Record<string, unknown> | null;
    for (const k of ["final_response", "model_usage", "files_created", "session_ids"])
      expect(es ?? {}).not.toHaveProperty(k);
    const dims = (d.rubric as { dimensions: Array<Record<string, unknown>> }).dimensions;
    for (const dim of dims) expect(Object.keys(dim).sort()).toEqual(["name", "score", "weight"]);
    // The report itself is untouched.
    expect(report.artifacts).toBeDefined();
    expect(report.interaction?.turns).toHaveLength(2);
  });
});
