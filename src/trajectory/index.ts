/** Trajectories: the agent's tool calls in order, and the Skill's steps matched on them (docs/trajectory.md). */
export { matchSteps } from "./match.js";
export { StepsSchema, ToolsExpectSchema } from "./schema.js";
export { trajectoryOf, trajectoryText, type TrajectoryCall } from "./trajectory.js";
