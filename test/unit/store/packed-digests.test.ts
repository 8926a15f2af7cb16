import { describe, expect, it } from "vitest";
import { compactDigest, digestOf, type RunDigest } from "../../../src/core/digest.js";
import { RunReportSchema } from "../../../src/core/report.js";
import { PackedDigests } from "../../../src/store/packed-digests.js";
import { makeJudgeBlock, makeReport, type RunSpec } from "../report/helpers.js";

/** A run's timing as the runner writes it (toISOString). */
const timing = {
  started_at: "2026-01-01T00:00:00.125Z",
  finished_at: "2026-01-01T00:00:10.000Z",
  wall_ms: 9875,
};
const digest = (s: RunSpec, more: Record<string, unknown> = {}): RunDigest =>
  digestOf(RunReportSchema.parse({ ...makeReport(s), timing, ...more }));

/** A digest whose run reported its tokens by kind (`es` overrides the report's events_summary fields). */
const kinded = (es: Record<string, unknown>, s: RunSpec = {}): RunDigest => {
  const r = makeReport(s);
  return digest(s, { events_summary: { ...r.events_summary, ...es } });
};
/** A digest as made before the tokens by kind were kept: its events_summary without them. */
function unkinded(d: RunDigest): RunDigest {
  const es = d.events_summary;
  if (es === null) return d;
  const {
    input_tokens: _i,
    output_tokens: _o,
    cache_read_input_tokens: _r,
    cache_creation_input_tokens: _w,
    ...rest
  } = es;
  return { ...d, events_summary: rest };
}
const KINDS = {
  input_tokens: 120,
  output_tokens: 40,
  cache_read_input_tokens: 5000,
  cache_creation_input_tokens: 0,
};

/** Every field read back equals the digest's, in the same order, and JSON.stringify writes the same text. */
function expectSame(packed: RunDigest, d: RunDigest): void {
  expect(JSON.stringify(packed)).toBe(JSON.stringify(d));
  expect(compactDigest(packed)).toStrictEqual(compactDigest(d));
  for (const k of Object.keys(d) as Array<keyof RunDigest>) expect(packed[k]).toStrictEqual(d[k]);
}

/** A run's `skill_usage` entry that read `read` of a three-file Skill. */
const usage = (read: string[]) => ({
  skill: "s",
  invoked: read.includes("SKILL.md"),
  files_read: read,
  scripts_run: [],
  coverage: read.length / 3,
  files: ["SKILL.md", "a.md", "b.md"],
});

