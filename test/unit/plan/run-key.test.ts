/**
 * The run content key (src/plan/run-key.ts, docs/reuse.md): every part changes the key, and the
 * difference names the part; a treatment's hash covers its settings and Skill bytes, not where
 * its files are.
 */
import { describe, expect, it } from "vitest";
import type { RunKeyParts } from "../../../src/core/run-key.js";
import {
  environmentHash,
  plannedKeyParts,
  rescoredKey,
  RUN_KEY_VERSION,
  runKeyDifferences,
  runKeyOf,
  SCORING_VERSION,
  treatmentContentHash,
} from "../../../src/plan/run-key.js";
import type { RunPlan } from "../../../src/plan/run-plan.js";
import type { TreatmentSpec } from "../../../src/suite/index.js";

const H = (c: string): string => `sha256:${c.repeat(64)}`;

const BASE: RunKeyParts = {
  version: RUN_KEY_VERSION,
  scoring_version: SCORING_VERSION,
  task: "greet",
  task_hash: H("a"),
  treatment: "WITH_SKILL",
  treatment_hash: H("b"),
  rep: 1,
  agent: "claude-code",
  agent_version: "2.1.3",
  model: "CLI default",
  endpoint: "scripted",
  endpoint_at: H("c"),
  sandbox: "bwrap",
  image: null,
  profile: "generic",
  profile_hash: null,
  judge: "off",
  interaction: "none",
  interaction_settings: H("d"),
  timeout_sec: "600",
  environment: H("e"),
};

describe("runKeyOf and runKeyDifferences", () => {
  const rows: [string, Partial<RunKeyParts>, string][] = [
    ["key format", { version: RUN_KEY_VERSION + 1 }, `run key format 1 → 2`],
    ["scoring version", { scoring_version: SCORING_VERSION + 1 }, "scoring version 1 → 2"],
    ["task", { task: "farewell" }, "task greet → farewell"],
    ["task content", { task_hash: H("f") }, "task hash differs"],
    ["treatment", { treatment: "CONTROL" }, "treatment WITH_SKILL → CONTROL"],
    ["treatment content (Skill bytes)", { treatment_hash: H("f") }, "treatment hash differs"],
    ["repetition", { rep: 2 }, "repetition 1 → 2"],
    ["agent", { agent: "codex" }, "agent claude-code → codex"],
    ["agent version", { agent_version: "2.1.4" }, "agent version 2.1.3 → 2.1.4"],
    ["agent version unknown", { agent_version: null }, "agent version 2.1.3 → none"],
    ["model", { model: "opus" }, "model CLI default → opus"],
    ["endpoint kind", { endpoint: "live" }, "endpoint scripted → live"],
    ["script", { endpoint_at: H("9") }, `endpoint sha256:cccccccccccc → sha256:999999999999`],
    ["sandbox kind", { sandbox: "docker" }, "sandbox bwrap → docker"],
    ["image digest", { image: H("7") }, "sandbox image none → sha256:777777777777"],
    ["profile", { profile: "hard-check" }, "profile generic → hard-check"],
    ["profile file", { profile_hash: H("8") }, "profile file differs"],
    ["judge", { judge: "m via http, 1 sample(s)" }, "judge off → m via http, 1 sample(s)"],
    [
      "interaction",
      { interaction: "auto_user, 4 turns max" },
      "interaction none → auto_user, 4 turns max",
    ],
    ["interaction settings", { interaction_settings: H("1") }, "interaction settings differs"],
    ["timeout", { timeout_sec: "60" }, "timeout_sec 600 → 60"],
    ["environment", { environment: H("2") }, "environment differs"],
  ];
  it("covers every part of the key", () => {
    const covered = new Set(rows.flatMap(([, change]) => Object.keys(change)));
    expect([...covered].sort()).toEqual(Object.keys(BASE).sort());
  });
  it.each(rows)("%s changes the key and names what differs", (_name, change, phrase) => {
    const now = { ...BASE, ...change };
    expect(runKeyOf(now).key).not.toBe(runKeyOf(BASE).key);
    expect(runKeyDifferences(BASE, now)).toEqual([phrase]);
  });
  it("equal parts, equal keys (whatever the order of the fields)", () => {
    const reordered = Object.fromEntries(Object.entries(BASE).reverse()) as RunKeyParts;
    expect(runKeyOf(reordered).key).toBe(runKeyOf(BASE).key);
    expect(runKeyDifferences(BASE, reordered)).toEqual([]);
    expect(runKeyOf(BASE).key).toMatch(/^sha256:[0-9a-f]{64}$/);
  });
  it("rescore records the current scoring version", () => {
    const old = runKeyOf({ ...BASE, scoring_version: 0 });
    expect(rescoredKey(old)).toEqual(runKeyOf(BASE));
    const same = runKeyOf(BASE);
    expect(rescoredKey(same)).toBe(same);
  });
});

