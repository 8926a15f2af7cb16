import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { canonicalJson, sha256 } from "../../../util/hash.js";
import { CONTROL_TREATMENT } from "./checks-split.js";
import type { ScoringInput } from "../../types.js";

/**
 * What the comet-workflow dimensions share: layout, change folder, workflow kind, SDK
 * checkpoint and Native detection (docs/rubrics.md, comet-workflow). Pure: everything comes from the input.
 */

export type WorkflowKind = "full" | "hotfix" | "tweak";
export const WORKFLOW_PHASES: Record<WorkflowKind, readonly string[]> = {
  full: ["open", "design", "build", "verify", "archive"],
  hotfix: ["open", "build", "verify", "archive"],
  tweak: ["open", "build", "verify", "archive"],
};

const CLASSIC_CHANGES_ROOT = "openspec/changes";
const DOCS_CHANGES_ROOT = "docs/openspec/changes";
const DOCS_LAYOUT_TREATMENT = "COMET_CLASSIC_DOCS_LAYOUT";
const SDK_HEADER = "# comet-execution: managed-run\n";
const SDK_CHECKPOINT_SCHEMA = "comet.workflow-run-checkpoint.v1";

const MARKERS = [".comet.yaml", "proposal.md", "tasks.md"];

const SdkRunSchema = z
  .object({
    protocolVersion: z.literal(1),
    schemaVersion: z.literal(1),
    runId: z.string().min(1),
    status: z.string().optional(),
    workflow: z.object({ id: z.string() }).loose(),
    actions: z.array(z.record(z.string(), z.unknown())),
    waits: z.array(z.record(z.string(), z.unknown())),
    history: z.array(z.record(z.string(), z.unknown())).optional(),
    context: z.unknown().optional(),
  })
  .loose();
export type SdkRun = z.infer<typeof SdkRunSchema>;

const CheckpointSchema = z
  .object({ schema: z.string(), hash: z.string(), run: z.unknown() })
  .loose();

type SdkState =
  | { mode: "none" }
  | { mode: "valid"; run: SdkRun }
  | {
      mode: "invalid";
      reason:
        | "invalid or changed SDK checkpoint"
        | "SDK state is a symlink"
        | "unreadable SDK checkpoint";
    };

export interface CometContext {
  control: boolean;
  native: boolean;
  changesRoot: string;
  /** Parent of the changes root (`openspec` or `docs/openspec`). */
  openspecRoot: string;
  /** First change folder (active first, then archived), relative; null when none. */
  changeDir: string | null;
  /** First active change with proposal.md or tasks.md, else the first archived change. */
  qualityDir: string | null;
  workflow: WorkflowKind;
  sdk: SdkState;
  /** Every workspace file. */
  files: string[];
}

/** `sha256` hex of the canonical JSON; accepts a `sha256:` prefix when comparing. */
function digest(value: unknown): string {
  return sha256(canonicalJson(value));
}

export function sameDigest(claimed: unknown, value: unknown): boolean {
  if (typeof claimed !== "string") return false;
  return claimed.replace(/^sha256:/, "") === digest(value);
}

function changeDirs(
  files: readonly string[],
  root: string,
): { active: string[]; archived: string[] } {
  const active = new Set<string>();
  const archived = new Set<string>();
  const prefix = `${root}/`;
  for (const f of files) {
    if (!f.startsWith(prefix)) continue;
    const parts = f.slice(prefix.length).split("/");
    if (parts[0] === "archive") {
      if (parts.length >= 3 && parts[1] !== undefined) {
        const rest = parts.slice(2).join("/");
        if (MARKERS.includes(rest) || rest.startsWith(".comet/"))
          archived.add(`${root}/archive/${parts[1]}`);
      }
    } else if (parts.length >= 2 && parts[0] !== undefined) {
      const rest = parts.slice(1).join("/");
      if (MARKERS.includes(rest) || rest.startsWith(".comet/")) active.add(`${root}/${parts[0]}`);
    }
  }
  return { active: [...active].sort(), archived: [...archived].sort() };
}

function workflowKind(input: ScoringInput, changeDir: string | null): WorkflowKind {
  const invoked = input.evidence.skills_invoked;
  if (invoked.includes("comet-hotfix")) return "hotfix";
  if (invoked.includes("comet-tweak")) return "tweak";
  if (changeDir !== null) {
    const yaml = input.workspace.read(`${changeDir}/.comet.yaml`);
    const m =
      yaml === null
        ? null
        : /^\s*(?:workflow|classic_profile):\s*(full|hotfix|tweak)\b/m.exec(yaml);
    if (m?.[1] === "full" || m?.[1] === "hotfix" || m?.[1] === "tweak") return m[1];
  }
  for (const f of [
    changeDir === null ? null : `${changeDir}/.comet/state-events.jsonl`,
    ".comet/state-events.jsonl",
  ]) {
    if (f === null) continue;
    const text = input.workspace.read(f);
    const m = text === null ? null : /"workflow"\s*:\s*"(full|hotfix|tweak)"/.exec(text);
    if (m?.[1] === "full" || m?.[1] === "hotfix" || m?.[1] === "tweak") return m[1];
  }
  return "full";
}

