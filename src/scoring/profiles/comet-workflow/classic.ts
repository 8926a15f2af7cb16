import { countAsks, decisionPointCompliance } from "./decision-points.js";
import type { DimensionEvaluation, RubricCheck, ScoringInput } from "../../types.js";
import { WORKFLOW_PHASES, escapeRegExp, rec, sameDigest, str } from "./context.js";
import type { CometContext, SdkRun } from "./context.js";

/** The Classic (non-Native) comet-workflow dimensions (docs/rubrics.md, comet-workflow). Pure. */

export const ENTRY_SKILLS = ["comet", "comet-classic"];
export const STAGE_SKILLS = [
  "comet-open",
  "comet-design",
  "comet-build",
  "comet-verify",
  "comet-archive",
  "comet-hotfix",
  "comet-tweak",
];
export const SUPERPOWERS_SKILLS = [
  "brainstorming",
  "dispatching-parallel-agents",
  "executing-plans",
  "finishing-a-development-branch",
  "requesting-code-review",
  "subagent-driven-development",
  "systematic-debugging",
  "test-driven-development",
  "using-git-worktrees",
  "verification-before-completion",
  "writing-plans",
];

const GUARD_RE = /comet-guard\b|\bcomet(?:\.sh)?\s+guard\b/g;
const TRANSITION_RE = /transition\s+\S+\s+(?:open|design|build|verify|archive)/g;
const APPLY_RE = /--apply\b/g;
const SPEC_SYNC_RE =
  /\b(?:openspec\s+(?:sync|archive)|comet\s+classic\s+openspec\s+--\s+(?:sync|archive))\b/;

function hits(re: RegExp, text: string): number {
  return [...text.matchAll(new RegExp(re.source, "g"))].length;
}

function passed(checks: readonly RubricCheck[]): number {
  return checks.filter((c) => c.passed).length;
}

function phaseRegexes(ctx: CometContext): Record<string, RegExp[]> {
  const c = escapeRegExp(ctx.changesRoot);
  const o = escapeRegExp(ctx.openspecRoot);
  const at = (s: string): RegExp => new RegExp(`(?:^|/)${s}`);
  return {
    open: [
      at(`${c}/[^/]+/(?:proposal|tasks)\\.md`),
      at(`${c}/archive/[^/]+/(?:proposal|tasks)\\.md`),
    ],
    design: [at("docs/superpowers/specs/.+\\.md"), at(`${c}/(?:archive/)?[^/]+/design\\.md`)],
    build: [
      at(`${c}/(?:archive/)?[^/]+/plan\\.md`),
      at("docs/superpowers/plans/.+\\.md"),
      at(`${c}/(?:archive/)?[^/]+/\\.comet/`),
    ],
    verify: [
      at(`${c}/(?:archive/)?[^/]+/verification\\.md`),
      at("docs/superpowers/reports/.+\\.md"),
    ],
    archive: [at(`${c}/archive/`), at(`${o}/archive/`)],
  };
}

export function mainFlow(input: ScoringInput, ctx: CometContext): DimensionEvaluation {
  const hay = [...input.evidence.files_created, ...input.evidence.files_modified, ...ctx.files];
  const res = phaseRegexes(ctx);
  const phases = WORKFLOW_PHASES[ctx.workflow];
  const checks = phases.map((p) => ({
    name: `phase ${p}`,
    passed: (res[p] ?? []).some((re) => hay.some((h) => re.test(h))),
  }));
  const seen = checks.filter((c) => c.passed).map((c) => c.name.slice("phase ".length));
  return {
    checks,
    reason: `workflow=${ctx.workflow} ${seen.length}/${phases.length} phases (${seen.length > 0 ? seen.join(", ") : "none"})`,
  };
}

function succeededSteps(run: SdkRun): Set<string> {
  const out = new Set<string>();
  for (const a of run.actions) {
    const id = str(a, "stepId");
    if (id !== undefined && str(a, "status") === "succeeded") out.add(id);
  }
  return out;
}

