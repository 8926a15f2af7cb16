export { buildComparison, type ComparisonInput } from "./build.js";
export { renderComparisonMarkdown } from "./render.js";
export { writeComparison, comparisonJsonPath, type WriteComparisonOptions } from "./write.js";
export { resolveRoles, CONTROL, type RoleOptions } from "./roles.js";
export * from "./types.js";
