import {
  GENERIC_SIMULATOR_PROMPT,
  genericProfile,
  requiredSkillFailures,
} from "../generic/profile.js";
import { scoreRubric } from "../../score-rubric.js";
import type {
  DimensionDef,
  DimensionEvaluation,
  DimensionResult,
  RubricCheck,
  RubricProfile,
  ScoringInput,
} from "../../types.js";

/**
 * The authoring-skill rubric (docs/rubrics.md, authoring-skill): 11 dimensions over the generated Skill package at
 * `task.skill_package_path` (workspace-relative), re-using the generic rubric's completion,
 * skill_invocation, artifact_presence and safety_boundary results. Every failed package check
 * is also a hard failure. Pure.
 */

/**
 * The authoring lanes a package must list. The original harness has required two sets over
 * time; a package passes with either (docs/rubrics.md, deviations). Newest first.
 */
const REQUIRED_LANE_SETS: readonly (readonly string[])[] = [
  ["skill-core", "script", "reference", "pause-points", "workflow-entry", "skill-review"],
  ["skill-core", "script-contract", "reference", "pause-points", "eval", "skill-review"],
];

interface PackageDim {
  eval: DimensionEvaluation;
  failures: string[];
}

interface AuthoringReport {
  generic: DimensionResult[];
  genericHard: string[];
  dims: Record<string, PackageDim>;
}

function parseJson(text: string | null): { ok: true; value: unknown } | { ok: false } {
  if (text === null) return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function obj(v: unknown): Record<string, unknown> | undefined {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return undefined;
  return Object.fromEntries(Object.entries(v));
}

/**
 * The node Skill name part for a workflow or node name: lower-cased, each run of characters
 * other than a-z, 0-9, ".", "_" and "-" becomes one "-", no "-" at either end; "node" when
 * nothing is left (so `rel_flow` stays `rel_flow`).
 */
function slug(s: string): string {
  const out = s
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return out === "" ? "node" : out;
}

/** Python's truthiness of a JSON value (what the original's `bool(...)` reads). */
function truthy(v: unknown): boolean {
  if (v === null || v === undefined || v === false || v === 0 || v === "") return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === "object") return Object.keys(v).length > 0;
  return true;
}

/** A list rendered as Python prints it (`['plan', 'build']`), as in the original's messages. */
function pyList(xs: readonly string[]): string {
  return `[${xs.map((x) => `'${x}'`).join(", ")}]`;
}

function join(dir: string, rel: string): string {
  return dir === "" || dir === "." ? rel : `${dir}/${rel}`;
}

function parentDir(p: string): string {
  const i = p.lastIndexOf("/");
  return i < 0 ? "" : p.slice(0, i);
}

function fromChecks(checks: RubricCheck[], failures: string[], reason?: string): PackageDim {
  const ok = checks.filter((c) => c.passed).length;
  return { eval: { checks, reason: reason ?? `${ok}/${checks.length} passed` }, failures };
}

function generatedPackage(input: ScoringInput, pkg: string): PackageDim {
  const text = input.workspace.read(join(pkg, "SKILL.md"));
  if (text === null)
    return {
      eval: {
        checks: [{ name: "SKILL.md exists", passed: false }],
        score: 0,
        reason: "SKILL.md missing",
      },
      failures: ["SKILL.md missing"],
    };
  const specs: [string, boolean, string][] = [
    [
      "workflow route section",
      /Workflow Nodes|工作流节点|workflow route|route/i.test(text),
      "workflow route guidance missing",
    ],
    [
      "decision points",
      /用户停顿点|decision point|stop/i.test(text),
      "decision-point guidance missing",
    ],
    [
      "references workflow-protocol.json and resolved-skills.json",
      text.includes("reference/workflow-protocol.json") &&
        text.includes("reference/resolved-skills.json"),
      "workflow and resolved-skill references missing",
    ],
    [
      "workflow-guard / workflow-state / 恢复",
      /workflow-guard|workflow-state|恢复/.test(text),
      "workflow guard or recovery guidance missing",
    ],
  ];
  return fromChecks(
    specs.map(([name, passed]) => ({ name, passed })),
    specs.filter(([, p]) => !p).map(([, , m]) => m),
  );
}