function requiredSdkChecks(ctx: CometContext): string[] {
  const p = ctx.workflow;
  return [
    ...(p === "full" ? ["full.open.revalidate"] : []),
    `${p}.build.check`,
    `${p}.verify.check`,
    `${p}.archive.preflight`,
  ];
}

export function gateGuard(input: ScoringInput, ctx: CometContext): DimensionEvaluation {
  const text = input.evidence.commands_run.join("\n");
  const g = hits(GUARD_RE, text);
  const a = hits(APPLY_RE, text);
  if (ctx.sdk.mode === "valid") {
    const ok = succeededSteps(ctx.sdk.run);
    const req = requiredSdkChecks(ctx);
    const acc = req.filter((r) => ok.has(r)).length;
    const checks = [
      { name: "guard command seen", passed: g > 0 },
      { name: "required checks succeeded", passed: acc === req.length },
      { name: "--apply seen", passed: a > 0 },
    ];
    return { checks, reason: `SDK guard=${g} accepted_checks=${acc}/${req.length} apply=${a}` };
  }
  if (input.evidence.commands_run.length === 0)
    return { checks: [], score: 0, reason: "no commands captured" };
  const t = hits(TRANSITION_RE, text);
  const checks = [
    { name: "guard command seen", passed: g > 0 },
    { name: "transition command seen", passed: t > 0 },
    { name: "--apply seen", passed: a > 0 },
  ];
  return { checks, reason: `guard=${g} transition=${t} apply=${a}` };
}

export function skillInvocation(input: ScoringInput): DimensionEvaluation {
  const inv = input.evidence.skills_invoked;
  if (inv.length === 0) return { checks: [], score: 0, reason: "no skills invoked" };
  const entry = inv.filter((s) => ENTRY_SKILLS.includes(s));
  const stage = inv.filter((s) => STAGE_SKILLS.includes(s));
  const openspec = inv.filter((s) => s.startsWith("openspec-"));
  const sp = inv.filter((s) => SUPERPOWERS_SKILLS.includes(s));
  const firstEntry = inv.findIndex((s) => ENTRY_SKILLS.includes(s));
  const firstStage = inv.findIndex((s) => STAGE_SKILLS.includes(s));
  const order =
    firstEntry < 0 || firstStage < 0
      ? "missing"
      : firstEntry < firstStage
        ? "entry-before-stage"
        : "stage-before-entry";
  const list = (xs: string[]): string => (xs.length > 0 ? xs.join(",") : "none");
  const checks = [
    { name: "entry skill (comet or comet-classic)", passed: entry.length > 0 },
    { name: "comet stage skill", passed: stage.length > 0 },
    { name: "openspec-* skill", passed: openspec.length > 0 },
    { name: "superpowers dependency skill", passed: sp.length > 0 },
    { name: "entry before first stage skill", passed: order === "entry-before-stage" },
  ];
  return {
    checks,
    reason: `entry=${list(entry)} comet_stage=${list(stage)} openspec=${list(openspec)} superpowers=${list(sp)} order=${order}`,
  };
}

/** `### Requirement:` blocks under `## ADDED|MODIFIED|REMOVED Requirements`. */
function requirementBlocks(
  spec: string,
): { kind: "ADDED" | "MODIFIED" | "REMOVED"; heading: string; text: string }[] {
  const out: { kind: "ADDED" | "MODIFIED" | "REMOVED"; heading: string; text: string }[] = [];
  let kind: "ADDED" | "MODIFIED" | "REMOVED" | null = null;
  let cur: { kind: "ADDED" | "MODIFIED" | "REMOVED"; heading: string; lines: string[] } | null =
    null;
  const flush = (): void => {
    if (cur) out.push({ kind: cur.kind, heading: cur.heading, text: cur.lines.join("\n") });
    cur = null;
  };
  for (const line of spec.split(/\r?\n/)) {
    const h2 = /^##\s+(ADDED|MODIFIED|REMOVED)\s+Requirements\b/i.exec(line);
    if (h2?.[1] !== undefined) {
      flush();
      const k = h2[1].toUpperCase();
      kind = k === "ADDED" || k === "MODIFIED" || k === "REMOVED" ? k : null;
      continue;
    }
    if (/^##\s/.test(line)) {
      flush();
      kind = null;
      continue;
    }
    if (/^###\s+Requirement:/.test(line)) {
      flush();
      if (kind !== null) cur = { kind, heading: line.trim(), lines: [line] };
      continue;
    }
    if (/^###\s/.test(line)) {
      flush();
      continue;
    }
    if (cur) cur.lines.push(line);
  }
  flush();
  return out;
}

