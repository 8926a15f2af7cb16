/** Whole-text entry points. Pure. */
import type { Evidence } from "../core/evidence.js";
import { EvidenceBuilder, type EvidenceOptions } from "./builder.js";
import { LineSplitter } from "./lines.js";

/**
 * Parse a whole stream-json transcript (lines split on `\n`). A last line without a
 * newline that fails to parse is reported as `diagnostics.truncated_last_line`.
 */
export function parseEvidence(text: string, opts?: EvidenceOptions): Evidence {
  const builder = new EvidenceBuilder(opts);
  const splitter = new LineSplitter((line) => builder.pushLine(line));
  splitter.push(text);
  const truncated = splitter.end();
  return builder.finish({ truncated });
}

/** The agent's final answer: the last result text, else the last assistant text. */
export function resultTextOf(evidence: Evidence): string | null {
  if (evidence.result_text !== null) return evidence.result_text;
  for (let i = evidence.results.length - 1; i >= 0; i -= 1) {
    const r = evidence.results[i]?.result;
    if (typeof r === "string") return r;
  }
  return null;
}