function resolvedSkillEvidence(input: ScoringInput, pkg: string): PackageDim {
  const file = join(pkg, "reference/resolved-skills.json");
  const text = input.workspace.read(file);
  const fail = (reason: string): PackageDim => ({
    eval: {
      checks: [{ name: "resolved-skills.json with sourceSummaries", passed: false }],
      reason,
    },
    failures: [reason],
  });
  if (text === null) return fail("resolved-skills.json missing");
  const j = parseJson(text);
  if (!j.ok) return fail("resolved-skills.json invalid");
  const ss = obj(j.value)?.sourceSummaries;
  const n = Array.isArray(ss)
    ? ss.length
    : obj(ss) !== undefined
      ? Object.keys(obj(ss) ?? {}).length
      : 0;
  if (n === 0) return fail("sourceSummaries empty");
  return {
    eval: {
      checks: [{ name: "resolved-skills.json with sourceSummaries", passed: true }],
      reason: `${n} source summaries`,
    },
    failures: [],
  };
}

function engineContract(input: ScoringInput, pkg: string): PackageDim {
  const dir = join(pkg, "comet");
  if (!input.workspace.exists(dir))
    return {
      eval: { checks: [], score: 1, reason: "Engine disabled for lightweight package" },
      failures: [],
    };
  const checks: RubricCheck[] = ["skill.yaml", "guardrails.yaml", "checks.yaml", "eval.yaml"].map(
    (f) => ({
      name: `comet/${f} present`,
      passed: input.workspace.exists(join(dir, f)),
    }),
  );
  const legacy = input.workspace.exists(join(dir, "evals.yaml"));
  checks.push({ name: "no legacy comet/evals.yaml", passed: !legacy });
  const failures = checks
    .filter((c) => !c.passed && c.name.endsWith(" present"))
    .map((c) => `${c.name.slice("comet/".length, -" present".length)} missing`);
  if (legacy) failures.push("legacy evals.yaml present");
  return fromChecks(checks, failures);
}

interface Protocol {
  name: string;
  route: string[];
}

/** `reference/workflow-protocol.json`: the workflow name and the ids of its enabled nodes. */
function readProtocol(input: ScoringInput, pkg: string): Protocol | null {
  const j = parseJson(input.workspace.read(join(pkg, "reference/workflow-protocol.json")));
  const top = j.ok ? obj(j.value) : undefined;
  if (top === undefined) return null;
  const name = truthy(top.name) ? String(top.name) : "workflow";
  const route: string[] = [];
  for (const n of Array.isArray(top.nodes) ? top.nodes : []) {
    const o = obj(n);
    if (o === undefined || !truthy(o.id) || truthy(o.disabled)) continue;
    route.push(String(o.id));
  }
  return { name, route };
}

function routeConformance(input: ScoringInput, pkg: string): PackageDim {
  const p = readProtocol(input, pkg);
  const zero = (reason: string): PackageDim => ({
    eval: { checks: [{ name: "workflow route readable", passed: false }], score: 0, reason },
    failures: [reason],
  });
  if (p === null) return zero("workflow-protocol.json missing or invalid");
  const order = input.task.route_conformance_expected_node_order ?? [];
  const expected = order.length > 0 ? order : p.route;
  if (expected.length === 0) return zero("workflow route missing");
  const given = input.task.generated_node_skills ?? [];
  const nodeSkills = given.length > 0 ? given : p.route.map((id) => `${slug(p.name)}-${slug(id)}`);

  const routeOk = expected.length === p.route.length && expected.every((x, i) => x === p.route[i]);
  const missing = nodeSkills.filter(
    (n) => !input.workspace.exists(join(parentDir(pkg), `${n}/SKILL.md`)),
  );
  const evalFile = join(pkg, "comet/eval.yaml");
  // A package without comet/eval.yaml passes this check, as in the original.
  let evalOk = true;
  if (input.workspace.exists(evalFile)) {
    const text = input.workspace.read(evalFile) ?? "";
    evalOk =
      expected.every((id) => text.includes(id)) &&
      nodeSkills.every((n) => text.includes(n)) &&
      text.includes("workflow-route-conformance");
  }
  const checks: RubricCheck[] = [
    { name: "route equals the expected node order", passed: routeOk },
    { name: "every node Skill exists", passed: missing.length === 0 },
    { name: "comet/eval.yaml lists the route (passes without one)", passed: evalOk },
  ];
  const failures: string[] = [];
  if (!routeOk)
    failures.push(`workflow route mismatch: expected ${pyList(expected)}, got ${pyList(p.route)}`);
  if (missing.length > 0) failures.push(`internal Node Skill missing: ${missing.join(", ")}`);
  if (!evalOk) failures.push("comet/eval.yaml missing workflow-route-conformance route entries");
  const ok = checks.filter((c) => c.passed).length;
  return fromChecks(
    checks,
    failures,
    `route=[${p.route.join(", ")}]${routeOk ? "" : ` expected=[${expected.join(", ")}]`} ${ok}/${checks.length} passed`,
  );
}

