/** skillbench's library API. The CLI is a thin layer over these calls. */
export {
  runSuite,
  SKILLBENCH_VERSION,
  type RunOptions,
  type RunSummary,
  type ProgressEvent,
} from "./runner/run-suite.js";
export { writeExperimentReports, writeExperimentReportsOf } from "./runner/finish.js";
export { mergeResults, type MergeOptions, type MergeSummary } from "./runner/merge.js";
export { parseShard, shardRuns, type Shard } from "./plan/shard.js";
export { runCalibration, DEFAULT_PER_ARM, type CalibrateOptions } from "./runner/calibrate.js";
export { floorLine } from "./report/calibration/render.js";
export { MIN_PER_ARM } from "./report/calibration/types.js";
export { runUntilDecided, type UntilDecidedOptions } from "./runner/until-decided.js";
export { runWithPilot } from "./runner/pilot.js";
export { loadSuite, selectNames } from "./suite/index.js";
export { loadModelScript, startModelServer, runBaseUrl, type ModelServer } from "./model/index.js";
export { serveModel } from "./model/serve-command.js";
export { parseEvidence, parseEvidenceFile } from "./evidence/index.js";
export { readReports } from "./store/read.js";
export { holdResultsFolder } from "./runner/results-folder.js";
export { resolveClaudeBinary } from "./agents/claude/binary.js";
export {
  DiskFullError,
  errorPath,
  InputError,
  isDiskFull,
  SkillbenchError,
} from "./core/errors.js";
export { RunReportSchema, type RunReport } from "./core/report.js";
export { compactDigest, type RunDigest } from "./core/digest.js";
export { EvidenceSchema, type Evidence } from "./core/evidence.js";
export {
  buildComparison,
  renderComparisonMarkdown,
  writeComparison,
  writeComparisonOf,
  readComparisonSource,
  verdictLines,
  type Comparison,
} from "./report/comparison/index.js";
export {
  AlignedComparisonSchema,
  buildAlignedComparison,
  renderAlignedMarkdown,
  writeAlignedComparison,
  type AlignedComparison,
} from "./report/aligned/index.js";
export { rescoreResults, type RescoreOptions, type RescoreResult } from "./runner/rescore.js";
export { evaluateRun } from "./runner/evaluate.js";
export { runDoctor, renderDoctor } from "./doctor/index.js";
export {
  createSandbox,
  chooseSandbox,
  probeSandboxes,
  type Sandbox,
  type SandboxChoice,
} from "./sandbox/index.js";
export {
  writeCiOutputs,
  writeCiOutputsFrom,
  type CiOptions,
  type CiResult,
} from "./runner/ci-outputs.js";
export {
  runWithReporters,
  ReporterLifecycle,
  reporterProgress,
  experimentResults,
  readResults,
  BUILTIN_REPORTERS,
  type CommandSteps,
} from "./runner/lifecycle.js";
export { ciReporters, type CiReporters } from "./report/reporters/ci.js";
export { folderReporters, type FolderReportOptions } from "./report/reporters/folder.js";
export type {
  Reporter,
  ReporterName,
  ReporterOutcome,
  ExperimentResults,
  GateResult,
  PlanInfo,
  ResultsRead,
} from "./report/reporters/types.js";
export { writeHtmlReports } from "./report/html/write.js";
export { serveResults } from "./viewer/server.js";
export { parseThresholds, evaluateThresholds } from "./report/thresholds.js";
export {
  runSuiteOnQueue,
  startWorker,
  parseQueueUrl,
  redactQueueUrl,
  parseRateLimit,
  queueStatus,
  renderQueueStatus,
  pauseQueue,
  resumeQueue,
  drainQueue,
  serveQueueMetrics,
  type QueueUrl,
  type QueueRunSettings,
  type RateLimit,
  type WorkerOptions,
  type RunningWorker,
  type ArtifactStore,
} from "./queue/index.js";
export {
  openTelemetry,
  exportStoredResults,
  TelemetrySession,
  type TelemetryOptions,
  type SessionOutcome,
  type ExportOutcome,
  telemetryLines,
  telemetryReporter,
  type TelemetryReporter,
} from "./telemetry/index.js";
export {
  runTriggers,
  planTriggers,
  type TriggerOptions,
  type TriggerProgress,
  type TriggerSummary,
  outcomeLabel,
  GenerationError,
  probingAgents,
  runTriggersOnAgents,
  type AgentsSummary,
} from "./triggers/index.js";
export type { SuiteWarning } from "./suite/index.js";
export {
  planSuite,
  renderPlan,
  renderMatrix,
  renderTasksAndTreatments,
  type SuitePlan,
  type PlanOptions,
} from "./inspect/plan.js";
export * from "./manifest/index.js";
export {
  planTarget,
  isSkillFolder,
  validateTarget,
  validatorProblem,
  type TargetPlan,
  type SkillInfo,
} from "./inspect/target.js";
export { initSuite, initSkillManifest, type InitResult } from "./manifest/init.js";
export { stripControls } from "./util/safe-text.js";
export * from "./health/index.js";
export {
  HEALTH_KINDS,
  HealthReportSchema,
  healthEffect,
  leftOutTasks,
  type HealthKind,
  type HealthProblem,
  type HealthReport,
} from "./core/health.js";
