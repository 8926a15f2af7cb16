/** Claude Code stream-json transcript -> Evidence. */
export { EvidenceBuilder, MISSING_TYPE, type EvidenceOptions } from "./builder.js";
export { parseEvidence, resultTextOf } from "./parse.js";
export { parseEvidenceFile, type LineDecoder } from "./file.js";
export { MAX_TOOL_TEXT } from "./text.js";
