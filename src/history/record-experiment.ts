/**
 * Recording finished experiments into the history store: at the end of `run`, `eval` and
 * `calibrate` (as a reporter of the lifecycle, runner/lifecycle.ts) and later with
 * `skillbench history import DIR…`. Recording never fails an experiment: a store that cannot be
 * reached is one warning, and the folder can be imported later.
 */
import path from "node:path";
import { InputError, errorMessage } from "../core/errors.js";
import type { Comparison } from "../report/comparison/types.js";
import {
  buildComparisonOf,
  readComparisonSource,
  type ComparisonSource,
} from "../report/comparison/write.js";
import type { Reporter } from "../report/reporters/types.js";
import { historyPageOfResults } from "../store/history-page.js";
import { METADATA_SCHEMA } from "../store/metadata.js";
import { hashSkillDir } from "../suite/skills.js";
import { readSuiteSnapshot, type SuiteSnapshot } from "../store/suite-snapshot.js";
import { git } from "../util/git.js";
import type { TriggersReport } from "../triggers/report.js";
import { HISTORY_RECORD_SCHEMA, historyRecord, type HistoryRecord } from "./record.js";
import {
  defaultHistoryTarget,
  isPostgresUrl,
  maskUrl,
  openHistory,
  type HistoryStore,
} from "./store.js";
import { refreshHistoryPage } from "./write-html.js";

/** The commit a Skill folder is at, and whether the folder has uncommitted changes; null outside git. */
async function gitRefOf(dir: string): Promise<HistoryRecord["git"]> {
  // 10 s each: recording an experiment must not hang on a slow repository.
  const head = await git(dir, ["rev-parse", "HEAD"], 10_000);
  if (head.code !== 0) return null;
  const status = await git(dir, ["status", "--porcelain", "--", "."], 10_000);
  if (status.code !== 0) return null;
  return { ref: head.out.trim(), dirty: status.out.trim() !== "" };
}

/** The candidate's first Skill folder on disk (the one the git ref describes), with the hash it was run at. */
function candidateSkill(
  suite: SuiteSnapshot | null,
  candidate: string | null,
): { path: string; hash: string } | null {
  const t = suite?.treatments.find((x) => x.name === candidate) ?? null;
  const skill = t?.skills.find((s) => s.source_type === "path" && s.path);
  return skill?.path ? { path: skill.path, hash: skill.hash } : null;
}

/**
 * The git ref of the Skill as it was tested: its folder's commit, when the folder still holds
 * the content the experiment ran (the same hash). A folder changed since (a results folder
 * imported later) has no ref rather than a wrong one.
 */
async function gitRefOfTested(dir: string, hash: string): Promise<HistoryRecord["git"]> {
  try {
    if ((await hashSkillDir(dir)) !== hash) return null;
  } catch {
    return null;
  }
  return gitRefOf(dir);
}

async function suiteOf(outDir: string): Promise<SuiteSnapshot | null> {
  try {
    return await readSuiteSnapshot(outDir);
  } catch {
    return null;
  }
}

/** The record of a finished experiment, from its reading and its comparison. */
async function experimentRecord(
  kind: HistoryRecord["kind"],
  outDir: string,
  source: ComparisonSource,
  comparison: Comparison | null,
): Promise<HistoryRecord> {
  const suite = await suiteOf(outDir);
  const candidate = comparison?.roles.candidate ?? null;
  const skill = candidateSkill(suite, candidate);
  return historyRecord({
    kind,
    outDir,
    source,
    comparison,
    suite,
    git: skill ? await gitRefOfTested(skill.path, skill.hash) : null,
    // When the experiment ended, so that a folder imported later keeps its place in the trend.
    recordedAt: source.metadata?.completed_at ?? new Date().toISOString(),
  });
}

/** "<store>: <what went wrong>", the store's password masked, named once. */
function why(target: string, e: unknown): string {
  const where = isPostgresUrl(target) ? maskUrl(target) : target;
  const msg = errorMessage(e).replaceAll(target, where);
  return msg.startsWith(`${where}: `) ? msg : `${where}: ${msg}`;
}

/**
 * The Skill's history page rewritten beside the results after its record (store/history-page.ts),
 * where the experiment's next HTML report finds it. The record is kept whatever happens here: a
 * page that cannot be written is a warning (returned).
 */
async function pageBeside(
  store: HistoryStore,
  skill: string,
  outDir: string,
): Promise<string | null> {
  const file = historyPageOfResults(outDir, skill);
  try {
    await refreshHistoryPage(store, skill, file);
    return null;
  } catch (e) {
    return `warning: the history page ${file} was not written: ${errorMessage(e)}`;
  }
}

