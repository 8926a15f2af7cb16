import type { JudgeWorkspace, ProfileJudge } from "../../types.js";

/**
 * The comet judge (docs/judge.md, Prompts): it reads the artifacts of the run's change through
 * the judge's `JudgeWorkspace`. Unlike the original, both layouts are searched:
 * `openspec/changes/` and `docs/openspec/changes/`.
 */
const CHANGE_ROOTS = ["openspec/changes", "docs/openspec/changes"];
export const NO_CHANGE_DIR_REASON =
  "no change directory (a folder holding proposal.md) under openspec/changes/ or docs/openspec/changes/";

export const COMET_DIMENSIONS = ["artifact_quality", "spec_drift", "main_flow"] as const;

export interface CometArtifacts {
  /** Relative to the workspace, POSIX separators. */
  changeDir: string;
  proposal: string;
  design: string;
  tasks: string;
  report: string;
  spec: string;
}

const MAIN_CHARS = 4000;
const EXTRA_CHARS = 2000;

async function hasFile(ws: JudgeWorkspace, rel: string): Promise<boolean> {
  return (await ws.readText(rel)) !== null;
}

/** The first change folder holding proposal.md; else any archived change; else null. */
async function findChangeDir(ws: JudgeWorkspace): Promise<string | null> {
  for (const base of CHANGE_ROOTS) {
    for (const d of (await ws.subdirs(base)).filter((n) => n !== "archive")) {
      if (await hasFile(ws, `${base}/${d}/proposal.md`)) return `${base}/${d}`;
    }
    for (const d of await ws.subdirs(`${base}/archive`)) {
      if (await hasFile(ws, `${base}/archive/${d}/proposal.md`)) return `${base}/archive/${d}`;
    }
  }
  for (const base of CHANGE_ROOTS) {
    const first = (await ws.subdirs(`${base}/archive`))[0];
    if (first !== undefined) return `${base}/archive/${first}`;
  }
  return null;
}

async function firstSpec(ws: JudgeWorkspace, rel: string, depth = 0): Promise<string | null> {
  if (depth > 6) return null;
  if (await hasFile(ws, `${rel}/spec.md`)) return `${rel}/spec.md`;
  for (const d of await ws.subdirs(rel)) {
    const found = await firstSpec(ws, `${rel}/${d}`, depth + 1);
    if (found) return found;
  }
  return null;
}

async function readCapped(ws: JudgeWorkspace, rel: string, max: number): Promise<string | null> {
  const text = await ws.readText(rel);
  return text !== null ? text.slice(0, max) : null;
}

/** Read the artifacts of the change, or null when there is no change folder. */
async function readCometArtifacts(ws: JudgeWorkspace): Promise<CometArtifacts | null> {
  const changeDir = await findChangeDir(ws);
  if (changeDir === null) return null;
  const proposal = await readCapped(ws, `${changeDir}/proposal.md`, MAIN_CHARS);
  let design = await readCapped(ws, `${changeDir}/design.md`, MAIN_CHARS);
  if (design === null) {
    const spec = (await ws.files("docs/superpowers/specs", ".md"))[0];
    if (spec !== undefined) design = await readCapped(ws, spec, MAIN_CHARS);
  }
  const tasks = await readCapped(ws, `${changeDir}/tasks.md`, MAIN_CHARS);
  const reportFile = (await ws.files("docs/superpowers/reports", ".md"))[0];
  const report = reportFile !== undefined ? await readCapped(ws, reportFile, EXTRA_CHARS) : null;
  const specFile = await firstSpec(ws, changeDir);
  const spec = specFile !== null ? await readCapped(ws, specFile, EXTRA_CHARS) : null;
  return {
    changeDir,
    proposal: proposal ?? "(missing: proposal.md)",
    design: design ?? "(missing: design.md)",
    tasks: tasks ?? "(missing: tasks.md)",
    report: report ?? "(none)",
    spec: spec ?? "(none)",
  };
}

/** The comet prompt up to its answer format, which the judge appends. Pure. */
export function buildCometPrompt(a: CometArtifacts): string {
  return [
    "You are an impartial judge scoring a software-development workflow run.",
    `Read the artifacts of the change in ${a.changeDir} and score three dimensions from 0.00 to 1.00.`,
    "",
    "Criteria:",
    "- artifact_quality: 1.0 = the proposal states a real problem, goals, scope and non-goals; the design weighs at least 2 alternatives with trade-offs and risks; tasks are actionable; tests have real assertions. 0.5 = shallow or boilerplate. 0.0 = missing.",
    "- spec_drift: 1.0 = delta specs reconciled with the implementation; 0.9 = no spec change was needed; 0.5 = unreconciled drift; 0.0 = contradicts the implementation.",
    "- main_flow: 1.0 = evidence of all 5 workflow phases; 0.5 = 2-3 phases; 0.0 = fewer than 2.",
    "",
    "=== proposal.md ===",
    a.proposal,
    "",
    "=== design.md ===",
    a.design,
    "",
    "=== tasks.md ===",
    a.tasks,
    "",
    "=== report ===",
    a.report,
    "",
    "=== spec.md ===",
    a.spec,
  ].join("\n");
}

/** comet-workflow's judge: the change's artifacts, three dimensions; no change folder, no call. */
export const cometJudge: ProfileJudge = {
  kind: "comet",
  dimensions: COMET_DIMENSIONS,
  prompt: async (ws) => {
    const artifacts = await readCometArtifacts(ws);
    if (artifacts === null) return { skipped: NO_CHANGE_DIR_REASON };
    return { prompt: buildCometPrompt(artifacts) };
  },
};
