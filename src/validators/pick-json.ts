import { isRecord } from "../core/json.js";

function parseObject(text: string): Record<string, unknown> | null {
  const t = text.trim();
  if (!t.startsWith("{")) return null;
  try {
    const v: unknown = JSON.parse(t);
    return isRecord(v) ? v : null;
  } catch {
    return null;
  }
}

/**
 * Choose a validator's JSON result (docs/tasks.md, Validation step 4). Pure; never throws.
 * 1. the results file (`_test_results.json`) when it holds a JSON object;
 * 2. else the whole stdout when it is one JSON object;
 * 3. else the last stdout line that is a JSON object;
 * 4. else null.
 * Only JSON objects count: an array or a scalar is treated as "no result".
 */
export function pickValidatorJson(resultsFileText: string | null, stdout: string): unknown {
  if (resultsFileText !== null) {
    const fromFile = parseObject(resultsFileText);
    if (fromFile !== null) return fromFile;
  }
  const whole = parseObject(stdout);
  if (whole !== null) return whole;
  const lines = stdout.split(/\r?\n/);
  for (let i = lines.length - 1; i >= 0; i--) {
    const obj = parseObject(lines[i] ?? "");
    if (obj !== null) return obj;
  }
  return null;
}