interface Lanes {
  lanes: Set<string>;
  reviewPassed: boolean;
  blocking: number;
}

/** The id of one lane entry: a string, or an object's `lane` (also `id` or `name`). */
function laneId(l: unknown): string | null {
  if (typeof l === "string") return l;
  const o = obj(l);
  const id = o?.lane ?? o?.id ?? o?.name;
  return typeof id === "string" ? id : null;
}

function readLanes(input: ScoringInput, pkg: string): Lanes | null {
  const j = parseJson(input.workspace.read(join(pkg, "reference/authoring-lanes.json")));
  const top = j.ok ? obj(j.value) : undefined;
  if (top === undefined) return null;
  const raw = top.lanes;
  const lanes = new Set<string>();
  if (Array.isArray(raw)) {
    for (const l of raw) {
      const id = laneId(l);
      if (id !== null) lanes.add(id);
    }
  } else if (obj(raw) !== undefined) for (const k of Object.keys(obj(raw) ?? {})) lanes.add(k);
  const review = obj(top.review);
  const bf = review?.blockingFindings ?? top.blockingFindings;
  const blocking = Array.isArray(bf)
    ? bf.length
    : typeof bf === "number"
      ? bf
      : obj(bf) !== undefined
        ? Object.keys(obj(bf) ?? {}).length
        : 0;
  return { lanes, reviewPassed: truthy(review?.passed), blocking };
}

/** The lanes missing from the required set the package comes closest to (sorted). */
function missingLanes(present: ReadonlySet<string>): string[] {
  let best: string[] | null = null;
  for (const set of REQUIRED_LANE_SETS) {
    const missing = set.filter((x) => !present.has(x)).sort();
    if (best === null || missing.length < best.length) best = missing;
  }
  return best ?? [];
}

function authoringLanes(input: ScoringInput, pkg: string): PackageDim {
  const l = readLanes(input, pkg);
  if (l === null) {
    return {
      eval: {
        checks: [{ name: "authoring-lanes.json readable", passed: false }],
        score: 0,
        reason: "authoring-lanes.json missing or invalid",
      },
      failures: ["authoring-lanes.json missing or invalid"],
    };
  }
  const missing = missingLanes(l.lanes);
  const checks = [
    { name: "every required lane present", passed: missing.length === 0 },
    { name: "review.passed", passed: l.reviewPassed },
  ];
  const failures: string[] = [];
  if (missing.length > 0) failures.push(`authoring lanes missing: ${missing.join(", ")}`);
  if (!l.reviewPassed) failures.push("authoring-lanes review did not pass");
  return fromChecks(checks, failures);
}

function reviewGate(input: ScoringInput, pkg: string): PackageDim {
  const md = input.workspace.read(join(pkg, "reference/skill-review.md"));
  if (md === null && !input.workspace.exists(join(pkg, "reference/skill-review.md")))
    return {
      eval: {
        checks: [{ name: "skill-review.md exists", passed: false }],
        score: 0,
        reason: "skill-review.md missing",
      },
      failures: ["skill-review.md missing"],
    };
  const l = readLanes(input, pkg);
  const mdOk = md !== null && /Review passed|Passed:\s*yes\b|审查通过|通过/i.test(md);
  const blocking = l?.blocking ?? 0;
  const checks = [
    { name: "skill-review.md reports a passed review", passed: mdOk },
    { name: "lanes review.passed", passed: l?.reviewPassed === true },
    { name: "no blocking findings", passed: blocking === 0 },
  ];
  const failures: string[] = [];
  if (!mdOk) failures.push("skill-review.md does not report a passed review");
  if (l?.reviewPassed !== true) failures.push("authoring-lanes review did not pass");
  if (blocking > 0) failures.push(`blocking findings present: ${blocking}`);
  return fromChecks(checks, failures);
}

