import { EvidenceSchema } from "../../../src/core/evidence.js";
import type { Evidence } from "../../../src/core/evidence.js";
import { expect } from "vitest";
import {
  formatRubricLine,
  makeMemoryWorkspaceView,
  type RubricResult,
} from "../../../src/scoring/index.js";
import type { RubricInput } from "../../../src/scoring/index.js";

/** A schema-valid Evidence with nothing in it, plus overrides. */
export function evidence(over: Partial<Evidence> = {}): Evidence {
  return EvidenceSchema.parse({
    schema: "skillbench.evidence.v1",
    agent: {
      name: "claude",
      version: "2.1.328",
      claude_code_version: "2.1.328",
      model: "claude-test",
      cwd: "/ws",
    },
    tool_calls: [],
    commands_run: [],
    files_read: [],
    files_created: [],
    files_modified: [],
    skills_invoked: [],
    skill_files_touched: [],
    session_ids: [],
    result_text: null,
    results: [],
    is_error: false,
    num_turns: null,
    duration_ms: null,
    duration_api_ms: null,
    tokens: null,
    total_cost_usd: null,
    model_usage: {},
    peak_context_tokens: null,
    api_retries: [],
    permission_denials: 0,
    diagnostics: {
      lines: 0,
      malformed_lines: [],
      non_object_lines: [],
      unknown_types: {},
      truncated_last_line: false,
    },
    ...over,
  });
}

export function toolCalls(n: number): Evidence["tool_calls"] {
  return Array.from({ length: n }, (_, i) => ({
    id: `t${i}`,
    name: "Bash",
    input: {},
    output: null,
    is_error: null,
    turn: 1,
    parent_tool_use_id: null,
  }));
}

export interface InputOverrides {
  evidence?: Partial<Evidence>;
  baseline?: Partial<RubricInput["baseline"]>;
  task?: Partial<RubricInput["task"]>;
  interaction?: Partial<RubricInput["interaction"]>;
  files?: string[];
  /** An in-memory workspace (path -> text); when set, `files` is ignored and fileExists uses it. */
  ws?: Record<string, string>;
  symlinks?: string[];
  treatment?: string;
}

/** A RubricInput; `files` are the paths that exist (a glob matches by a simple prefix*suffix rule). */
export function rubricInput(o: InputOverrides = {}): RubricInput {
  const files = o.files ?? [];
  if (o.ws !== undefined) {
    const workspace = makeMemoryWorkspaceView(o.ws, { symlinks: o.symlinks ?? [] });
    return {
      evidence: evidence(o.evidence),
      baseline: { passed: [], failed: [], ...o.baseline },
      task: {
        required_skills: [],
        expected_artifacts: [],
        require_skill_invocation: false,
        ...o.task,
      },
      interaction: { mode: "none", max_turns: 12, actual_turns: null, ...o.interaction },
      treatment: o.treatment ?? "WITH_SKILL",
      workspace,
    };
  }
  return {
    evidence: evidence(o.evidence),
    baseline: { passed: [], failed: [], ...o.baseline },
    task: {
      required_skills: [],
      expected_artifacts: [],
      require_skill_invocation: false,
      ...o.task,
    },
    interaction: { mode: "none", max_turns: 12, actual_turns: null, ...o.interaction },
    fileExists: (p) => {
      const star = p.indexOf("*");
      if (star < 0) return files.includes(p);
      const [pre, post] = [p.slice(0, star), p.slice(p.lastIndexOf("*") + 1)];
      return files.some((f) => f.startsWith(pre) && f.endsWith(post));
    },
  };
}

/**
 * Every dimension's score and its `[RUBRIC]` line as expected (`[score or null, reason]` per
 * dimension, in order), and the weighted score computed by hand from `weights`.
 */
export function expectDimensions(
  r: RubricResult,
  weights: Record<string, number>,
  e: Record<string, [number | null, string]>,
): void {
  const rows = r.dimensions.map((d) => [
    d.name,
    d.score === null ? null : Number(d.score.toFixed(4)),
    formatRubricLine(d),
  ]);
  const want = Object.entries(e).map(([name, [s, reason]]) => [
    name,
    s === null ? null : Number(s.toFixed(4)),
    `[RUBRIC] ${name}: ${s === null ? "N/A" : s.toFixed(2)} - ${reason}`,
  ]);
  expect(rows).toEqual(want);
  let num = 0;
  let den = 0;
  for (const [name, [s]] of Object.entries(e)) {
    if (s === null) continue;
    const w = weights[name] ?? 0;
    num += s * w;
    den += w;
  }
  expect(r.weighted_score).toBeCloseTo(den > 0 ? num / den : 0, 10);
}
