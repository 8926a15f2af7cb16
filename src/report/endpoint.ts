import type { RunDigest } from "../core/digest.js";
import { LOCAL_WARNING } from "../core/sandbox.js";

/** How every report names runs played by the scripted model server (docs/model-script.md). */
export const SCRIPTED_MODEL_LABEL = "scripted model (offline): not a measurement of a real model";

/** How the reports name runs without a sandbox: how many, and the warning (docs/sandbox.md). */
export interface Isolation {
  /** Sandbox kinds used, sorted ("unrecorded" for runs stored before sandboxes were recorded). */
  kinds: string[];
  runs: number;
  local_runs: number;
  /** `LOCAL_WARNING` when any run had no sandbox; otherwise null. */
  warning: string | null;
}

/** The sandboxes of a set of runs. Pure. */
export function isolationOf(reports: readonly RunDigest[]): Isolation {
  const kindSet = new Set<string>();
  let local = 0;
  for (const r of reports) {
    const kind = r.sandbox?.kind ?? "unrecorded";
    kindSet.add(kind);
    if (kind === "local") local++;
  }
  const kinds = [...kindSet].sort();
  return {
    kinds,
    runs: reports.length,
    local_runs: local,
    warning: local > 0 ? LOCAL_WARNING : null,
  };
}

/** The one-line Markdown banner of the local warning, or null. Pure. */
export function localWarningLine(i: Isolation): string | null {
  return i.warning === null
    ? null
    : `> ⚠️ **No sandbox:** ${i.local_runs} of ${i.runs} run(s) ran with \`--sandbox local\`: ${i.warning}.`;
}
