/**
 * The history store (docs/history.md): one table of experiment records behind two engines with
 * the same schema and migrations. The embedded default is one SQLite file (better-sqlite3, in
 * WAL mode with a busy timeout, so that experiments finishing at once each commit their record);
 * a team shares one PostgreSQL database (`postgres://…`). The columns a query filters or sorts on
 * are columns; the whole record is kept as its JSON and parsed with its schema when read, so a
 * record is never trusted as cast.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { InputError, errorMessage } from "../core/errors.js";
import { besideResults } from "../store/layout.js";
import {
  JUDGE_CALIBRATION_SCHEMA,
  JudgeCalibrationSchema,
  type JudgeCalibration,
} from "../judge/calibration/schema.js";
import { HISTORY_RECORD_SCHEMA, HistoryRecordSchema, type HistoryRecord } from "./record.js";

/**
 * The schema, as numbered migrations. Each is plain SQL both engines take (TEXT, INTEGER, DOUBLE
 * PRECISION); a store remembers the last it applied in `history_migrations`, and a store that has
 * applied one this build does not know was written by a newer skillbench: refused by name.
 */
const MIGRATIONS: readonly (readonly string[])[] = [
  [
    `CREATE TABLE IF NOT EXISTS experiments (
      experiment_id TEXT NOT NULL,
      results_dir TEXT NOT NULL,
      kind TEXT NOT NULL,
      recorded_at TEXT NOT NULL,
      skill TEXT NOT NULL,
      skill_hash TEXT,
      git_ref TEXT,
      agent TEXT,
      agent_version TEXT,
      model TEXT,
      endpoint TEXT NOT NULL,
      band TEXT,
      delta DOUBLE PRECISION,
      cost_usd DOUBLE PRECISION,
      runs INTEGER NOT NULL,
      schema TEXT NOT NULL,
      record TEXT NOT NULL,
      PRIMARY KEY (experiment_id, results_dir)
    )`,
    `CREATE INDEX IF NOT EXISTS experiments_by_skill ON experiments (skill, recorded_at)`,
  ],
  // `judge calibrate`'s calibrations (docs/judge.md, Calibration): a gate looks one up by the
  // instrument (judge model, prompt digest, rubric digest), so those are the key's columns; one
  // results folder calibrated again with other labels replaces its calibration, as its file does.
  [
    `CREATE TABLE IF NOT EXISTS judge_calibrations (
      judge_model TEXT NOT NULL,
      prompt_digest TEXT NOT NULL,
      rubric_digest TEXT NOT NULL,
      results_dir TEXT NOT NULL,
      experiment_id TEXT,
      created_at TEXT NOT NULL,
      schema TEXT NOT NULL,
      record TEXT NOT NULL,
      PRIMARY KEY (judge_model, prompt_digest, rubric_digest, results_dir)
    )`,
  ],
];

export const HISTORY_SCHEMA_VERSION = MIGRATIONS.length;

export interface HistoryStore {
  /** Where it is, for messages: a file, or the URL with its password masked. */
  readonly where: string;
  /** Record one experiment; the same experiment and folder recorded again replaces its record. */
  record(rec: HistoryRecord): Promise<void>;
  /** Every record, or one Skill's, oldest first. */
  records(skill?: string): Promise<HistoryRecord[]>;
  /** Keep a judge calibration of the runs in `resultsDir`; the same folder and judge again replaces it. */
  recordCalibration(resultsDir: string, c: JudgeCalibration): Promise<void>;
  /** The calibrations of one judge (model, prompt digest, rubric digest), newest first. */
  calibrations(judge: JudgeKey): Promise<StoredJudgeCalibration[]>;
  close(): Promise<void>;
}

/** What a calibration is looked up by: the instrument (judge/calibration/identity.ts). */
export interface JudgeKey {
  model: string;
  prompt_digest: string;
  rubric_digest: string;
}

export interface StoredJudgeCalibration {
  results_dir: string;
  calibration: JudgeCalibration;
}

