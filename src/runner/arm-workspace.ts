/**
 * A run's workspace for its task, treatment and agent (workspace/prepare.ts): the run prepares
 * it so (run-one.ts), and the arm preflight (arm-preflight.ts) prepares the same in a temporary
 * folder to check what each arm will hold. One call, so that the check sees what the run gets.
 */
import type { AgentDriver } from "../agents/index.js";
import { skillHooks } from "../scoring/index.js";
import type { TaskSpec, TreatmentSpec } from "../suite/index.js";
import { prepareWorkspace } from "../workspace/prepare.js";

/** The files that were there before the agent (prepareWorkspace's answer). */
export function prepareArmWorkspace(
  workspace: string,
  task: TaskSpec,
  treatment: TreatmentSpec,
  driver: AgentDriver,
): ReturnType<typeof prepareWorkspace> {
  return prepareWorkspace({
    workspace,
    skillHooks,
    environmentDir: task.environment_dir,
    skills: treatment.skills.map((s) => ({ name: s.name, path: s.path, content: s.content })),
    claudeMd: treatment.claude_md,
    skillsDir: driver.skillsDir,
    memoryFile: driver.memoryFile,
    // Hooks go to the driver's project settings; an agent without one gets none (docs/manifest.md).
    installHooks: driver.installHooks,
    hooks: treatment.hooks,
  });
}