describe("packed digests", () => {
  const interaction = {
    mode: "auto_user",
    max_turns: 4,
    actual_turns: 2,
    end_reason: "agent_done",
    nudges: 1,
    turns: [{ prompt: "first" }],
  };
  const queue = {
    job_id: "j1",
    worker: "w1",
    attempts: 2,
    lost_attempts: [
      { attempt: 1, worker: "w0", started_at: "2026-01-01T00:00:00Z", reason: "worker gone" },
    ],
    omitted: [],
  };
  const table: Array<[string, RunDigest]> = [
    ["a plain run", digest({})],
    ["a failed run with nulls", digest({ passed: false, dims: false, tokens: null, cost: null })],
    ["no turns, no duration", digest({ turns: null, duration: null, rep: 7 })],
    ["a transcript-less run", digest({ treatment: "WITH_SKILL" }, { events_summary: null })],
    [
      "interaction counters, judge, queue",
      digest({ task: "t-b" }, { interaction, judge: makeJudgeBlock({ completion: 0.5 }), queue }),
    ],
    ["a model and an agent version", digest({ model: "m-1", agentVersion: "1.2.3" })],
    [
      "a run id with the agent's name",
      digest({ rep: 3 }, { run_id: "task-a-CONTROL@claude-code-r3" }),
    ],
    ["a run id of its own", digest({ rep: 2 }, { run_id: "renamed by hand" })],
    [
      "a Skill's usage",
      digest({ treatment: "WITH_SKILL" }, { skill_usage: [usage(["SKILL.md"])] }),
    ],
    [
      "a Skill's usage and a queue",
      digest({ treatment: "WITH_SKILL" }, { queue, skill_usage: [usage(["SKILL.md", "a.md"])] }),
    ],
    ["tokens by kind", kinded(KINDS)],
    ["tokens by kind, some null", kinded({ ...KINDS, cache_creation_input_tokens: null })],
    ["an old digest without tokens by kind", unkinded(kinded(KINDS, { rep: 4 }))],
  ];

  it.each(table)("read back every field of %s", (_, d) => {
    const store = new PackedDigests(1);
    const packed = store.add(d);
    expect(Object.getPrototypeOf(packed)).not.toBe(Object.prototype);
    // no own fields: a spread or Object.keys shows nothing (compactDigest gives a plain object)
    expect(Object.keys(packed)).toEqual([]);
    expectSame(packed, d);
  });

  it("hold many runs, sharing equal values", () => {
    const store = new PackedDigests(2);
    const ds = table.flatMap(([, d]) => [d, structuredClone(d)]);
    const packed = ds.map((d) => store.add(d));
    expect(store.length).toBe(ds.length);
    packed.forEach((p, i) => expectSame(p, ds[i] as RunDigest));
    // equal values (by JSON) are one object, shared by the runs (and frozen)
    expect(packed[0]?.rubric).toBe(packed[1]?.rubric);
    expect(packed[0]?.checks_passed).toBe(packed[2]?.checks_passed);
    expect(Object.isFrozen(packed[0]?.sandbox)).toBe(true);
    // one profile per combination of shared values, not per run
    expect(store.profiles.length).toBeLessThan(ds.length);
  });

  it("keep values that differ in every run out of the profiles, and forget numbering when sealed", () => {
    const store = new PackedDigests(4);
    // Every run judged with its own reasons, its own request count and interaction counters.
    const ds = Array.from({ length: 50 }, (_, i) =>
      digest(
        { rep: i + 1 },
        {
          judge: { ...makeJudgeBlock({ completion: i / 50 }), prompt_hash: `h${i}` },
          model_api: {
            source: "scripted_server",
            requests: i,
            answered: i,
            unanswered: 0,
            errors: {},
          },
          interaction: { ...interaction, nudges: i },
        },
      ),
    );
    const packed = ds.map((d) => store.add(d));
    expect(store.profiles.length).toBe(1);
    store.seal();
    packed.forEach((p, i) => expectSame(p, ds[i] as RunDigest));
    // added after sealing: numbered afresh, read back the same
    const later = digest({ rep: 99 }, { judge: ds[0]?.judge });
    expectSame(store.add(later), later);
    expect(store.length).toBe(51);
  });

  it("keep as they are the digests the columns cannot hold exactly", () => {
    const store = new PackedDigests();
    const odd: RunDigest[] = [
      // times toISOString would not write back the same
      { ...digest({}), timing: { ...timing, started_at: "2026-01-01T00:00:00Z" } },
      { ...digest({}), timing: { ...timing, finished_at: "yesterday" } },
      digest({ tokens: 12.5 }),
      digest({ tokens: 2 ** 40 }),
      digest({ turns: 1.5 }),
      kinded({ ...KINDS, input_tokens: 2 ** 40 }),
      kinded({ ...KINDS, output_tokens: 0.5 }),
      // the kinds elsewhere than after tool_calls
      (({ events_summary, ...rest }) => {
        const { input_tokens, ...es } = events_summary ?? {};
        return { ...rest, events_summary: { ...es, input_tokens } } as RunDigest;
      })(kinded(KINDS)),
      { ...digest({}), rep: 2 ** 33 },
      // a field order other than compactDigest's (the task last)
      (({ task, ...rest }) => ({ ...rest, task }))(digest({})),
    ];
    for (const d of odd) expect(store.add(d)).toBe(d);
    expect(store.length).toBe(0);
  });

  it("keep a run's tokens by kind in its own columns, old digests read back without them", () => {
    const store = new PackedDigests(1);
    const ds = [
      kinded(KINDS, { rep: 1 }),
      kinded({ ...KINDS, input_tokens: 999 }, { rep: 2 }),
      unkinded(kinded(KINDS, { rep: 3 })),
    ];
    const packed = ds.map((d) => store.add(d));
    packed.forEach((p, i) => expectSame(p, ds[i] as RunDigest));
    // the kinds are the run's own (no profile of their own); only kinded or not splits profiles
    expect(store.profiles.length).toBe(2);
    expect(packed[1]?.events_summary?.input_tokens).toBe(999);
    expect(packed[2]?.events_summary).not.toHaveProperty("input_tokens");
  });

  it("write small, long and large numbers back exactly", () => {
    const store = new PackedDigests();
    const d = digest({ duration: 1e-9, cost: 0.013999999999999999, tokens: 2 ** 31 - 1 });
    expectSame(store.add(d), d);
  });
});