/** The judge_calibrations columns, in the order of the INSERT below. */
function calibrationRowOf(resultsDir: string, c: JudgeCalibration): (string | null)[] {
  return [
    c.judge.model,
    c.judge.prompt_digest,
    c.judge.rubric_digest,
    resultsDir,
    c.experiment_id,
    c.created_at,
    c.schema,
    JSON.stringify(c),
  ];
}
const CALIBRATION_COLUMNS =
  "judge_model, prompt_digest, rubric_digest, results_dir, experiment_id, created_at, schema, record";
const CALIBRATIONS_OF =
  "SELECT results_dir, schema, record FROM judge_calibrations WHERE judge_model = $1 AND prompt_digest = $2 AND rubric_digest = $3 ORDER BY created_at DESC, results_dir";

const CalibrationRowSchema = z.object({
  results_dir: z.string(),
  schema: z.string(),
  record: z.string(),
});

/** A stored calibration, parsed with its schema like a record (never trusted as cast). */
function parseCalibrationRow(where: string, raw: unknown): StoredJudgeCalibration {
  const got = CalibrationRowSchema.safeParse(raw);
  if (!got.success)
    throw new InputError(`${where}: a stored row is not a judge calibration`, { file: where });
  const row = got.data;
  if (row.schema !== JUDGE_CALIBRATION_SCHEMA)
    throw new InputError(
      `${where}: a judge calibration of schema ${row.schema}, which this skillbench does not read (it reads ${JUDGE_CALIBRATION_SCHEMA})`,
      { file: where },
    );
  let json: unknown;
  try {
    json = JSON.parse(row.record);
  } catch (e) {
    throw new InputError(`${where}: a stored judge calibration is not JSON: ${errorMessage(e)}`, {
      file: where,
    });
  }
  const parsed = JudgeCalibrationSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InputError(
      `${where}: a stored judge calibration does not match its schema: ${issue?.path.join(".") || "(top level)"}: ${issue?.message ?? ""}`,
      { file: where },
    );
  }
  return { results_dir: row.results_dir, calibration: parsed.data };
}

/** A postgres:// URL with its password replaced, so that no message prints it. */
export function maskUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return url.replace(/\/\/([^:/@]+):[^@]*@/, "//$1:***@");
  }
}

export function isPostgresUrl(target: string): boolean {
  return /^postgres(ql)?:\/\//i.test(target);
}

/** The record columns, in the order of the INSERT below. */
function rowOf(r: HistoryRecord): (string | number | null)[] {
  return [
    r.experiment_id,
    r.results_dir,
    r.kind,
    r.recorded_at,
    r.skill,
    r.skill_hash,
    r.git?.ref ?? null,
    r.agent,
    r.agent_version,
    r.model,
    r.endpoint,
    r.band,
    r.delta,
    r.cost_usd,
    r.runs,
    r.schema,
    JSON.stringify(r),
  ];
}
const COLUMNS =
  "experiment_id, results_dir, kind, recorded_at, skill, skill_hash, git_ref, agent, agent_version, model, endpoint, band, delta, cost_usd, runs, schema, record";

/** The highest migration a store has applied (0 for none). */
function versionOf(row: unknown): number {
  const v = z.object({ v: z.coerce.number().nullable() }).optional().parse(row)?.v;
  return v ?? 0;
}

const RowSchema = z.object({ schema: z.string(), record: z.string() });

/** A stored record, parsed: a row no schema of this build reads is named, not guessed. */
function parseRow(where: string, raw: unknown): HistoryRecord {
  const got = RowSchema.safeParse(raw);
  if (!got.success)
    throw new InputError(`${where}: a stored row is not a history record`, { file: where });
  const row = got.data;
  if (row.schema !== HISTORY_RECORD_SCHEMA)
    throw new InputError(
      `${where}: a record of schema ${row.schema}, which this skillbench does not read (it reads ${HISTORY_RECORD_SCHEMA})`,
      { file: where },
    );
  let json: unknown;
  try {
    json = JSON.parse(row.record);
  } catch (e) {
    throw new InputError(`${where}: a stored record is not JSON: ${errorMessage(e)}`, {
      file: where,
    });
  }
  const parsed = HistoryRecordSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InputError(
      `${where}: a stored record does not match its schema: ${issue?.path.join(".") || "(top level)"}: ${issue?.message ?? ""}`,
      { file: where },
    );
  }
  return parsed.data;
}