const TREATMENT: TreatmentSpec = {
  name: "WITH_SKILL",
  description: "the Skill",
  claude_md: null,
  skills: [
    { name: "greeter", source_type: "path", path: "/a/greeter", content: null, hash: H("a") },
  ],
  file: "/a/treatments/with.yaml",
};

describe("treatmentContentHash", () => {
  it("is the same for the treatment compiled into another folder", () => {
    const moved: TreatmentSpec = {
      ...TREATMENT,
      file: "/b/treatments/with.yaml",
      skills: TREATMENT.skills.map((s) => ({ ...s, path: "/b/greeter" })),
    };
    expect(treatmentContentHash(moved)).toBe(treatmentContentHash(TREATMENT));
  });
  it.each<[string, Partial<TreatmentSpec>]>([
    ["a Skill's bytes", { skills: [{ ...TREATMENT.skills[0]!, hash: H("b") }] }],
    ["another Skill", { skills: [...TREATMENT.skills, { ...TREATMENT.skills[0]!, name: "x" }] }],
    ["CLAUDE.md", { claude_md: "be brief" }],
    ["a prompt prefix", { prompt_prefix: "First," }],
    ["a profile hint", { profile: "hard-check" }],
  ])("changes with %s", (_name, change) => {
    expect(treatmentContentHash({ ...TREATMENT, ...change })).not.toBe(
      treatmentContentHash(TREATMENT),
    );
  });
});

describe("environmentHash", () => {
  it("changes with a declared value and a passed name, not with their order", () => {
    const a = environmentHash({
      declared: { A: "1", B: "2" },
      passNames: ["X", "Y"],
      validation: undefined,
    });
    expect(
      environmentHash({
        declared: { B: "2", A: "1" },
        passNames: ["Y", "X"],
        validation: undefined,
      }),
    ).toBe(a);
    expect(
      environmentHash({
        declared: { A: "1", B: "3" },
        passNames: ["X", "Y"],
        validation: undefined,
      }),
    ).not.toBe(a);
    expect(
      environmentHash({ declared: { A: "1", B: "2" }, passNames: ["X"], validation: undefined }),
    ).not.toBe(a);
  });
});

describe("plannedKeyParts", () => {
  const plan = {
    run_id: "greet-WITH_SKILL-r2",
    task: "greet",
    treatment: "WITH_SKILL",
    rep: 2,
    agent: { name: "claude", bin: "/bin/claude", version: "2.1.3" },
    model: null,
    profile: "generic",
    sandbox: { choice: "auto", kind: "bwrap", why: "auto" },
    timeout_sec: 600,
    interaction: {
      mode: "none",
      max_turns: 1,
      simulator_prompt: "",
      decision_patterns: [],
      decision_reply: null,
      decision_replies: [],
      continue_prompt: "go on",
      fresh_resume_marker: null,
      simulator_model: null,
    },
    treatment_files: { skills: [], claude_md: false },
  } as unknown as RunPlan;
  const exp = {
    endpoint: "scripted" as const,
    endpoint_at: H("c"),
    judge: "off",
    environment: H("e"),
    profileHashes: {},
  };
  it("takes the plan's agent (by report name), rep, sandbox and profile, and the experiment's parts", () => {
    const p = plannedKeyParts(plan, { task: H("a"), treatment: H("b") }, exp, H("7"));
    expect(p).toMatchObject({
      agent: "claude-code",
      agent_version: "2.1.3",
      rep: 2,
      sandbox: "bwrap",
      image: null, // not docker: no image
      model: "CLI default",
      interaction: "none",
      timeout_sec: "600",
      profile_hash: null,
      scoring_version: SCORING_VERSION,
    });
    const docker = { ...plan, sandbox: { ...plan.sandbox, kind: "docker" } } as RunPlan;
    expect(plannedKeyParts(docker, { task: H("a"), treatment: H("b") }, exp, H("7")).image).toBe(
      H("7"),
    );
    expect(
      plannedKeyParts(
        plan,
        { task: H("a"), treatment: H("b") },
        { ...exp, profileHashes: { generic: H("8") } },
        null,
      ).profile_hash,
    ).toBe(H("8"));
  });
});
