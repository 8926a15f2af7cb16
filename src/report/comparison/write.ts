import { readPairwise } from "../../store/pairwise.js";
import path from "node:path";
import { InputError } from "../../core/errors.js";
import { budgetSection } from "../budget-md.js";
import { experimentPaths } from "../../store/layout.js";
import { readMetadata, recordComparisonRoles, type Metadata } from "../../store/metadata.js";
import { writeReportPieces } from "../../store/report-files.js";
import { comparisonJsonPieces } from "./json-pieces.js";
import { readStoredRuns, type ReadProblem } from "../../store/read.js";
import { unreadableRunsNote } from "../unreadable.js";
import type { RunDigest } from "../../core/digest.js";
import { treatmentOrder } from "../../plan/group.js";
import { buildComparison, sourceEvidenceOf, type ComparisonInput } from "./build.js";
import { CONTROL } from "../../plan/roles.js";
import { comparisonMarkdownPieces } from "./render.js";
import type { Comparison } from "./types.js";
import { findCalibrations } from "../calibration/write.js";
import { readSequential } from "../sequential/io.js";

export interface WriteComparisonOptions {
  candidate?: string | undefined;
  baseline?: string | undefined;
  control?: string | undefined;
  ks?: number[] | undefined;
  /** markdown file (default <outDir>/comparison_report.md); the JSON goes beside it with a .json extension */
  out?: string | undefined;
  seed?: number | undefined;
  /** non-inferiority margin (default: metadata.json `margin`, else 0.05) */
  margin?: number | undefined;
  /** `--calibration DIR`: the A/A calibration to show beside the delta (default: one found beside this folder) */
  calibration?: string | undefined;
}

/** Where the JSON goes: <outDir>/comparison.json by default, else `out` with its extension replaced by .json. */
export function comparisonJsonPath(outDir: string, out: string | undefined): string {
  if (out === undefined) return experimentPaths(outDir).comparisonJson;
  const ext = path.extname(out);
  return ext.toLowerCase() === ".json"
    ? `${out}.json`
    : `${ext ? out.slice(0, -ext.length) : out}.json`;
}

/** buildComparison, with input errors naming the results folder. */
function build(input: ComparisonInput, outDir: string): Comparison {
  try {
    return buildComparison(input);
  } catch (e) {
    if (e instanceof InputError)
      throw new InputError(`${outDir}: ${e.message}`, {
        file: outDir,
        ...(e.details.field ? { field: e.details.field } : {}),
      });
    throw e;
  }
}

/** What a comparison is built from: a results folder's planned runs (as digests) and its metadata. */
export interface ComparisonSource {
  reports: RunDigest[];
  problems: ReadProblem[];
  metadata: Metadata | null;
}

/**
 * Metadata without its matrix (a record per planned run), once the planned runs are chosen:
 * no report reads it past that, and it would be held, as many records as runs, while they are
 * written.
 */
export function withoutMatrix(metadata: Metadata | null): Metadata | null {
  if (!metadata?.matrix) return metadata;
  const { matrix: _matrix, ...rest } = metadata;
  return rest;
}

/** The planned runs (runs outside metadata's matrix, left by an older plan, are ignored), problems and metadata. */
export async function readComparisonSource(outDir: string): Promise<ComparisonSource> {
  const metadata = await readMetadata(experimentPaths(outDir).metadata);
  const stored = await readStoredRuns(outDir);
  const all = stored.digests;
  const planned = metadata?.matrix ? new Set(metadata.matrix.map((r) => r.run_id)) : null;
  const reports = planned ? all.filter((r) => planned.has(r.run_id)) : all;
  return { reports, problems: stored.problems, metadata: withoutMatrix(metadata) };
}

/**
 * Read a results folder's stored reports and metadata, and write comparison_report.md and
 * comparison.json (atomically). Returns the files written.
 */
export async function writeComparison(
  outDir: string,
  opts: WriteComparisonOptions = {},
): Promise<string[]> {
  return (await writeComparisonOf(outDir, await readComparisonSource(outDir), opts)).files;
}

