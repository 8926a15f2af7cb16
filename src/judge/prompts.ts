/** The judge prompts (docs/judge.md, Prompts) and the repair prompt. Pure. */

const GENERIC_DIMENSIONS = ["task_completion", "output_quality", "instruction_adherence"] as const;
const MAX_FAILED_CHECKS = 10;
const MAX_INSTRUCTION_CHARS = 4000;

/** task_completion, output_quality, instruction_adherence, then custom_0 … custom_{N-1}. */
export function genericDimensions(rubricCriteria: readonly string[]): string[] {
  return [...GENERIC_DIMENSIONS, ...rubricCriteria.map((_c, i) => `custom_${i}`)];
}

export interface Baseline {
  /** The run's passed and failed check messages (report checks_passed / checks_failed). */
  passed: readonly string[];
  failed: readonly string[];
}

/** Informational `[RUBRIC]` / `[RUBRIC-JUDGE]` lines are not checks. */
function isCheck(line: string): boolean {
  return !/^\[RUBRIC(-JUDGE)?\]/.test(line.trim());
}

export function baselineText(b: Baseline): string {
  const passed = b.passed.filter(isCheck);
  const failed = b.failed.filter(isCheck);
  if (passed.length === 0 && failed.length === 0)
    return "Baseline validation results:\n(no baseline checks)";
  const lines = [
    `Baseline validation results:`,
    `Passed: ${passed.length}, Failed: ${failed.length}`,
  ];
  if (failed.length > 0) {
    lines.push("Failed checks:");
    for (const f of failed.slice(0, MAX_FAILED_CHECKS)) lines.push(`- ${f}`);
    if (failed.length > MAX_FAILED_CHECKS)
      lines.push(`- (${failed.length - MAX_FAILED_CHECKS} more)`);
  }
  return lines.join("\n");
}

/**
 * Ties are ties (docs/judge.md): outputs that meet every criterion score the same, whatever their
 * length. Part of the prompt, so it is hashed into the cache key with it.
 */
const SCORE_TIES_RULE =
  "Outputs that meet every criterion of a dimension score 1.00 on it, however short: never reward length, detail or verbosity beyond what the task asks.";

/** The strict answer format asked for, with the line format as the accepted fallback. */
function answerFormat(dims: readonly string[]): string {
  const example = `{"scores": {${dims.map((d) => `"${d}": {"score": 0.00, "reason": "..."}`).join(", ")}}}`;
  return [
    `Score ALL ${dims.length} dimensions (${dims.join(", ")}) from 0.00 to 1.00.`,
    SCORE_TIES_RULE,
    "Each reason must cite the artifacts in at most 25 words.",
    "Answer with ONLY one fenced JSON block, exactly in this form:",
    "```json",
    example,
    "```",
    `If you cannot produce JSON, output instead EXACTLY ${dims.length} lines, one per dimension:`,
    ...dims.map((d) => `[RUBRIC-JUDGE] ${d}: <score> - <reason>`),
  ].join("\n");
}

export interface GenericPromptInput {
  baseline: Baseline;
  rubricCriteria: readonly string[];
  workspaceDump: string;
  /** The task's instruction, when known (beyond the original prompt). */
  instruction?: string | null | undefined;
}

export function buildGenericPrompt(i: GenericPromptInput): string {
  const dims = genericDimensions(i.rubricCriteria);
  const parts = [
    "You are an impartial judge scoring an AI agent's task execution.",
    `Read the evidence below and score ${dims.length} dimensions from 0.00 to 1.00.`,
    "",
    "Criteria:",
    "- task_completion: 1.0 = all requirements met, artifacts correct, baseline checks pass; 0.5 = partial; 0.0 = not done.",
    "- output_quality: 1.0 = well-structured, non-trivial work; 0.5 = shallow; 0.0 = missing or a stub.",
    "- instruction_adherence: 1.0 = followed all instructions and constraints; 0.5 = minor deviations; 0.0 = significant violations or dangerous commands.",
  ];
  if (i.rubricCriteria.length > 0) {
    parts.push("", "Additional task-specific criteria:");
    i.rubricCriteria.forEach((c, n) => parts.push(`- custom_${n}: ${c}`));
  }
  if (i.instruction) {
    parts.push(
      "",
      "Task instruction given to the agent:",
      i.instruction.slice(0, MAX_INSTRUCTION_CHARS),
    );
  }
  parts.push(
    "",
    baselineText(i.baseline),
    "",
    "=== Workspace artifacts ===",
    i.workspaceDump,
    "",
    answerFormat(dims),
  );
  return parts.join("\n");
}

/** A profile's own prompt (`ProfileJudge.prompt`) followed by the answer format of its dimensions. */
export function withAnswerFormat(prompt: string, dims: readonly string[]): string {
  return [prompt, "", answerFormat(dims)].join("\n");
}

const MAX_BAD_ANSWER_CHARS = 2000;

/** The one repair attempt: the original prompt, the unparseable answer, the format again. */
export function buildRepairPrompt(
  prompt: string,
  badAnswer: string,
  dims: readonly string[],
): string {
  const bad =
    badAnswer.length > MAX_BAD_ANSWER_CHARS
      ? `${badAnswer.slice(0, MAX_BAD_ANSWER_CHARS)}[...]`
      : badAnswer;
  return [
    prompt,
    "",
    "=== Your previous answer ===",
    bad,
    "=== End of previous answer ===",
    "",
    "Your previous answer could not be parsed. Answer again, following the required format exactly.",
    answerFormat(dims),
  ].join("\n");
}
