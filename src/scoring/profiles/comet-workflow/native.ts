import { parse as parseYaml } from "yaml";
import type { DimensionEvaluation, RubricCheck, ScoringInput } from "../../types.js";
import { NATIVE_STATE_RE, rec, str } from "./context.js";
import type { CometContext } from "./context.js";

/** The Native path of the comet-workflow rubric (docs/rubrics.md, Native path). Pure. */

const NATIVE_SCHEMA = "comet.native.v4";
const NATIVE_PHASES = ["shape", "build", "verify", "archive"];
const NATIVE_COMMAND_RE = /comet(?:-native|\s+native)/;
const LEGACY_TOKEN_RE = /\b(?:checkpoint|preflight|receipt|evidence)\b/;

interface NativeState {
  file: string;
  dir: string;
  state: Record<string, unknown> | undefined;
}

/** The latest Native state file: the last `docs/comet/**\/comet-state.yaml` in path order. */
function latestNativeState(input: ScoringInput, ctx: CometContext): NativeState | null {
  const file = ctx.files
    .filter((f) => NATIVE_STATE_RE.test(f))
    .sort()
    .at(-1);
  if (file === undefined) return null;
  let state: Record<string, unknown> | undefined;
  try {
    state = rec(parseYaml(input.workspace.read(file) ?? ""));
  } catch {
    state = undefined;
  }
  return { file, dir: file.slice(0, file.lastIndexOf("/")), state };
}

export function nativeMainFlow(input: ScoringInput, ctx: CometContext): DimensionEvaluation {
  const s = latestNativeState(input, ctx);
  if (s?.state === undefined || str(s.state, "schema") !== NATIVE_SCHEMA)
    return { checks: [], score: 0, reason: "no beta17 portable state" };
  const phase = str(s.state, "phase") ?? "";
  if (!NATIVE_PHASES.includes(phase))
    return { checks: [], score: 0, reason: "invalid Native phase" };
  return {
    checks: [{ name: "Native state with a valid phase", passed: true }],
    reason: `Native phase=${phase}`,
  };
}

export function nativeGateGuard(input: ScoringInput): DimensionEvaluation {
  const native = input.evidence.commands_run.filter((c) => NATIVE_COMMAND_RE.test(c));
  const legacy = native.filter((c) => LEGACY_TOKEN_RE.test(c)).length;
  const checks = [
    { name: "comet native command seen", passed: native.length > 0 },
    { name: "no legacy checkpoint/preflight/receipt/evidence tokens", passed: legacy === 0 },
  ];
  return { checks, reason: `native_commands=${native.length} legacy_tokens=${legacy}` };
}

function isArchived(s: NativeState): boolean {
  return (
    (s.state !== undefined && str(s.state, "phase") === "archive") ||
    s.dir.split("/").includes("archive")
  );
}

export function nativeArtifactQuality(input: ScoringInput, ctx: CometContext): DimensionEvaluation {
  const s = latestNativeState(input, ctx);
  if (s === null) return { checks: [], score: 0, reason: "no Native change directory" };
  const has = (re: RegExp): boolean =>
    ctx.files.some((f) => f.startsWith(`${s.dir}/`) && re.test(f.slice(s.dir.length + 1)));
  const checks: RubricCheck[] = [
    { name: "comet-state.yaml", passed: true },
    { name: "brief.md", passed: has(/^brief\.md$/) },
    { name: "specs/**/spec.md", passed: has(/^specs\/(?:.+\/)?spec\.md$/) },
  ];
  if (isArchived(s)) checks.push({ name: "verification.md", passed: has(/^verification\.md$/) });
  const list = checks.filter((c) => !c.passed).map((c) => c.name);
  return {
    checks,
    reason: `Native ${s.dir}: ${list.length === 0 ? "all artifacts present" : `missing ${list.join(", ")}`}`,
  };
}

export function nativeRecovery(input: ScoringInput, ctx: CometContext): DimensionEvaluation {
  const s = latestNativeState(input, ctx);
  if (s === null) return { checks: [], score: 0, reason: "no Native change directory" };
  const st = s.state ?? {};
  const loop = rec(st.loop);
  const history = st.history;
  const checks = [
    { name: `schema ${NATIVE_SCHEMA}`, passed: str(st, "schema") === NATIVE_SCHEMA },
    {
      name: "loop.iteration is an integer",
      passed: loop !== undefined && Number.isInteger(loop.iteration),
    },
    {
      name: "history is a list of <= 50 entries",
      passed: Array.isArray(history) && history.length <= 50,
    },
  ];
  return { checks, reason: `Native ${checks.filter((c) => c.passed).length}/3 recovery checks` };
}
