import { genericProfile, requiredSkillFailures } from "./generic-profile.js";
import { scoreRubric } from "./score-rubric.js";
import type {
  DimensionDef,
  DimensionEvaluation,
  DimensionResult,
  RubricCheck,
  RubricProfile,
  ScoringInput,
} from "./types.js";

/**
 * The authoring-skill rubric (facts 6.4): 11 dimensions over the generated Skill package at
 * `task.skill_package_path` (workspace-relative), re-using the generic rubric's completion,
 * skill_invocation, artifact_presence and safety_boundary results. Every failed package check
 * is also a hard failure. Pure.
 */

const REQUIRED_LANES = [
  "skill-core",
  "script-contract",
  "reference",
  "pause-points",
  "eval",
  "skill-review",
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

/** Lower-case, runs of anything but a-z0-9 become "-", no leading/trailing "-". */
function slug(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
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
      "SKILL.md does not describe the workflow route",
    ],
    [
      "decision points",
      /用户停顿点|decision point|stop/i.test(text),
      "SKILL.md does not name decision points",
    ],
    [
      "references workflow-protocol.json and resolved-skills.json",
      text.includes("reference/workflow-protocol.json") &&
        text.includes("reference/resolved-skills.json"),
      "SKILL.md does not reference reference/workflow-protocol.json and reference/resolved-skills.json",
    ],
    [
      "workflow-guard / workflow-state / 恢复",
      /workflow-guard|workflow-state|恢复/.test(text),
      "SKILL.md does not mention workflow-guard, workflow-state or 恢复",
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
  if (!j.ok) return fail("resolved-skills.json is not valid JSON");
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
    .map((c) => `${c.name.slice(0, -" present".length)} missing`);
  if (legacy) failures.push("legacy evals.yaml present");
  return fromChecks(checks, failures);
}

interface Protocol {
  name: string;
  route: string[];
}

function readProtocol(input: ScoringInput, pkg: string): Protocol | string {
  const text = input.workspace.read(join(pkg, "reference/workflow-protocol.json"));
  if (text === null) return "workflow-protocol.json missing";
  const j = parseJson(text);
  const top = j.ok ? obj(j.value) : undefined;
  if (top === undefined) return "workflow-protocol.json is not a JSON object";
  const wf = obj(top.workflow);
  const nameRaw = top.name ?? wf?.name ?? top.workflowName;
  const base = pkg.slice(pkg.lastIndexOf("/") + 1);
  const name = typeof nameRaw === "string" && nameRaw !== "" ? nameRaw : base;
  const nodes = Array.isArray(top.nodes) ? top.nodes : Array.isArray(wf?.nodes) ? wf.nodes : null;
  if (nodes === null) return "workflow-protocol.json has no nodes list";
  const route: string[] = [];
  for (const n of nodes) {
    const o = obj(n);
    if (o === undefined || typeof o.id !== "string")
      return "workflow-protocol.json has a node without an id";
    if (o.disabled !== true) route.push(o.id);
  }
  return { name, route };
}

function routeConformance(input: ScoringInput, pkg: string): PackageDim {
  const p = readProtocol(input, pkg);
  if (typeof p === "string")
    return {
      eval: {
        checks: [{ name: "workflow-protocol.json readable", passed: false }],
        score: 0,
        reason: p,
      },
      failures: [p],
    };
  const expected = input.task.route_conformance_expected_node_order ?? p.route;
  const checks: RubricCheck[] = [];
  const failures: string[] = [];
  const routeOk = expected.length === p.route.length && expected.every((x, i) => x === p.route[i]);
  checks.push({ name: "route equals the expected node order", passed: routeOk });
  if (!routeOk)
    failures.push(
      `workflow route mismatch: expected [${expected.join(", ")}], got [${p.route.join(", ")}]`,
    );
  const nodeSkillNames = p.route.map((id) => `${slug(p.name)}-${slug(id)}`);
  const nodePaths =
    input.task.generated_node_skills ??
    nodeSkillNames.map((n) => join(parentDir(pkg), `${n}/SKILL.md`));
  const missing = nodePaths.filter(
    (f) =>
      !(
        input.workspace.exists(f) &&
        (f.endsWith("SKILL.md") || input.workspace.exists(join(f, "SKILL.md")))
      ),
  );
  checks.push({ name: "every node Skill exists", passed: missing.length === 0 });
  if (missing.length > 0) failures.push(`internal Node Skill missing: ${missing.join(", ")}`);
  const evalYaml = input.workspace.read(join(pkg, "comet/eval.yaml"));
  if (evalYaml !== null) {
    const needed = [...p.route, ...nodeSkillNames, "workflow-route-conformance"];
    const ok = needed.every((x) => evalYaml.includes(x));
    checks.push({ name: "comet/eval.yaml lists the route", passed: ok });
    if (!ok) failures.push("comet/eval.yaml missing workflow-route-conformance route entries");
  }
  return fromChecks(
    checks,
    failures,
    `route=[${p.route.join(", ")}] ${checks.filter((c) => c.passed).length}/${checks.length} passed`,
  );
}

interface Lanes {
  lanes: string[];
  reviewPassed: boolean;
  blocking: number;
}

function readLanes(input: ScoringInput, pkg: string): Lanes | null {
  const j = parseJson(input.workspace.read(join(pkg, "reference/authoring-lanes.json")));
  const top = j.ok ? obj(j.value) : undefined;
  if (top === undefined) return null;
  const raw = top.lanes;
  let lanes: string[] = [];
  if (Array.isArray(raw)) {
    lanes = raw.flatMap((l) => {
      if (typeof l === "string") return [l];
      const o = obj(l);
      const id = o?.id ?? o?.name;
      return typeof id === "string" ? [id] : [];
    });
  } else if (obj(raw) !== undefined) lanes = Object.keys(obj(raw) ?? {});
  const review = obj(top.review);
  const bf = review?.blockingFindings ?? top.blockingFindings;
  const blocking = Array.isArray(bf) ? bf.length : typeof bf === "number" ? bf : 0;
  return { lanes, reviewPassed: review?.passed === true, blocking };
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
  const missing = REQUIRED_LANES.filter((x) => !l.lanes.includes(x));
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
  const l = readLanes(input, pkg);
  const mdOk = md !== null && /Review passed|审查通过|通过/i.test(md);
  const blocking = l?.blocking ?? 0;
  const checks = [
    { name: "skill-review.md reports a passed review", passed: mdOk },
    { name: "lanes review.passed", passed: l?.reviewPassed === true },
    { name: "no blocking findings", passed: blocking === 0 },
  ];
  const failures: string[] = [];
  if (!mdOk)
    failures.push(
      md === null ? "skill-review.md missing" : "skill-review.md does not report a passed review",
    );
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
    return [...requiredSkillFailures(input, dims), ...pkgFailures];
  },
};
