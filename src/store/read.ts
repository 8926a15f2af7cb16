import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { InputError } from '../core/errors.js';
import { RunReportSchema, type RunReport } from '../core/report.js';
import { runPaths } from './layout.js';

export interface ReadProblem {
  file: string;
  message: string;
}

/** Every stored report of a results folder, parsed with the schema; unreadable ones are listed, not fatal. */
export async function readReports(outDir: string): Promise<{ reports: RunReport[]; problems: ReadProblem[] }> {
  let ids: string[];
  try {
    ids = (await readdir(path.join(outDir, 'runs'), { withFileTypes: true }))
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
  } catch {
    throw new InputError(`${outDir}: not a skillbench results folder (no runs/ folder)`, { file: outDir });
  }
  const reports: RunReport[] = [];
  const problems: ReadProblem[] = [];
  for (const id of ids) {
    const file = runPaths(outDir, id).report;
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch {
      continue; // a run without a report is incomplete: not an error
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      problems.push({ file, message: `not valid JSON: ${String(e)}` });
      continue;
    }
    const parsed = RunReportSchema.safeParse(json);
    if (parsed.success) reports.push(parsed.data);
    else
      problems.push({
        file,
        message: parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; '),
      });
  }
  reports.sort((a, b) => a.task.localeCompare(b.task) || a.treatment.localeCompare(b.treatment) || a.rep - b.rep);
  return { reports, problems };
}
