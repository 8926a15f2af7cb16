/** `compare DIR_A DIR_B`: two experiments aligned case by case (docs/reports.md, "Aligned comparison"). */
export {
  AlignedComparisonSchema,
  buildAlignedComparison,
  type AlignedComparison,
} from "./build.js";
export { renderAlignedMarkdown } from "./render.js";
export { writeAlignedComparison } from "./write.js";
