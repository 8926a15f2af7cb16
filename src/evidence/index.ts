/** Agent transcript -> Evidence (each driver's decoder; Claude Code's stream-json by default). */
// The registry hands evidence the agents' Skill folders and the default decoder when it loads
// (evidence/paths.ts, evidence/default-decoder.ts).
import "../agents/registry.js";

export type { EvidenceOptions } from "./default-decoder.js";
export { parseEvidence, parseEvidenceChunks, resultTextOf } from "./parse.js";
export { parseEvidenceFile, STREAM_CHUNK_BYTES } from "./file.js";
export { MAX_TOOL_TEXT } from "./text.js";
