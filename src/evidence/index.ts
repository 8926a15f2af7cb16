/** Claude Code stream-json transcript -> Evidence. */
export { EvidenceBuilder, type EvidenceOptions } from "./builder.js";
export { parseEvidence, resultTextOf } from "./parse.js";
export { parseEvidenceFile } from "./file.js";
export { MAX_TOOL_TEXT } from "./text.js";
