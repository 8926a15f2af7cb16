/** Trajectories: the agent's tool calls in order, and the Skill's steps matched on them (docs/trajectory.md). */
export { matchSteps, stepLabel, type StepResult, type StepsMatch } from "./match.js";
export {
  compileRegex,
  StepsSchema,
  ToolsExpectSchema,
  type Step,
  type Steps,
  type ToolsExpect,
} from "./schema.js";
export { trajectoryOf, trajectoryText, type ToolKind, type TrajectoryCall } from "./trajectory.js";
