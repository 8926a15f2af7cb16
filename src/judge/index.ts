/** The LLM judge overlay. See docs/judge.md. */
export {
  resolveJudgeConfig,
  isActiveJudge,
  type JudgeCliOptions,
  type JudgeConfig,
} from "./config.js";
export { JudgeCache } from "./cache.js";
export { runJudge } from "./run-judge.js";