function norm(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}

function sdkSpecSynced(
  input: ScoringInput,
  ctx: CometContext,
  run: SdkRun,
  deltas: string[],
): boolean {
  const change = ctx.changeDir ?? "";
  const archived = run.actions.some((a) => {
    if (str(a, "stepId") !== `${ctx.workflow}.archive.execute` || str(a, "status") !== "succeeded")
      return false;
    const out = rec(a.output);
    return out !== undefined && str(out, "archiveDirectory") === change;
  });
  if (!archived) return false;
  for (const d of deltas) {
    const cap = d.slice(`${change}/specs/`.length).split("/")[0] ?? "";
    const delta = input.workspace.read(d);
    const canonical = input.workspace.read(`${ctx.openspecRoot}/specs/${cap}/spec.md`);
    if (delta === null || canonical === null) return false;
    const canon = norm(canonical);
    for (const b of requirementBlocks(delta)) {
      if (b.kind === "REMOVED" ? canon.includes(norm(b.heading)) : !canon.includes(norm(b.text)))
        return false;
    }
  }
  return true;
}

export function specDrift(input: ScoringInput, ctx: CometContext): DimensionEvaluation {
  if (ctx.sdk.mode === "valid" && ctx.changeDir !== null) {
    const re = new RegExp(`^${escapeRegExp(ctx.changeDir)}/specs/[^/]+/spec\\.md$`);
    const deltas = ctx.files.filter((f) => re.test(f));
    if (deltas.length === 0) return { checks: [], score: 1, reason: "no delta spec needed (n/a)" };
    const synced = sdkSpecSynced(input, ctx, ctx.sdk.run, deltas);
    return {
      checks: [
        { name: "delta spec written", passed: true },
        { name: "delta spec synced", passed: synced },
      ],
      reason: `SDK spec_written=True spec_synced=${synced ? "True" : "False"}`,
    };
  }
  const touched = [...input.evidence.files_created, ...input.evidence.files_modified].some(
    (p) => p.includes("specs/") && p.includes("openspec/changes"),
  );
  if (!touched) return { checks: [], score: 1, reason: "no delta spec needed (n/a)" };
  const synced = SPEC_SYNC_RE.test(input.evidence.commands_run.join("\n"));
  return {
    checks: [
      { name: "delta spec written", passed: true },
      { name: "delta spec synced", passed: synced },
    ],
    reason: `spec_written=True spec_synced=${synced ? "True" : "False"}`,
  };
}

export function completionOf(
  list: { passed: string[]; failed: string[] },
  none: string,
  na: boolean,
): DimensionEvaluation {
  const checks = [
    ...list.passed.map((name) => ({ name, passed: true })),
    ...list.failed.map((name) => ({ name, passed: false })),
  ];
  if (checks.length === 0)
    return na ? { checks, reason: none, na: none } : { checks, score: 0, reason: none };
  return { checks, reason: `${passed(checks)}/${checks.length} baseline checks passed` };
}

function sdkDecision(input: ScoringInput, run: SdkRun): DimensionEvaluation {
  const open = run.waits.filter((w) => str(w, "status") !== "cancelled");
  const resolved = open.filter((w) => {
    const d = rec(w.decision);
    if (d === undefined) return false;
    const id = str(d, "id");
    const choices = Array.isArray(w.choices) ? w.choices : [];
    return (
      id !== undefined &&
      id !== "" &&
      choices.includes(d.choice) &&
      sameDigest(d.proposalHash, w.proposal)
    );
  }).length;
  const a = countAsks(input);
  const checks = [
    { name: "every wait resolved with a valid decision", passed: resolved === open.length },
    { name: "host replies + asks >= waits", passed: a.total >= open.length },
  ];
  const ok = checks.every((c) => c.passed);
  return {
    checks,
    score: ok ? 1 : 0,
    reason: `SDK waits=${open.length} resolved=${resolved} asks=${a.total}`,
  };
}

