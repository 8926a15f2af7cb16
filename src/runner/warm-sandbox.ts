import { requestedSandbox, warmBwrapSandbox, type SandboxChoice } from "../sandbox/index.js";
import type { RunSpec } from "../plan/matrix.js";
import type { Suite, TaskSpec } from "../suite/index.js";
import { createRunDirs, removeRunDirs } from "../workspace/prepare.js";
import type { RunContext } from "./context.js";

/**
 * While the experiment is set up, ask what bubblewrap asks when the first run's sandbox starts
 * (the agent's version inside it, whether perl can run the model relay), when that run may run
 * under bwrap (asked for it, or `auto` for a task without a Dockerfile): the answers are kept for
 * the process (src/sandbox/bwrap.ts), so the first run does not wait for them. Asked in run dirs
 * of its own (same temporary base, results folder, agent binary, network and read-only exposures
 * as the run's, which is what the answers depend on), removed after. Never throws; an answer that
 * fails is not kept (the run asks again and says why).
 */
export async function warmFirstSandbox(o: {
  suite: Suite;
  first: RunSpec | undefined;
  cli: SandboxChoice | undefined;
  hasDockerfile: (t: TaskSpec) => boolean;
  agentBin: (agent: string) => string | undefined;
  endpoint: RunContext["models"]["endpoint"];
  outDir: string;
  experimentId: string;
  signal?: AbortSignal | undefined;
}): Promise<void> {
  const run = o.first;
  const task = run && o.suite.tasks.find((t) => t.name === run.task);
  if (!run || !task) return;
  const choice = requestedSandbox(o.cli, task, o.suite.config.sandbox);
  if (choice !== "bwrap" && (choice !== "auto" || o.hasDockerfile(task))) return;
  const agentBin = o.agentBin(run.agent);
  if (agentBin === undefined) return;
  const key = { task: run.task, treatment: run.treatment, rep: run.rep, agent: run.agent };
  const dirs = await createRunDirs(`${run.run_id}-probe`, undefined, o.experimentId).catch(
    () => null,
  );
  if (!dirs) return;
  try {
    await warmBwrapSandbox({
      runDirs: dirs,
      task: { environmentDir: task.environment_dir },
      agentBin,
      resultsDir: o.outDir,
      modelEndpoint: o.endpoint(key, "subject").baseUrl,
      network: task.environment.network,
      exposeReadOnly: o.suite.config.validation?.python_path,
      experimentId: o.experimentId,
      signal: o.signal,
    });
  } finally {
    await removeRunDirs(dirs).catch(() => undefined);
  }
}
