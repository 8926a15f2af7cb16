/** Whole-text entry points. Pure. */
import type { Evidence } from "../core/evidence.js";
import { defaultDecoder, type EvidenceOptions, type LineDecoder } from "./default-decoder.js";
import { LineSplitter } from "./lines.js";

/**
 * Parse a whole transcript of the default agent (Claude Code's stream-json; lines split on
 * `\n`). A last line without a newline that fails to parse is reported as
 * `diagnostics.truncated_last_line`.
 */
export function parseEvidence(text: string, opts?: EvidenceOptions): Evidence {
  return parseEvidenceChunks([text], defaultDecoder(opts));
}

/**
 * A transcript already in memory, as text chunks, through `decoder` (each agent driver has one):
 * the same lines, in the same order, as parseEvidenceFile reading it from its file.
 */
export function parseEvidenceChunks(chunks: Iterable<string>, decoder: LineDecoder): Evidence {
  const splitter = new LineSplitter((line) => decoder.pushLine(line));
  for (const chunk of chunks) splitter.push(chunk);
  const truncated = splitter.end();
  return decoder.finish({ truncated });
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
