/** Read a results folder into the overview data (I/O). Shared by writeHtmlReports and the viewer. */
import { z } from 'zod';
import type { RunReport } from '../../core/report.js';
import { experimentPaths } from '../../store/layout.js';
import { readMetadata, type Metadata } from '../../store/metadata.js';
import { readReports, type ReadProblem } from '../../store/read.js';
import { readJsonFile } from '../../util/fs.js';
import { buildComparison } from '../comparison/build.js';
import { CONTROL } from '../comparison/roles.js';
import type { Comparison } from '../comparison/types.js';
import { treatmentOrder } from '../group.js';

/** The choices a stored comparison.json was made with (the numbers are rebuilt from the reports: same seed, same result). */
const StoredChoicesSchema = z.object({
  schema: z.literal('skillbench.comparison.v1'),
  roles: z.object({ candidate: z.string(), baseline: z.string(), control: z.string().nullable() }),
  settings: z.object({ seed: z.number().int() }),
  pass_k: z.object({ ks: z.array(z.number().int().positive()) }),
});

export interface LoadedResults {
  reports: RunReport[];
  problems: ReadProblem[];
  metadata: Metadata | null;
  /** built from the reports with comparison.json's roles, seed and ks when that file exists; with the defaults when there are 2+ treatments; else null */
  comparison: Comparison | null;
  hasComparisonFile: boolean;
}

/** Reports of the planned matrix (as summary.md does), metadata and the comparison. */
export async function loadResults(outDir: string): Promise<LoadedResults> {
  const paths = experimentPaths(outDir);
  const metadata = await readMetadata(paths.metadata);
  const { reports: all, problems } = await readReports(outDir);
  const planned = metadata?.matrix ? new Set(metadata.matrix.map((r) => r.run_id)) : null;
  const reports = planned ? all.filter((r) => planned.has(r.run_id)) : all;
  const stored = StoredChoicesSchema.safeParse(await readJsonFile(paths.comparisonJson).catch(() => null));
  const choices = stored.success ? stored.data : null;
  let comparison: Comparison | null = null;
  if (treatmentOrder(reports, metadata?.treatments ?? [CONTROL]).length >= 2) {
    const base = { reports, metadata };
    const withChoices = choices
      ? { ...base, candidate: choices.roles.candidate, baseline: choices.roles.baseline, control: choices.roles.control ?? undefined, seed: choices.settings.seed, ks: choices.pass_k.ks }
      : base;
    try {
      comparison = buildComparison(withChoices);
    } catch {
      // the stored roles no longer match the reports: fall back to the defaults
      try {
        comparison = buildComparison(base);
      } catch {
        comparison = null;
      }
    }
  }
  return { reports, problems, metadata, comparison, hasComparisonFile: choices !== null };
}
