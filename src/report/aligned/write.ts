import path from "node:path";
import { InputError } from "../../core/errors.js";
import type { RunDigest } from "../../core/digest.js";
import { experimentPaths } from "../../store/layout.js";
import { readMetadata, type Metadata } from "../../store/metadata.js";
import { readStoredRuns } from "../../store/read.js";
import { writeFileAtomic, writeJsonAtomic } from "../../util/fs.js";
import { AlignedComparisonSchema, buildAlignedComparison } from "./build.js";
import { renderAlignedMarkdown } from "./render.js";

/** One results folder's planned runs (reports outside its matrix are ignored, as in every report). */
async function readSide(dir: string): Promise<{ reports: RunDigest[]; metadata: Metadata | null }> {
  const metadata = await readMetadata(experimentPaths(dir).metadata);
  const { digests: all, problems } = await readStoredRuns(dir).catch(() => ({
    digests: [] as RunDigest[],
    problems: [],
  }));
  const planned = metadata?.matrix ? new Set(metadata.matrix.map((r) => r.run_id)) : null;
  const reports = planned ? all.filter((r) => planned.has(r.run_id)) : all;
  if (reports.length === 0)
    throw new InputError(
      `${dir}: no run reports found: not a skillbench results folder with runs${problems[0] ? ` (${problems.length} report(s) could not be read, e.g. ${problems[0].file}: ${problems[0].message})` : ""}`,
      { file: dir },
    );
  return { reports, metadata };
}

/** The default output folder: `.skillbench/compare/<A>-vs-<B>` under the working folder. */
function alignedOutDir(dirA: string, dirB: string, cwd: string): string {
  const name = (d: string): string => path.basename(path.resolve(cwd, d));
  return path.resolve(cwd, ".skillbench", "compare", `${name(dirA)}-vs-${name(dirB)}`);
}

/**
 * `compare DIR_A DIR_B`: write aligned_comparison_report.md and aligned_comparison_report.json
 * into `out` (default alignedOutDir). Returns the files written.
 */
export async function writeAlignedComparison(
  dirA: string,
  dirB: string,
  opts: { out?: string | undefined; cwd?: string | undefined; seed?: number | undefined } = {},
): Promise<string[]> {
  const cwd = opts.cwd ?? process.cwd();
  const [absA, absB] = [path.resolve(cwd, dirA), path.resolve(cwd, dirB)];
  if (absA === absB)
    throw new InputError(`compare: ${absA} is given twice: name two results folders`, {
      file: absA,
    });
  const [a, b] = [await readSide(absA), await readSide(absB)];
  const c = AlignedComparisonSchema.parse(
    buildAlignedComparison({
      a: { dir: absA, ...a, experimentId: a.metadata?.experiment_id ?? null },
      b: { dir: absB, ...b, experimentId: b.metadata?.experiment_id ?? null },
      seed: opts.seed,
    }),
  );
  const out = opts.out ? path.resolve(cwd, opts.out) : alignedOutDir(dirA, dirB, cwd);
  const md = path.join(out, "aligned_comparison_report.md");
  const json = path.join(out, "aligned_comparison_report.json");
  await writeFileAtomic(md, renderAlignedMarkdown(c));
  await writeJsonAtomic(json, c);
  return [md, json];
}
