export { attributeFailures } from "./attribution.js";
export { classifySample, unresponsiveEvidence } from "./sample-quality.js";