/**
 * writeComparison over reports already read (the report commands read a folder once and
 * pass what they read to every report). Returns the files written and the comparison,
 * without its per-run `source_evidence` rows: those are made a slice at a time as the files
 * are written (SourceEvidenceRows), and comparison.json holds them.
 */
export async function writeComparisonOf(
  outDir: string,
  source: ComparisonSource,
  opts: WriteComparisonOptions = {},
): Promise<{ files: string[]; comparison: Comparison }> {
  const comparison = await buildComparisonOf(outDir, source, opts);
  return { files: await writeComparisonFiles(outDir, source, comparison, opts), comparison };
}

/**
 * The comparison writeComparisonOf writes (roles given now are recorded in metadata.json), built
 * apart from its files so that the end of a command builds it once and hands it to every
 * reporter (report/reporters/folder.ts writes the files).
 */
export async function buildComparisonOf(
  outDir: string,
  source: ComparisonSource,
  opts: WriteComparisonOptions = {},
): Promise<Comparison> {
  const paths = experimentPaths(outDir);
  const { reports, problems, metadata } = source;
  if (reports.length === 0) {
    const why = problems[0]
      ? `; ${problems.length} report(s) could not be read, e.g. ${problems[0].file}: ${problems[0].message}`
      : "";
    throw new InputError(`${outDir}: no run reports found: run a suite first${why}`, {
      file: outDir,
    });
  }
  const treatments = treatmentOrder(reports, metadata?.treatments ?? [CONTROL]);
  if (treatments.length < 2)
    throw new InputError(
      `${outDir}: only one treatment (${treatments.join(", ")}): a comparison needs two`,
      { file: outDir, field: "treatments" },
    );
  // Roles given now are kept in metadata.json, so that `report` and `rescore` compare the same way.
  const given = { candidate: opts.candidate, baseline: opts.baseline, control: opts.control };
  const chosen = given.candidate || given.baseline || given.control;
  const stored = metadata?.comparison_roles ?? {};
  const margin = opts.margin ?? metadata?.margin;
  const extra = {
    calibrations: await findCalibrations(outDir, opts.calibration),
    sequential: await readSequential(outDir),
    pairwise: await readPairwise(outDir),
    // the per-run rows are made as they are written (below), not held
    sourceEvidence: false,
  };
  let comparison: Comparison;
  if (chosen)
    comparison = build(
      { reports, metadata, ...given, ks: opts.ks, seed: opts.seed, margin, ...extra },
      outDir,
    );
  else {
    // Stored roles may name a treatment that is no longer in the folder: then the defaults.
    try {
      comparison = buildComparison({
        reports,
        metadata,
        ...stored,
        ks: opts.ks,
        seed: opts.seed,
        margin,
        ...extra,
      });
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      comparison = build(
        { reports, metadata, ks: opts.ks, seed: opts.seed, margin, ...extra },
        outDir,
      );
    }
  }
  if (chosen && metadata)
    await recordComparisonRoles(paths.metadata, JSON.parse(JSON.stringify(given)) as typeof given);
  return comparison;
}

/** comparison_report.md and comparison.json of `comparison` (built by buildComparisonOf). */
export async function writeComparisonFiles(
  outDir: string,
  source: ComparisonSource,
  comparison: Comparison,
  opts: Pick<WriteComparisonOptions, "out"> = {},
): Promise<string[]> {
  const paths = experimentPaths(outDir);
  const { reports, problems, metadata } = source;
  const md = opts.out ?? paths.comparison;
  const json = comparisonJsonPath(outDir, opts.out);
  const rows = sourceEvidenceOf({ reports, metadata });
  await writeReportPieces(json, comparisonJsonPieces(comparison, undefined, rows));
  const pieces = comparisonMarkdownPieces(comparison, unreadableRunsNote(problems), rows);
  const budget = metadata?.budget;
  await writeReportPieces(
    md,
    budget ? [...pieces, `\n${budgetSection(budget, outDir).trimEnd()}\n`] : pieces,
  );
  return [md, json];
}
