import path from "node:path";

/** Where each file of a results folder lives. One key (the run id) joins them all. */
export function runDir(outDir: string, runId: string): string {
  return path.join(outDir, "runs", runId);
}

export function runPaths(outDir: string, runId: string) {
  const dir = runDir(outDir, runId);
  return {
    dir,
    report: path.join(dir, "report.json"),
    /** The run as settled before it started (src/plan/run-plan.ts). */
    plan: path.join(dir, "plan.json"),
    stdout: path.join(dir, "stdout.jsonl"),
    /** Arrival time (epoch ms) of each stdout.jsonl line, one per line (docs/telemetry.md). */
    stdoutTimes: path.join(dir, "stdout.times"),
    stderr: path.join(dir, "stderr.txt"),
    events: path.join(dir, "events.json"),
    validation: path.join(dir, "validation.json"),
    workspace: path.join(dir, "workspace"),
    /** Everything the workspace held at the end of the run, saved or not (core/workspace-manifest.ts). */
    manifest: path.join(dir, "workspace-manifest.json"),
    simulator: path.join(dir, "simulator.jsonl"),
    /** Files in the workspace before the agent ran (to tell created from modified on rescore). */
    baseline: path.join(dir, "baseline-files.json"),
  };
}

export function experimentPaths(outDir: string) {
  return {
    metadata: path.join(outDir, "metadata.json"),
    summary: path.join(outDir, "summary.md"),
    comparison: path.join(outDir, "comparison_report.md"),
    comparisonJson: path.join(outDir, "comparison.json"),
    modelLog: path.join(outDir, "model-requests.jsonl"),
    /** The parsed task and treatment specs of the run, for rescore. */
    suiteSnapshot: path.join(outDir, "suite.json"),
    /** A copy of the suite's profiles/ folder, for rescore. */
    profiles: path.join(outDir, "profiles"),
  };
}

/**
 * The `.skillbench` folder beside a results folder, where what outlives one experiment is kept
 * (the history store, the preflight's health cache): for the default results folder
 * `.skillbench/runs/<id>` it is that `.skillbench`; for `--out x/y`, `x/.skillbench`.
 */
export function besideResults(outDir: string): string {
  const parent = path.dirname(path.resolve(outDir));
  if (path.basename(parent) === "runs" && path.basename(path.dirname(parent)) === ".skillbench")
    return path.dirname(parent);
  return path.join(parent, ".skillbench");
}