function baseName(dir: string): string {
  return dir.slice(dir.lastIndexOf("/") + 1);
}

function sdkState(input: ScoringInput, changeDir: string | null, workflow: WorkflowKind): SdkState {
  if (changeDir === null) return { mode: "none" };
  const file = `${changeDir}/.comet.yaml`;
  const text = input.workspace.read(file);
  if (input.workspace.isSymlink(file)) {
    // Managed-run state must be a regular file. A link we cannot read (e.g. it leaves the
    // workspace) or that claims to be SDK state is refused; any other link is plain state.
    return text === null || text.replace(/\r\n/g, "\n").startsWith(SDK_HEADER)
      ? { mode: "invalid", reason: "SDK state is a symlink" }
      : { mode: "none" };
  }
  if (text === null) {
    return input.workspace.exists(file)
      ? { mode: "invalid", reason: "unreadable SDK checkpoint" }
      : { mode: "none" };
  }
  if (!text.replace(/\r\n/g, "\n").startsWith(SDK_HEADER)) return { mode: "none" };
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch {
    return { mode: "invalid", reason: "unreadable SDK checkpoint" };
  }
  if (typeof doc !== "object" || doc === null || !("run_checkpoint" in doc))
    return { mode: "invalid", reason: "invalid or changed SDK checkpoint" };
  const cp = CheckpointSchema.safeParse(doc.run_checkpoint);
  if (
    !cp.success ||
    cp.data.schema !== SDK_CHECKPOINT_SCHEMA ||
    !sameDigest(cp.data.hash, cp.data.run)
  ) {
    return { mode: "invalid", reason: "invalid or changed SDK checkpoint" };
  }
  const run = SdkRunSchema.safeParse(cp.data.run);
  if (!run.success) return { mode: "invalid", reason: "invalid or changed SDK checkpoint" };
  const dir = baseName(changeDir);
  const idOk = dir === run.data.runId || dir.endsWith(`-${run.data.runId}`);
  if (!idOk || run.data.workflow.id !== `comet-classic-${workflow}`)
    return { mode: "invalid", reason: "invalid or changed SDK checkpoint" };
  return { mode: "valid", run: run.data };
}

const NATIVE_CONFIG_FILES = [
  ".comet/config.yaml",
  ".comet/config.yml",
  "comet.config.yaml",
  "comet.yaml",
];
export const NATIVE_STATE_RE = /^docs\/comet\/(?:.+\/)?comet-state\.yaml$/;

function isNativeRun(input: ScoringInput, files: readonly string[]): boolean {
  const inv = input.evidence.skills_invoked;
  if (inv.includes("comet-native") && !inv.includes("comet-classic")) return true;
  if (input.task.required_skills.includes("comet-native")) return true;
  for (const f of NATIVE_CONFIG_FILES) {
    const t = input.workspace.read(f);
    if (t !== null && /^\s*default_workflow:\s*native\b/m.test(t)) return true;
  }
  return files.some((f) => NATIVE_STATE_RE.test(f));
}

const memo = new WeakMap<ScoringInput, CometContext>();

/** The run's comet context (computed once per scoring input). */
export function cometContext(input: ScoringInput): CometContext {
  const hit = memo.get(input);
  if (hit !== undefined) return hit;
  const ctx = computeContext(input);
  memo.set(input, ctx);
  return ctx;
}

function computeContext(input: ScoringInput): CometContext {
  const files = input.workspace.list();
  const classic = changeDirs(files, CLASSIC_CHANGES_ROOT);
  const docs = changeDirs(files, DOCS_CHANGES_ROOT);
  const docsLayout =
    input.treatment === DOCS_LAYOUT_TREATMENT ||
    (classic.active.length + classic.archived.length === 0 &&
      docs.active.length + docs.archived.length > 0);
  const changesRoot = docsLayout ? DOCS_CHANGES_ROOT : CLASSIC_CHANGES_ROOT;
  const dirs = docsLayout ? docs : classic;
  const changeDir = dirs.active[0] ?? dirs.archived[0] ?? null;
  const qualityDir =
    dirs.active.find(
      (d) => files.includes(`${d}/proposal.md`) || files.includes(`${d}/tasks.md`),
    ) ??
    dirs.archived[0] ??
    null;
  const workflow = workflowKind(input, changeDir);
  return {
    control: input.treatment === CONTROL_TREATMENT,
    native: isNativeRun(input, files),
    changesRoot,
    openspecRoot: changesRoot.slice(0, -"/changes".length),
    changeDir,
    qualityDir,
    workflow,
    sdk: sdkState(input, changeDir, workflow),
    files,
  };
}

/** Narrow helpers for SDK run records. */
export function str(r: Record<string, unknown>, k: string): string | undefined {
  const v = r[k];
  return typeof v === "string" ? v : undefined;
}

export function rec(v: unknown): Record<string, unknown> | undefined {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return undefined;
  return Object.fromEntries(Object.entries(v));
}

export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}
