export { attributeFailures } from "./attribution.js";
export { classifySample, unresponsiveEvidence, type TypedEvidence } from "./sample-quality.js";
