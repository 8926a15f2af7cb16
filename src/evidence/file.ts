/** Streaming file reader for transcripts: bounded memory (one line at a time). */
import { createReadStream } from "node:fs";
import type { Evidence } from "../core/evidence.js";
import { errorMessage, InputError } from "../core/errors.js";
import { defaultDecoder, type EvidenceOptions, type LineDecoder } from "./default-decoder.js";
import { LineSplitter } from "./lines.js";

/** The size of the chunks a transcript file is read in. */
export const STREAM_CHUNK_BYTES = 1 << 20;

/** Read a transcript through `decoder` (default: the default agent's, Claude Code's). */
export async function parseEvidenceFile(
  file: string,
  opts?: EvidenceOptions,
  decoder?: LineDecoder,
): Promise<Evidence> {
  const builder = decoder ?? defaultDecoder(opts);
  const splitter = new LineSplitter((line) => builder.pushLine(line));
  try {
    const stream = createReadStream(file, { encoding: "utf8", highWaterMark: STREAM_CHUNK_BYTES });
    for await (const chunk of stream) {
      if (typeof chunk === "string") splitter.push(chunk);
    }
  } catch (e) {
    throw new InputError(`${file}: cannot read transcript: ${errorMessage(e)}`, { file });
  }
  const truncated = splitter.end();
  return builder.finish({ truncated });
}
