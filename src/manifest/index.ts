/** The eval manifest of a Skill (eval.yaml / comet/eval.yaml) and `skillbench eval`. See docs/manifest.md. */
export { findManifest, loadManifest, normalizeKeys, type LoadedManifest } from "./load.js";
export {
  ManifestSchema,
  InlineTaskSchema,
  SourceTaskSchema,
  ExpectSchema,
  MANIFEST_API_VERSIONS,
  MANIFEST_KIND,
  type Manifest,
  type InlineTask,
  type TaskEntry,
  type Expect,
} from "./schema.js";
export {
  compileManifest,
  resolveSkillName,
  baselineOrigin,
  SKILL_TREATMENT,
  DEFAULT_TRIALS,
  type CompiledSuite,
} from "./compile.js";
export {
  parseGates,
  parseGate,
  decideGates,
  renderGatesMarkdown,
  type GateReport,
  type GateSpec,
} from "./gates.js";
export {
  prepareEval,
  runPreparedEval,
  loadOrSynthesize,
  type EvalOptions,
  type EvalSummary,
  type PreparedEval,
  type TaskSource,
} from "./eval.js";
export {
  changedFilesSince,
  lastStoredVerdict,
  renderSkillsRoot,
  skillsUnder,
  splitChanged,
  type SkillEntry,
  type SkillsRootLine,
  type StoredVerdict,
} from "./changed.js";
