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

export function* runColumnPieces(runs: readonly RunDigest[]): Generator<string> {
  yield `{"count":${String(runs.length)}`;
  for (const [field, kind] of COLUMNS) {
    const get: (r: RunDigest) => unknown = RUN_FIELDS[field];
    yield `,"${field}":`;
    if (kind === "plain") {
      yield* arrayPieces(runs, get);
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
  for (const r of runs)
    for (const s of RUN_FIELDS.skills(r)) if (!skills.has(s)) skills.set(s, skills.size);
  yield ',"skills":';
  yield* arrayPieces(runs, (r) => RUN_FIELDS.skills(r).map((s) => skills.get(s)));
  yield `,"skill_names":${scriptSafe(JSON.stringify([...skills.keys()]))}}`;
}
