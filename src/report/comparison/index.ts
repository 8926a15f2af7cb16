export { buildComparison, type ComparisonInput } from "./build.js";
export { renderComparisonMarkdown } from "./render.js";
export {
  writeComparison,
  writeComparisonOf,
  readComparisonSource,
  comparisonJsonPath,
} from "./write.js";
export * from "./types.js";
export * from "./tuning.js";
export { verdictLines } from "./console.js";