function newerStore(where: string, version: number): InputError {
  return new InputError(
    `${where}: the history store is at schema version ${version}, newer than this skillbench's ${HISTORY_SCHEMA_VERSION}: record with the newer skillbench, or use another store (--history)`,
    { file: where },
  );
}

/** The SQLite store: a file, created with its folder when missing. */
async function openSqlite(file: string): Promise<HistoryStore> {
  let Database: typeof import("better-sqlite3");
  try {
    Database = (await import("better-sqlite3")).default;
  } catch (e) {
    throw new Error(
      `the SQLite history store needs better-sqlite3, which did not load (${errorMessage(e)}); use --history postgres://… or --no-history`,
      { cause: e },
    );
  }
  mkdirSync(path.dirname(file), { recursive: true });
  let db: import("better-sqlite3").Database;
  try {
    db = new Database(file);
    // Several experiments may end at once: WAL lets readers go on while one writer commits, and
    // the busy timeout makes a second writer wait for the first instead of failing.
    db.pragma("busy_timeout = 30000");
    db.pragma("journal_mode = WAL");
    db.exec(
      "CREATE TABLE IF NOT EXISTS history_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)",
    );
  } catch (e) {
    throw new InputError(`${file}: not a history store (SQLite): ${errorMessage(e)}`, { file });
  }
  const migrate = db.transaction(() => {
    const at = versionOf(db.prepare("SELECT MAX(version) AS v FROM history_migrations").get());
    if (at > HISTORY_SCHEMA_VERSION) throw newerStore(file, at);
    for (let v = at; v < MIGRATIONS.length; v++) {
      for (const sql of MIGRATIONS[v] ?? []) db.exec(sql);
      db.prepare("INSERT INTO history_migrations (version, applied_at) VALUES (?, ?)").run(
        v + 1,
        new Date().toISOString(),
      );
    }
  });
  try {
    migrate.immediate();
  } catch (e) {
    db.close();
    if (e instanceof InputError) throw e;
    throw new InputError(`${file}: not a history store (SQLite): ${errorMessage(e)}`, { file });
  }
  const insert = db.prepare(
    `INSERT OR REPLACE INTO experiments (${COLUMNS}) VALUES (${COLUMNS.split(",")
      .map(() => "?")
      .join(", ")})`,
  );
  const insertCalibration = db.prepare(
    `INSERT OR REPLACE INTO judge_calibrations (${CALIBRATION_COLUMNS}) VALUES (${CALIBRATION_COLUMNS.split(
      ",",
    )
      .map(() => "?")
      .join(", ")})`,
  );
  const calibrationsOf = db.prepare(CALIBRATIONS_OF.replace(/\$\d/g, "?"));
  return {
    where: file,
    // async: a failure is the promise's rejection, as with PostgreSQL.
    // eslint-disable-next-line @typescript-eslint/require-await
    async record(rec) {
      insert.run(...rowOf(rec));
    },
    // eslint-disable-next-line @typescript-eslint/require-await
    async records(skill) {
      const rows: unknown[] = (
        skill === undefined
          ? db.prepare("SELECT schema, record FROM experiments ORDER BY recorded_at, experiment_id")
          : db.prepare(
              "SELECT schema, record FROM experiments WHERE skill = ? ORDER BY recorded_at, experiment_id",
            )
      ).all(...(skill === undefined ? [] : [skill]));
      return rows.map((r) => parseRow(file, r));
    },
    // eslint-disable-next-line @typescript-eslint/require-await
    async recordCalibration(resultsDir, c) {
      insertCalibration.run(...calibrationRowOf(resultsDir, c));
    },
    // eslint-disable-next-line @typescript-eslint/require-await
    async calibrations(k) {
      const rows: unknown[] = calibrationsOf.all(k.model, k.prompt_digest, k.rubric_digest);
      return rows.map((r) => parseCalibrationRow(file, r));
    },
    close() {
      db.close();
      return Promise.resolve();
    },
  };
}