const memo = new WeakMap<ScoringInput, AuthoringReport>();

function report(input: ScoringInput): AuthoringReport {
  const hit = memo.get(input);
  if (hit !== undefined) return hit;
  const g = scoreRubric(genericProfile, input);
  const pkg = input.task.skill_package_path;
  let dims: Record<string, PackageDim>;
  if (pkg === null || pkg === "") {
    const none = (): PackageDim => ({
      eval: { checks: [], score: 0, reason: "skill_package_path missing" },
      failures: [],
    });
    dims = {
      generated_package: { ...none(), failures: ["skill_package_path missing"] },
      resolved_skill_evidence: none(),
      engine_contract: none(),
      workflow_route_conformance: none(),
      authoring_lanes: none(),
      review_gate: none(),
    };
  } else {
    const p = pkg.replace(/\/+$/, "").replace(/^\.\//, "");
    dims = {
      generated_package: generatedPackage(input, p),
      resolved_skill_evidence: resolvedSkillEvidence(input, p),
      engine_contract: engineContract(input, p),
      workflow_route_conformance: routeConformance(input, p),
      authoring_lanes: authoringLanes(input, p),
      review_gate: reviewGate(input, p),
    };
  }
  const r: AuthoringReport = { generic: g.dimensions, genericHard: g.hard_failures, dims };
  memo.set(input, r);
  return r;
}

function fromGeneric(name: string, weight: number, genericName = name): DimensionDef {
  return {
    name,
    weight,
    description: `the generic rubric's ${genericName}`,
    evaluate: (input) => {
      const d = report(input).generic.find((x) => x.name === genericName);
      if (d === undefined) throw new Error(`generic rubric has no ${genericName}`);
      return d.score === null
        ? { checks: d.checks, reason: d.reason, na: d.reason }
        : { checks: d.checks, score: d.score, reason: d.reason };
    },
  };
}

function pkgDim(name: string, weight: number, description: string): DimensionDef {
  return {
    name,
    weight,
    description,
    evaluate: (input) =>
      report(input).dims[name]?.eval ?? { checks: [], score: 0, reason: "not evaluated" },
  };
}

export const authoringSkillProfile: RubricProfile = {
  name: "authoring-skill",
  description:
    "Rubric for runs that author a workflow Skill package: generic results plus package, route, lanes and review checks.",
  emptyChecks: { score: 0, reason: "no checks" },
  interaction: { mode: "auto_user", max_turns: 8, simulator_prompt: GENERIC_SIMULATOR_PROMPT },
  dimensions: [
    fromGeneric("completion", 1.5),
    fromGeneric("skill_invocation", 1.0),
    fromGeneric("artifact_presence", 1.0),
    pkgDim(
      "generated_package",
      1.4,
      "SKILL.md describes route, decision points, references and recovery",
    ),
    pkgDim("resolved_skill_evidence", 1.2, "reference/resolved-skills.json has sourceSummaries"),
    pkgDim("engine_contract", 1.2, "comet/ engine files complete, no legacy evals.yaml"),
    pkgDim("workflow_route_conformance", 1.5, "route, node Skills and eval.yaml agree"),
    pkgDim("authoring_lanes", 1.2, "every authoring lane present and reviewed"),
    pkgDim("review_gate", 0.8, "skill-review.md passed, no blocking findings"),
    {
      name: "review_readiness",
      weight: 0.8,
      description: "the generic rubric produced no hard failure",
      evaluate: (input) => {
        const n = report(input).genericHard.length;
        return {
          checks: [{ name: "no generic hard failure", passed: n === 0 }],
          reason: n === 0 ? "no generic hard failures" : `${n} generic hard failures`,
        };
      },
    },
    fromGeneric("safety_boundary", 1.2),
  ],
  hardFailures: (input, dims) => {
    const r = report(input);
    const pkgFailures = Object.values(r.dims).flatMap((d) => d.failures);
    // Listed once each (the original lists a lanes review that did not pass twice).
    return [...new Set([...requiredSkillFailures(input, dims), ...pkgFailures])];
  },
};
