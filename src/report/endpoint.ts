import type { RunReport } from "../core/report.js";

/** How every report names runs played by the scripted model server (docs/model-script.md). */
export const SCRIPTED_MODEL_LABEL = "scripted model (offline): not a measurement of a real model";

/**
 * True when the runs were played by the scripted model: metadata.json names a model script, or a
 * run's report has the server's request log (`model_api`). Pure.
 */
export function isScripted(reports: readonly RunReport[], metadata: unknown): boolean {
  const script =
    typeof metadata === "object" && metadata !== null && "model_script" in metadata
      ? metadata.model_script
      : null;
  return (typeof script === "string" && script !== "") || reports.some((r) => r.model_api !== null);
}