/** The PostgreSQL store: the same tables; migrations under an advisory lock, so two starts do not race. */
async function openPostgres(url: string): Promise<HistoryStore> {
  const where = maskUrl(url);
  const { default: pg } = await import("pg");
  // Every wait bounded: the connection, and each query (a server that stops answering mid-way
  // fails the recording with a warning instead of holding the command's end).
  const client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: 10_000,
    query_timeout: 30_000,
  });
  try {
    await client.connect();
  } catch (e) {
    await client.end().catch(() => undefined);
    throw new InputError(
      `${where}: cannot connect to the history store: ${errorMessage(e).replaceAll(url, where)}`,
      {
        file: where,
      },
    );
  }
  try {
    await client.query("BEGIN");
    // One number for skillbench's migrations, held until the transaction ends.
    await client.query("SELECT pg_advisory_xact_lock(73796)");
    await client.query(
      "CREATE TABLE IF NOT EXISTS history_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)",
    );
    const res = await client.query("SELECT MAX(version) AS v FROM history_migrations");
    const at = versionOf(res.rows[0]);
    if (at > HISTORY_SCHEMA_VERSION) throw newerStore(where, at);
    for (let v = at; v < MIGRATIONS.length; v++) {
      for (const sql of MIGRATIONS[v] ?? []) await client.query(sql);
      await client.query("INSERT INTO history_migrations (version, applied_at) VALUES ($1, $2)", [
        v + 1,
        new Date().toISOString(),
      ]);
    }
    await client.query("COMMIT");
  } catch (e) {
    await client.query("ROLLBACK").catch(() => undefined);
    await client.end().catch(() => undefined);
    if (e instanceof InputError) throw e;
    throw new InputError(`${where}: cannot prepare the history store: ${errorMessage(e)}`, {
      file: where,
    });
  }
  const cols = COLUMNS.split(",").map((c) => c.trim());
  const placeholders = cols.map((_, i) => `$${i + 1}`).join(", ");
  const updates = cols
    .filter((c) => c !== "experiment_id" && c !== "results_dir")
    .map((c) => `${c} = EXCLUDED.${c}`)
    .join(", ");
  return {
    where,
    async record(rec) {
      await client.query(
        `INSERT INTO experiments (${COLUMNS}) VALUES (${placeholders}) ON CONFLICT (experiment_id, results_dir) DO UPDATE SET ${updates}`,
        rowOf(rec),
      );
    },
    async records(skill) {
      const res = await client.query(
        skill === undefined
          ? "SELECT schema, record FROM experiments ORDER BY recorded_at, experiment_id"
          : "SELECT schema, record FROM experiments WHERE skill = $1 ORDER BY recorded_at, experiment_id",
        skill === undefined ? [] : [skill],
      );
      return res.rows.map((r) => parseRow(where, r));
    },
    async recordCalibration(resultsDir, c) {
      const cols = CALIBRATION_COLUMNS.split(",").map((x) => x.trim());
      const set = cols
        .filter(
          (x) => !["judge_model", "prompt_digest", "rubric_digest", "results_dir"].includes(x),
        )
        .map((x) => `${x} = EXCLUDED.${x}`)
        .join(", ");
      await client.query(
        `INSERT INTO judge_calibrations (${CALIBRATION_COLUMNS}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(", ")}) ON CONFLICT (judge_model, prompt_digest, rubric_digest, results_dir) DO UPDATE SET ${set}`,
        calibrationRowOf(resultsDir, c),
      );
    },
    async calibrations(k) {
      const res = await client.query(CALIBRATIONS_OF, [k.model, k.prompt_digest, k.rubric_digest]);
      return res.rows.map((r) => parseCalibrationRow(where, r));
    },
    async close() {
      await client.end();
    },
  };
}

/** Open the store at `target`: a postgres:// URL, else a SQLite file path. */
export async function openHistory(target: string): Promise<HistoryStore> {
  return isPostgresUrl(target) ? openPostgres(target) : openSqlite(target);
}

/**
 * Where an experiment's record goes when no `--history` names a store: SKILLBENCH_HISTORY_URL,
 * else `.skillbench/history.db` beside the results (for the default results folder
 * `.skillbench/runs/<id>`, that is `.skillbench/history.db`).
 */
export function defaultHistoryTarget(outDir: string, env: NodeJS.ProcessEnv = process.env): string {
  const url = env.SKILLBENCH_HISTORY_URL;
  if (url) return url;
  return path.join(besideResults(outDir), "history.db");
}
