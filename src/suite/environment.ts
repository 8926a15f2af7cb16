import { existsSync } from "node:fs";
import path from "node:path";
import type { TaskSpec } from "./types.js";

/** The task's environment has a Dockerfile (the one file the plan needs to know of). */
export function hasDockerfile(t: TaskSpec): boolean {
  return t.environment_dir !== null && existsSync(path.join(t.environment_dir, "Dockerfile"));
}
