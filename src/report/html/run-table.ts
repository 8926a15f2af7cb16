/**
 * The run table of a static page (wire.ts's RunColumns) written straight from the digests, a
 * column at a time and a chunk of runs at a time: the same bytes as
 * jsonForScript(encodeRuns(runs.map(runRow))), without a row object per run or the whole table as
 * one string. Pure.
 */
import type { RunDigest } from "../../core/digest.js";
import { scriptSafe } from "./escape.js";
import { arrayPieces } from "./json-pieces.js";
import { RUN_FIELDS } from "./summary-data.js";
import type { RunRow } from "./wire.js";

type Field = keyof RunRow;

/** The columns in RunColumns's order: a plain array of values, or repeated strings coded as indices. */
const COLUMNS: ReadonlyArray<readonly [Field, "plain" | "coded"]> = [
  ["id", "plain"],
  ["task", "coded"],
  ["treatment", "coded"],
  ["rep", "plain"],
  ["status", "coded"],
  ["outcome", "coded"],
  ["checks_passed", "plain"],
  ["checks_failed", "plain"],
  ["first_failure", "coded"],
  ["weighted_score", "plain"],
  ["tokens", "plain"],
  ["cost_usd", "plain"],
  ["turns", "plain"],
  ["duration_s", "plain"],
  ["quality", "coded"],
  ["reason_code", "coded"],
];

/** Each distinct value's index, in order of first appearance (null is not a value: code -1). */
function dictionary(
  runs: readonly RunDigest[],
  get: (r: RunDigest) => unknown,
): Map<unknown, number> {
  const index = new Map<unknown, number>();
  for (const r of runs) {
    const v = get(r);
    if (v !== null && !index.has(v)) index.set(v, index.size);
  }
  return index;
}

/**
 * The columns read from each run's transcript summary, in one pass: a packed digest builds its
 * events_summary object at every read (store/packed-digests.ts), and six walks read it (four
 * columns, the skills and their dictionary). The numbers as RUN_FIELDS reads them, NaN standing
 * for null; the skills as RUN_FIELDS.skills gives them (each run's list is the digest's own, shared
 * by the runs with the same one). Held for one page: 8 bytes a run per column.
 */
function eventColumns(runs: readonly RunDigest[]): {
  numbers: Partial<Record<Field, Float64Array>>;
  skills: Array<RunRow["skills"]>;
} {
  const n = runs.length;
  const tokens = new Float64Array(n);
  const cost = new Float64Array(n);
  const turns = new Float64Array(n);
  const duration = new Float64Array(n);
  const skills = new Array<RunRow["skills"]>(n);
  for (let i = 0; i < n; i++) {
    const e = (runs[i] as RunDigest).events_summary;
    tokens[i] = e?.total_tokens ?? NaN;
    cost[i] = e?.total_cost_usd ?? NaN;
    turns[i] = e?.num_turns ?? NaN;
    duration[i] = e?.duration_seconds ?? NaN;
    skills[i] = e?.skills_invoked ?? [];
  }
  return { numbers: { tokens, cost_usd: cost, turns, duration_s: duration }, skills };
}

const nullIfNaN = (x: number): number | null => (Number.isNaN(x) ? null : x);

export function* runColumnPieces(runs: readonly RunDigest[]): Generator<string> {
  yield `{"count":${String(runs.length)}`;
  const events = eventColumns(runs);
  for (const [field, kind] of COLUMNS) {
    const get: (r: RunDigest) => unknown = RUN_FIELDS[field];
    yield `,"${field}":`;
    if (kind === "plain") {
      const numbers = events.numbers[field];
      yield* numbers ? arrayPieces(numbers, nullIfNaN) : arrayPieces(runs, get);
      continue;
    }
    const index = dictionary(runs, get);
    yield `{"values":${scriptSafe(JSON.stringify([...index.keys()]))},"codes":`;
    yield* arrayPieces(runs, (r) => {
      const v = get(r);
      return v === null ? -1 : index.get(v);
    });
    yield "}";
  }
  const skills = new Map<string, number>();
  for (const list of events.skills)
    for (const s of list) if (!skills.has(s)) skills.set(s, skills.size);
  yield ',"skills":';
  yield* arrayPieces(events.skills, (list) => list.map((s) => skills.get(s)));
  yield `,"skill_names":${scriptSafe(JSON.stringify([...skills.keys()]))}}`;
}
