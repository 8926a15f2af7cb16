export { attributeFailures } from "./attribution.js";
export { classifySample } from "./sample-quality.js";
