/**
 * The human labels file of `skillbench judge calibrate` (docs/judge.md, "Calibration"): JSONL,
 * one label per line, either per run and dimension
 *   {"run_id": "add-function-WITH_SKILL-r1", "dimension": "task_completion", "label": 0.5, "rater": "ana"}
 * or per pair (pairwise judging)
 *   {"task": "add-function", "repetition": 1, "preferred": "candidate" | "baseline" | "tie", "rater": "ana"}
 * `rater` is optional (default `human`). Blank lines and lines starting with `#` are skipped.
 * Pure: parses text; a bad line is an InputError naming the file, the line and the field.
 */
import { z } from "zod";
import { InputError } from "../../core/errors.js";

const Rater = z.string().min(1).max(200).optional();

const RunLabelSchema = z.strictObject({
  run_id: z.string().min(1),
  dimension: z.string().min(1),
  /** On the judge's own scale, 0..1 (the calibration maps both onto its levels). */
  label: z.number().min(0).max(1),
  rater: Rater,
});

const PairLabelSchema = z.strictObject({
  task: z.string().min(1),
  repetition: z.number().int().positive(),
  preferred: z.enum(["candidate", "baseline", "tie"]),
  rater: Rater,
});

export interface RunLabel {
  run_id: string;
  dimension: string;
  label: number;
  rater: string;
  /** 1-based line in the labels file. */
  line: number;
}

export interface PairLabel {
  task: string;
  repetition: number;
  preferred: "candidate" | "baseline" | "tie";
  rater: string;
  line: number;
}

export interface Labels {
  file: string;
  runs: RunLabel[];
  pairs: PairLabel[];
}

const DEFAULT_RATER = "human";

function fail(file: string, line: number, field: string, why: string): InputError {
  return new InputError(`${file}:${line}: ${field}: ${why}`, { file, line, field });
}

/** Parse the labels file's text. The same rater labelling the same run and dimension twice is an error. */
export function parseLabels(file: string, text: string): Labels {
  const runs: RunLabel[] = [];
  const pairs: PairLabel[] = [];
  const seen = new Map<string, number>();
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = i + 1;
    const s = raw.trim();
    if (s === "" || s.startsWith("#")) return;
    let value: unknown;
    try {
      value = JSON.parse(s);
    } catch (e) {
      throw fail(file, line, "(line)", `not JSON (${(e as Error).message})`);
    }
    if (typeof value !== "object" || value === null || Array.isArray(value))
      throw fail(file, line, "(line)", "expected one JSON object per line");
    const isPair = "preferred" in value || "task" in value;
    const parsed = (isPair ? PairLabelSchema : RunLabelSchema).safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field =
        issue?.code === "unrecognized_keys"
          ? issue.keys.join(", ")
          : issue?.path.map(String).join(".") || "(line)";
      const expected = isPair
        ? "{task, repetition, preferred: candidate|baseline|tie, rater?}"
        : "{run_id, dimension, label: 0..1, rater?}";
      throw fail(file, line, field, `${issue?.message ?? "invalid"} (expected ${expected})`);
    }
    const d = parsed.data;
    const rater = d.rater ?? DEFAULT_RATER;
    const key =
      "run_id" in d
        ? `run\0${d.run_id}\0${d.dimension}\0${rater}`
        : `pair\0${d.task}\0${d.repetition}\0${rater}`;
    const before = seen.get(key);
    if (before !== undefined)
      throw fail(
        file,
        line,
        "rater",
        `${rater} already labelled this ${"run_id" in d ? "run and dimension" : "pair"} on line ${before}`,
      );
    seen.set(key, line);
    if ("run_id" in d) runs.push({ ...d, rater, line });
    else pairs.push({ ...d, rater, line });
  });
  if (runs.length === 0 && pairs.length === 0)
    throw new InputError(`${file}: no labels (expected JSONL, one label per line)`, { file });
  return { file, runs, pairs };
}

/** An fs error's code (ENOENT, EACCES, …), else its message. */
export function errorCode(e: unknown): string {
  if (typeof e === "object" && e !== null && "code" in e && typeof e.code === "string")
    return e.code;
  return e instanceof Error ? e.message : String(e);
}
