import type { LoadedManifest, TaskEntry, TaskSource } from "../../index.js";

/** Generated tasks for a Skill without any (filled in by the generator stage). */
export function generatedTasksResolver(_f: {
  generate?: boolean;
  regenerate?: boolean;
}): (m: LoadedManifest) => Promise<{ tasks: TaskEntry[]; source: TaskSource } | null> {
  return () => Promise.resolve(null);
}
