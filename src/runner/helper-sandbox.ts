import type { RunPlan } from "../plan/run-plan.js";
import type { HelperSandbox } from "../sandbox/types.js";
import type { RunContext } from "./context.js";

/**
 * The sandbox of a run's helper agents (the judge through an agent CLI, the simulated user): the
 * kind the run resolved, around the helper's own private folders, with its own model endpoint
 * relayed as the subject's is (docs/sandbox.md, "Agents started beside the runs"). Says which
 * sandbox the helper got (once per experiment: the context's notes are said once), and `local`
 * with the run's warning. A sandbox that fails to start is stopped and the error thrown.
 */
export function helperSandbox(
  ctx: RunContext,
  plan: RunPlan,
  who: { name: string; role: "judge" | "simulator" },
  environmentDir: string | null,
): HelperSandbox {
  const { kind, why } = plan.sandbox;
  return async ({ dirs, agentBin, modelEndpoint }) => {
    ctx.note(
      kind === "local"
        ? `warning: sandbox for the ${who.name}: ${why}`
        : `sandbox for the ${who.name}: ${kind} (${why})`,
    );
    const sandbox = await ctx.sandboxes.create(kind, {
      runDirs: dirs,
      // docker: the run's image (already built for its agent); the helper gets none of its files.
      task: { environmentDir },
      agentBin,
      resultsDir: ctx.store.outDir,
      modelEndpoint,
      localModelServer: ctx.models.local,
      runName: `${plan.run_id}-${who.role}`,
      experimentId: ctx.store.experimentId,
      why,
      signal: ctx.signal,
    });
    try {
      await sandbox.start();
    } catch (e) {
      await sandbox.stop();
      throw e;
    }
    return sandbox;
  };
}