export function decisionCompliance(input: ScoringInput, ctx: CometContext): DimensionEvaluation {
  if (ctx.sdk.mode === "valid") return sdkDecision(input, ctx.sdk.run);
  return decisionPointCompliance(input, ctx.workflow);
}

const DESIGN_KEYWORDS = [
  "tradeoff",
  "alternative",
  "risk",
  "consider",
  "option",
  "权衡",
  "替代",
  "风险",
  "考虑",
  "方案",
];
const CHECKBOX_RE = /- \[[ x]\]/g;

export function artifactQuality(input: ScoringInput, ctx: CometContext): DimensionEvaluation {
  const dir = ctx.qualityDir;
  if (dir === null) return { checks: [], score: 0, reason: "no openspec change directory" };
  const full = ctx.workflow === "full";
  const checks: RubricCheck[] = [];
  const parts: string[] = [`workflow=${ctx.workflow}`];
  const proposal = input.workspace.read(`${dir}/proposal.md`);
  const pOk = proposal !== null && (proposal.match(/\n/g) ?? []).length >= 10;
  checks.push({ name: "proposal.md has >= 10 lines", passed: pOk });
  parts.push(`proposal=${proposal === null ? "missing" : pOk ? "ok" : "thin"};`);
  if (full) {
    const design = input.workspace.read(`${dir}/design.md`);
    const lower = design?.toLowerCase() ?? "";
    const kw = DESIGN_KEYWORDS.filter((k) => lower.includes(k)).length;
    checks.push({
      name: "design.md weighs >= 2 tradeoff keywords",
      passed: design !== null && kw >= 2,
    });
    parts.push(`design=${design === null ? "missing" : kw >= 2 ? "deep" : "shallow"};`);
  }
  const tasks = input.workspace.read(`${dir}/tasks.md`);
  if (tasks !== null) {
    const boxes = (tasks.match(CHECKBOX_RE) ?? []).length;
    const need = full ? 3 : 1;
    checks.push({ name: `tasks.md has >= ${need} checkboxes`, passed: boxes >= need });
    parts.push(`tasks=${boxes} boxes;`);
  }
  const testFiles = ctx.files.filter((f) => /(?:^|\/)test_[^/]*\.py$/.test(f));
  if (ctx.workflow !== "tweak" || testFiles.length > 0) {
    const withAssert = testFiles.some((f) => (input.workspace.read(f) ?? "").includes("assert"));
    checks.push({ name: "a test_*.py contains assert", passed: withAssert });
    parts.push(`tests=${withAssert ? "w/ assert" : testFiles.length > 0 ? "no assert" : "none"}`);
  }
  return { checks, reason: parts.join(" ").replace(/;$/, "") };
}

function nonEmptyJson(text: string | null): boolean {
  if (text === null) return false;
  const t = text.trim();
  if (t === "") return false;
  try {
    const v: unknown = JSON.parse(t);
    if (Array.isArray(v)) return v.length > 0;
    if (typeof v === "object" && v !== null) return Object.keys(v).length > 0;
    return v !== null;
  } catch {
    return true;
  }
}

function hasKeys(text: string | null, keys: readonly string[]): boolean {
  if (text === null) return false;
  try {
    const v = rec(JSON.parse(text));
    return v !== undefined && keys.every((k) => k in v);
  } catch {
    return false;
  }
}

const KNOWN_DONE = ["succeeded", "failed", "skipped", "cancelled"];

