/** Read a results folder into the overview data (I/O). Shared by writeHtmlReports and the viewer. */
import { stat } from "node:fs/promises";
import { z } from "zod";
import type { RunDigest } from "../../core/digest.js";
import { experimentPaths } from "../../store/layout.js";
import { readMetadata, type Metadata } from "../../store/metadata.js";
import type { ReadProblem } from "../../store/read.js";
import { readJsonFile } from "../../util/fs.js";
import { buildComparison } from "../comparison/build.js";
import { withoutMatrix } from "../comparison/write.js";
import { CONTROL } from "../../plan/roles.js";
import type { Comparison } from "../comparison/types.js";
import { treatmentOrder } from "../../plan/group.js";
import { readStoredRuns, type ReportCache } from "../../store/read.js";

/** The choices a stored comparison.json was made with (the numbers are rebuilt from the reports: same seed, same result). */
const StoredChoicesSchema = z.object({
  schema: z.literal("skillbench.comparison.v1"),
  roles: z.object({ candidate: z.string(), baseline: z.string(), control: z.string().nullable() }),
  settings: z.object({ seed: z.number().int() }),
  pass_k: z.object({ ks: z.array(z.number().int().positive()) }),
});
type StoredChoices = z.infer<typeof StoredChoicesSchema>;

/** What a results folder holds, before the (costly) comparison is computed. */
export interface LoadedInputs {
  reports: RunDigest[];
  problems: ReadProblem[];
  metadata: Metadata | null;
  /** comparison.json's roles, seed and ks, when that file exists and parses */
  choices: StoredChoices | null;
  /** fingerprint of metadata.json, comparison.json and every report.json (mtime and size) */
  signature: string;
}

export interface LoadedResults {
  reports: RunDigest[];
  problems: ReadProblem[];
  metadata: Metadata | null;
  /** built from the reports with comparison.json's roles, seed and ks when that file exists; with the defaults when there are 2+ treatments; else null */
  comparison: Comparison | null;
  hasComparisonFile: boolean;
}

async function stamp(file: string): Promise<string> {
  const st = await stat(file).catch(() => null);
  return st ? `${st.mtimeMs}:${st.size}` : "-";
}

/** Reports of the planned matrix (as summary.md does), metadata and comparison.json's choices. Reports are read concurrently; pass a cache to skip unchanged ones. */
export async function loadInputs(
  outDir: string,
  opts: { cache?: ReportCache } = {},
): Promise<LoadedInputs> {
  const paths = experimentPaths(outDir);
  const [metaStamp, cmpStamp] = await Promise.all([
    stamp(paths.metadata),
    stamp(paths.comparisonJson),
  ]);
  const [metadata, storedRaw, read] = await Promise.all([
    readMetadata(paths.metadata),
    readJsonFile(paths.comparisonJson).catch(() => null),
    readStoredRuns(outDir, opts.cache ? { cache: opts.cache } : {}),
  ]);
  const planned = metadata?.matrix ? new Set(metadata.matrix.map((r) => r.run_id)) : null;
  const reports = planned ? read.digests.filter((r) => planned.has(r.run_id)) : read.digests;
  const stored = StoredChoicesSchema.safeParse(storedRaw);
  return {
    reports,
    problems: read.problems,
    metadata: withoutMatrix(metadata),
    choices: stored.success ? stored.data : null,
    signature: `${metaStamp}|${cmpStamp}|${read.signature}`,
  };
}

/** Will comparisonOf build a comparison (2+ treatments have reports)? Pure. */
export function hasTwoTreatments(inputs: Pick<LoadedInputs, "reports" | "metadata">): boolean {
  return treatmentOrder(inputs.reports, inputs.metadata?.treatments ?? [CONTROL]).length >= 2;
}

/** The comparison of loaded inputs (the bootstrap: the costly part). Pure. */
export function comparisonOf(
  inputs: Pick<LoadedInputs, "reports" | "metadata" | "choices">,
): Comparison | null {
  if (!hasTwoTreatments(inputs)) return null;
  const { reports, metadata, choices } = inputs;
  const base = { reports, metadata };
  const withChoices = choices
    ? {
        ...base,
        candidate: choices.roles.candidate,
        baseline: choices.roles.baseline,
        control: choices.roles.control ?? undefined,
        seed: choices.settings.seed,
        ks: choices.pass_k.ks,
      }
    : base;
  try {
    return buildComparison(withChoices);
  } catch {
    // the stored roles no longer match the reports: fall back to the defaults
    try {
      return buildComparison(base);
    } catch {
      return null;
    }
  }
}

/** Reports of the planned matrix (as summary.md does), metadata and the comparison. */
export async function loadResults(outDir: string): Promise<LoadedResults> {
  const inputs = await loadInputs(outDir);
  return {
    reports: inputs.reports,
    problems: inputs.problems,
    metadata: inputs.metadata,
    comparison: comparisonOf(inputs),
    hasComparisonFile: inputs.choices !== null,
  };
}
