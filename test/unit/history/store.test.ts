import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { InputError } from "../../../src/core/errors.js";
import { HISTORY_RECORD_SCHEMA, type HistoryRecord } from "../../../src/history/record.js";
import {
  JUDGE_CALIBRATION_SCHEMA,
  type JudgeCalibration,
} from "../../../src/judge/calibration/schema.js";
import {
  defaultHistoryTarget,
  maskUrl,
  openHistory,
  HISTORY_SCHEMA_VERSION,
} from "../../../src/history/store.js";

import { startPostgres, type TestPostgres } from "../../helpers/postgres.js";

let dir = "";
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "skillbench-history-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function rec(id: string, skill = "s"): HistoryRecord {
  return {
    schema: HISTORY_RECORD_SCHEMA,
    experiment_id: id,
    kind: "run",
    recorded_at: "2026-12-06T10:00:00.000Z",
    started_at: null,
    results_dir: `/r/${id}`,
    skillbench_version: null,
    skill,
    skill_hash: "sha256:aa",
    git: { ref: "abc", dirty: false },
    suite_hash: null,
    agent: "claude-code",
    agent_version: null,
    model: null,
    endpoint: "scripted",
    candidate: "WITH_SKILL",
    baseline: "CONTROL",
    band: "improved",
    band_reason: "r",
    delta: 0.5,
    delta_interval: { low: 0.1, high: 0.9 },
    lift: null,
    invocation_rate: 1,
    cost_usd: 0.25,
    runs: 4,
    arms: [],
    tasks: [],
    triggers: [],
    health: [],
  };
}

describe("the SQLite history store", () => {
  it("keeps what it is given, and a second recording of the same folder replaces the first", async () => {
    const file = path.join(dir, "sub", "history.db");
    const store = await openHistory(file);
    await store.record(rec("e1"));
    await store.record(rec("e2", "other"));
    await store.record({ ...rec("e1"), band: "regressed" });
    expect((await store.records()).map((r) => [r.experiment_id, r.band])).toEqual([
      ["e1", "regressed"],
      ["e2", "improved"],
    ]);
    expect((await store.records("other")).map((r) => r.experiment_id)).toEqual(["e2"]);
    await store.close();
    // Reopened: the schema is not applied twice, the records are there.
    const again = await openHistory(file);
    expect(await again.records()).toHaveLength(2);
    await again.close();
  });

  it("two processes recording at once into one file lose nothing", async () => {
    const file = path.join(dir, "history.db");
    const script = path.join(dir, "writer.mts");
    const storeModule = path.resolve("src/history/store.ts");
    await writeFile(
      script,
      `import { openHistory } from ${JSON.stringify(storeModule)};
const [who, n] = [process.argv[2], Number(process.argv[3])];
const rec = JSON.parse(process.argv[4]);
// Each write opens its own connection, as one experiment's end does.
for (let i = 0; i < n; i++) {
  const s = await openHistory(${JSON.stringify(file)});
  await s.record({ ...rec, experiment_id: who + "-" + i, results_dir: "/r/" + who + "-" + i });
  await s.close();
}
`,
    );
    const write = (who: string): Promise<number | null> =>
      new Promise((resolve, reject) => {
        const c = spawn(
          process.execPath,
          ["--import", "tsx", script, who, "40", JSON.stringify(rec("x"))],
          // Bounded: a writer stuck on the lock is killed (and the test fails on its exit).
          { stdio: ["ignore", "inherit", "inherit"], timeout: 50_000, killSignal: "SIGKILL" },
        );
        c.on("error", reject);
        c.on("exit", resolve);
      });
    expect(await Promise.all([write("a"), write("b")])).toEqual([0, 0]);
    const store = await openHistory(file);
    const ids = (await store.records()).map((r) => r.experiment_id);
    await store.close();
    expect(ids).toHaveLength(80);
    expect(new Set(ids).size).toBe(80);
  }, 60_000);

  it("a file that is not a store is an input error naming it", async () => {
    const file = path.join(dir, "history.db");
    await writeFile(
      file,
      "this is not a database, it is a sentence that goes on and on ".repeat(20),
    );
    const err = await openHistory(file).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect(String(err)).toContain(`${file}: not a history store (SQLite)`);
  });

  it("a store of a newer schema is refused by name", async () => {
    const file = path.join(dir, "history.db");
    await (await openHistory(file)).close();
    const { default: Database } = await import("better-sqlite3");
    const db = new Database(file);
    db.prepare("INSERT INTO history_migrations (version, applied_at) VALUES (?, ?)").run(
      HISTORY_SCHEMA_VERSION + 1,
      "later",
    );
    db.close();
    await expect(openHistory(file)).rejects.toThrow(
      `schema version ${HISTORY_SCHEMA_VERSION + 1}, newer than this skillbench's ${HISTORY_SCHEMA_VERSION}`,
    );
  });

  it("a stored record that does not parse is named, not trusted", async () => {
    const file = path.join(dir, "history.db");
    const store = await openHistory(file);
    await store.record(rec("e1"));
    await store.close();
    const { default: Database } = await import("better-sqlite3");
    const db = new Database(file);
    db.prepare("UPDATE experiments SET record = ?").run(
      JSON.stringify({ schema: HISTORY_RECORD_SCHEMA }),
    );
    db.close();
    const again = await openHistory(file);
    await expect(again.records()).rejects.toThrow(/a stored record does not match its schema/);
    await again.close();
  });
});