function sdkRecovery(input: ScoringInput, ctx: CometContext, run: SdkRun): DimensionEvaluation {
  const history = run.history ?? [];
  const historyOk = run.actions.every((a) => {
    const id = str(a, "id");
    const last = [...history].reverse().find((h) => id !== undefined && str(h, "actionId") === id);
    const outcome = last === undefined ? undefined : rec(last.outcome);
    return outcome !== undefined && str(outcome, "status") === str(a, "status");
  });
  const settled =
    run.actions.every((a) => KNOWN_DONE.includes(str(a, "status") ?? "unknown")) &&
    run.waits.every((w) => str(w, "status") !== "pending");
  const checks = [
    { name: "SDK checkpoint valid", passed: true },
    { name: "history outcome matches every action", passed: historyOk },
    { name: "no pending/running/unknown actions or pending waits", passed: settled },
    { name: "run completed", passed: run.status === "completed" },
  ];
  if (ctx.workflow === "full") {
    const ctxFile = ctx.files.some(
      (f) => f.startsWith(`${ctx.changeDir ?? ""}/.comet/`) && /\/context\.[^/]+$/.test(f),
    );
    checks.push({ name: "context snapshot", passed: rec(run.context) !== undefined || ctxFile });
  }
  return { checks, reason: `SDK ${passed(checks)}/${checks.length} recovery checks` };
}

export function recoveryResilience(input: ScoringInput, ctx: CometContext): DimensionEvaluation {
  const dir = ctx.changeDir;
  if (dir === null) return { checks: [], score: 0, reason: "no comet change directory" };
  if (ctx.sdk.mode === "valid") return sdkRecovery(input, ctx, ctx.sdk.run);
  const cdir = `${dir}/.comet`;
  const under = ctx.files
    .filter((f) => f.startsWith(`${cdir}/`))
    .map((f) => f.slice(cdir.length + 1));
  const ws = input.workspace;
  let checkpoint: "ok" | "state" | "missing" = "missing";
  if (
    hasKeys(ws.read(`${cdir}/checkpoint.json`), [
      "runId",
      "contextHash",
      "artifactsHash",
      "createdAt",
    ])
  )
    checkpoint = "ok";
  else if (under.includes("state-events.jsonl") || under.includes("run-state.json"))
    checkpoint = "state";
  const trajectory = under.some((f) => /(?:^|\/)trajectory[^/]*\.jsonl$/.test(f));
  const context = under.some(
    (f) => /(?:^|\/)context\.[^/]+$/.test(f) || /^handoff\/[^/]+\.(?:md|json)$/.test(f),
  );
  const pending = under.filter(
    (f) => /(?:^|\/)pending[^/]*\.json$/.test(f) && nonEmptyJson(ws.read(`${cdir}/${f}`)),
  ).length;
  let state: "phase" | "run-state" | "missing" = "missing";
  if (/phase:\s*\w+/.test(ws.read(`${dir}/.comet.yaml`) ?? "")) state = "phase";
  else {
    const rs = ws.read(`${cdir}/run-state.json`);
    try {
      const v = rs === null ? undefined : rec(JSON.parse(rs));
      if (
        v !== undefined &&
        (v.status === "completed" || (v.currentStep !== undefined && v.currentStep !== null))
      )
        state = "run-state";
    } catch {
      // unreadable run-state: stays missing
    }
  }
  const checks: RubricCheck[] = [
    { name: "checkpoint or state log", passed: checkpoint !== "missing" },
    { name: "trajectory*.jsonl", passed: trajectory },
  ];
  if (ctx.workflow === "full")
    checks.push({ name: "context or handoff snapshot", passed: context });
  checks.push({ name: "no non-empty pending*.json", passed: pending === 0 });
  checks.push({ name: ".comet.yaml phase or run-state", passed: state !== "missing" });
  const reason = [
    `checkpoint=${checkpoint}`,
    `trajectory=${trajectory ? "ok" : "missing"}`,
    ...(ctx.workflow === "full" ? [`context=${context ? "ok" : "missing"}`] : []),
    `pending=${pending}`,
    `state=${state}`,
  ].join(" ");
  return { checks, reason };
}
