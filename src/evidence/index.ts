/** Claude Code stream-json transcript -> Evidence. */
// The registry hands evidence the agents' Skill folders when it loads (evidence/paths.ts).
import "../agents/registry.js";

export { EvidenceBuilder, type EvidenceOptions } from "./builder.js";
export { parseEvidence, parseEvidenceChunks, resultTextOf } from "./parse.js";
export { parseEvidenceFile, STREAM_CHUNK_BYTES } from "./file.js";
export { MAX_TOOL_TEXT } from "./text.js";
