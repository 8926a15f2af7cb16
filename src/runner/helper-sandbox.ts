import type { RunPlan } from "../plan/run-plan.js";
import { createSandbox } from "../sandbox/index.js";
import type { HelperSandbox, SandboxKind, SandboxOptions } from "../sandbox/types.js";
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
  meter?: SandboxOptions["meter"],
): HelperSandbox {
  return startedSandbox(
    plan.sandbox.kind,
    {
      // docker: the run's image (already built for its agent); the helper gets none of its files.
      task: { environmentDir },
      resultsDir: ctx.store.outDir,
      localModelServer: ctx.models.local,
      runName: `${plan.run_id}-${who.role}`,
      experimentId: ctx.store.experimentId,
      why: plan.sandbox.why,
      signal: ctx.signal,
      meter,
    },
    { create: ctx.sandboxes.create, say: { who: `the ${who.name}`, note: ctx.note } },
  );
}

/**
 * A sandbox of `kind` around each agent call's folders (agents/call.ts), started: a run's helper
 * agents, and the agents called outside a run (`eval --generate`, `triggers`). Before it is made,
 * `say.note` is told which sandbox `say.who` gets (`local` with the run's warning, as runner/run-one.ts
 * says it); one that fails to start is stopped and the error thrown.
 */
export function startedSandbox(
  kind: SandboxKind,
  opts: Omit<SandboxOptions, "runDirs" | "agentBin" | "modelEndpoint">,
  how: {
    create?: typeof createSandbox;
    say?: { who: string; note: (message: string) => void } | undefined;
  } = {},
): HelperSandbox {
  return async ({ dirs, agentBin, modelEndpoint }) => {
    const why = opts.why ?? "";
    how.say?.note(
      kind === "local"
        ? `warning: sandbox for ${how.say.who}: ${why}`
        : `sandbox for ${how.say.who}: ${kind} (${why})`,
    );
    const sandbox = await (how.create ?? createSandbox)(kind, {
      ...opts,
      runDirs: dirs,
      agentBin,
      modelEndpoint,
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
