/** The LLM judge overlay. See docs/judge.md. */
export {
  resolveJudgeConfig,
  parseSuiteJudgeSection,
  isActiveJudge,
  envFlagOn,
  SuiteJudgeSectionSchema,
  MISSING_MODEL_REASON,
  MISSING_CREDENTIAL_REASON,
  DEFAULT_JUDGE_MAX_TOKENS,
  DEFAULT_JUDGE_TIMEOUT_MS,
  type JudgeConfig,
  type ActiveJudgeConfig,
  type JudgeCredential,
  type JudgeCliOptions,
  type ResolveJudgeConfigInput,
} from "./config.js";
export { buildJudgeEnv, JUDGE_PLACEHOLDER_KEY, type JudgeEnvInput } from "./env.js";
export {
  dumpWorkspace,
  readInsideText,
  listDumpCandidates,
  type WorkspaceDump,
} from "./workspace-dump.js";
export { assembleDump, EMPTY_WORKSPACE } from "./dump-text.js";
export {
  readCometArtifacts,
  findChangeDir,
  NO_CHANGE_DIR_REASON,
  type CometArtifacts,
} from "./comet-artifacts.js";
export {
  buildGenericPrompt,
  buildCometPrompt,
  buildRepairPrompt,
  genericDimensions,
  GENERIC_DIMENSIONS,
  COMET_DIMENSIONS,
  type Baseline,
} from "./prompts.js";
export {
  parseJudgeAnswer,
  judgeLine,
  judgeStatusLine,
  type ParsedVerdict,
  type ParsedScore,
} from "./parse.js";
export { httpTransport, messagesUrl, judgeHeaders } from "./transport-http.js";
export { cliTransport, judgeCliArgs, replyFromStream } from "./transport-cli.js";
export { JudgeCache, judgeCacheKey } from "./cache.js";
export { runJudge, COMET_PROFILE, type RunJudgeInput } from "./run-judge.js";
export {
  JudgeBlockSchema,
  JudgeDimensionSchema,
  type JudgeBlock,
  type JudgeDimension,
  type JudgeReply,
  type JudgeTransport,
} from "./types.js";