function calibration(model: string, createdAt: string, alpha: number): JudgeCalibration {
  const est = { estimate: alpha, low: alpha, high: alpha, valid_replicates: 10 };
  return {
    schema: JUDGE_CALIBRATION_SCHEMA,
    created_at: createdAt,
    experiment_id: "e1",
    labels_file: "/l.jsonl",
    judge: {
      model,
      prompt_kind: "generic",
      prompt_digest: "p".repeat(64),
      rubric: { profile: "generic", dimensions: ["task_completion"] },
      rubric_digest: "r".repeat(64),
    },
    levels: 3,
    bootstrap: { replicates: 10, seed: 1, level: 0.95 },
    raters: ["ana"],
    dimensions: [
      { name: "task_completion", units: 4, alpha_ordinal: est, alpha_nominal: est, raters: [] },
    ],
    repeatability: [],
    pairwise: { labels: 0, judged_pairs: 0, note: "no pair labels" },
    notes: [],
  };
}

describe("judge calibrations in the store (migration 2)", () => {
  const key = { model: "m", prompt_digest: "p".repeat(64), rubric_digest: "r".repeat(64) };

  it("kept by judge and folder, newest first; the same folder again replaces it", async () => {
    const file = path.join(dir, "history.db");
    const store = await openHistory(file);
    await store.recordCalibration("/r/a", calibration("m", "2026-12-06T10:00:00Z", 0.2));
    await store.recordCalibration("/r/b", calibration("m", "2026-12-06T11:00:00Z", 0.9));
    await store.recordCalibration("/r/a", calibration("m", "2026-12-06T12:00:00Z", 0.8));
    await store.recordCalibration("/r/a", calibration("other", "2026-12-06T13:00:00Z", 1));
    const got = await store.calibrations(key);
    const none = await store.calibrations({ ...key, model: "x" });
    await store.close();
    expect(none).toEqual([]);
    expect(
      got.map((c) => [c.results_dir, c.calibration.dimensions[0]?.alpha_ordinal.estimate]),
    ).toEqual([
      ["/r/a", 0.8],
      ["/r/b", 0.9],
    ]);
  });

  it("a store of schema version 1 is migrated: its records kept, the table added", async () => {
    const file = path.join(dir, "history.db");
    const old = await openHistory(file);
    await old.record(rec("e1"));
    await old.close();
    const { default: Database } = await import("better-sqlite3");
    const db = new Database(file);
    db.exec("DROP TABLE judge_calibrations; DELETE FROM history_migrations WHERE version = 2");
    db.close();
    const store = await openHistory(file);
    await store.recordCalibration("/r/a", calibration("m", "t", 1));
    expect((await store.calibrations(key)).length).toBe(1);
    expect((await store.records()).map((r) => r.experiment_id)).toEqual(["e1"]);
    await store.close();
    expect(HISTORY_SCHEMA_VERSION).toBe(2);
  });

  it("a stored calibration that does not parse is named, not trusted", async () => {
    const file = path.join(dir, "history.db");
    const store = await openHistory(file);
    await store.recordCalibration("/r/a", calibration("m", "t", 1));
    await store.close();
    const { default: Database } = await import("better-sqlite3");
    const db = new Database(file);
    db.prepare("UPDATE judge_calibrations SET record = ?").run(JSON.stringify({ levels: 3 }));
    db.close();
    const again = await openHistory(file);
    await expect(again.calibrations(key)).rejects.toThrow(
      `${file}: a stored judge calibration does not match its schema`,
    );
    await again.close();
  });
});

describe("judge calibrations in a PostgreSQL store", () => {
  const key = { model: "m", prompt_digest: "p".repeat(64), rubric_digest: "r".repeat(64) };
  let pg: TestPostgres | null = null;
  afterAll(async () => {
    await pg?.stop();
  });

  it("the same table through migration 2: kept, replaced per folder, looked up by judge", async () => {
    pg = await startPostgres();
    const store = await openHistory(pg.url);
    await store.record(rec("e1"));
    await store.recordCalibration("/r/a", calibration("m", "2026-12-06T10:00:00Z", 0.2));
    await store.recordCalibration("/r/b", calibration("m", "2026-12-06T11:00:00Z", 0.9));
    await store.recordCalibration("/r/a", calibration("m", "2026-12-06T12:00:00Z", 0.8));
    await store.recordCalibration("/r/a", calibration("other", "2026-12-06T13:00:00Z", 1));
    await store.close();
    // a second start finds every migration applied
    const again = await openHistory(pg.url);
    const got = await again.calibrations(key);
    const records = await again.records();
    await again.close();
    expect(
      got.map((c) => [c.results_dir, c.calibration.dimensions[0]?.alpha_ordinal.estimate]),
    ).toEqual([
      ["/r/a", 0.8],
      ["/r/b", 0.9],
    ]);
    expect(records.map((r) => r.experiment_id)).toEqual(["e1"]);
  }, 120_000);
});

describe("where records go", () => {
  it.each([
    ["/w/.skillbench/runs/20261206-1", {}, "/w/.skillbench/history.db"],
    ["/tmp/x/results", {}, "/tmp/x/.skillbench/history.db"],
    ["/tmp/x/results", { SKILLBENCH_HISTORY_URL: "postgres://h/db" }, "postgres://h/db"],
  ])("%s %j → %s", (out, env, want) => {
    expect(defaultHistoryTarget(out, env)).toBe(want);
  });

  it.each([
    ["postgres://u:secret@h:5432/db", "postgres://u:***@h:5432/db"],
    ["postgresql://u@h/db", "postgresql://u@h/db"],
  ])("%s is shown as %s", (url, shown) => {
    expect(maskUrl(url)).toBe(shown);
  });
});
