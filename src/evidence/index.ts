/** Claude Code stream-json transcript -> Evidence. */
export { EvidenceBuilder, type EvidenceOptions } from "./builder.js";
export { parseEvidence, parseEvidenceChunks, resultTextOf } from "./parse.js";
export { parseEvidenceFile, STREAM_CHUNK_BYTES } from "./file.js";
export { MAX_TOOL_TEXT } from "./text.js";