/** Where `--history`/`--no-history` send the records: null when recording is off. */
export interface HistoryChoice {
  /** A file or postgres:// URL; undefined: the default beside the results. */
  target?: string;
  off?: boolean;
}

/** The reporter that records each finished experiment (never fails the command: a warning). */
export function historyReporter(kind: HistoryRecord["kind"], choice: HistoryChoice): Reporter {
  return {
    name: "history",
    async onExperimentEnd(results) {
      if (choice.off) return {};
      const target = choice.target ?? defaultHistoryTarget(results.outDir);
      try {
        const store = await openHistory(target);
        try {
          const rec = await experimentRecord(
            kind,
            results.outDir,
            results.source,
            results.comparison,
          );
          await store.record(rec);
          const page = await pageBeside(store, rec.skill, results.outDir);
          if (page) return { notes: [page] };
        } finally {
          await store.close();
        }
        return {};
      } catch (e) {
        return {
          notes: [
            `warning: the experiment was not recorded in the history store ${why(target, e)}; record it later with: skillbench history import ${results.outDir}`,
          ],
        };
      }
    },
  };
}

/** `skillbench history import DIR…`: each folder read, checked and recorded. Bad folders: exit 2. */
export async function importFolders(
  dirs: readonly string[],
  target: string,
  kindOf: (dir: string) => HistoryRecord["kind"] = () => "run",
): Promise<{ where: string; recorded: HistoryRecord[] }> {
  const reads: { dir: string; source: ComparisonSource }[] = [];
  for (const dir of dirs) {
    const source = await readComparisonSource(dir);
    if (!source.metadata)
      throw new InputError(`${dir}: not a results folder (no metadata.json)`, { file: dir });
    if (source.metadata.schema !== METADATA_SCHEMA)
      throw new InputError(
        `${dir}/metadata.json: schema ${source.metadata.schema}, which this skillbench does not read (it reads ${METADATA_SCHEMA})`,
        { file: `${dir}/metadata.json`, field: "schema" },
      );
    reads.push({ dir, source });
  }
  const store = await openHistory(target);
  try {
    const recorded: HistoryRecord[] = [];
    for (const { dir, source } of reads) {
      // The comparison as `report` builds it (roles stored in the folder kept); none with one arm.
      const comparison =
        new Set(source.reports.map((r) => r.treatment)).size >= 2
          ? await buildComparisonOf(dir, source)
          : null;
      const rec = await experimentRecord(kindOf(dir), dir, source, comparison);
      await store.record(rec);
      recorded.push(rec);
    }
    return { where: store.where, recorded };
  } finally {
    await store.close();
  }
}

/** The record of a `triggers` evaluation: precision and recall per description variant. */
async function triggersRecord(outDir: string, r: TriggersReport): Promise<HistoryRecord> {
  return {
    schema: HISTORY_RECORD_SCHEMA,
    experiment_id: path.basename(outDir),
    kind: "triggers",
    recorded_at: r.finished_at,
    started_at: r.started_at,
    results_dir: outDir,
    skillbench_version: null,
    skill: r.skill,
    skill_hash: r.skill_hash,
    git: await gitRefOfTested(r.skill_dir, r.skill_hash),
    suite_hash: null,
    agent: r.agent.name,
    agent_version: r.agent.version,
    model: r.model,
    endpoint: r.scripted_model ? "scripted" : "real",
    candidate: null,
    baseline: null,
    band: null,
    band_reason: null,
    delta: null,
    delta_interval: null,
    lift: null,
    invocation_rate: null,
    cost_usd: null,
    runs: r.probes.length,
    arms: [],
    tasks: [],
    triggers: r.variants.map((v) => ({
      description: v.description,
      precision: v.precision.value,
      recall: v.recall.value,
    })),
    health: [],
  };
}

/** Record a finished `triggers` evaluation; a store that cannot be reached is a warning (returned). */
export async function recordTriggers(
  outDir: string,
  r: TriggersReport,
  choice: HistoryChoice,
): Promise<string | null> {
  if (choice.off) return null;
  const target = choice.target ?? defaultHistoryTarget(outDir);
  try {
    const store = await openHistory(target);
    try {
      const rec = await triggersRecord(outDir, r);
      await store.record(rec);
      return await pageBeside(store, rec.skill, outDir);
    } finally {
      await store.close();
    }
  } catch (e) {
    return `warning: the trigger evaluation was not recorded in the history store ${why(target, e)}`;
  }
}
