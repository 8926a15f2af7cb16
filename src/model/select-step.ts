import type { RequestFacts } from "./request-facts.js";
import { runLabel, type RunRef } from "./run-path.js";
import type { IntMatcher, ModelScript, Rule, Step, TextMatcher, When } from "./script.js";

/** Rule matching and step selection. Pure and stateless: the same request always picks the same step. */

export function intMatches(m: IntMatcher, n: number): boolean {
  switch (m.kind) {
    case "values":
      return m.values.includes(n);
    case "every":
      return ((n % m.every) + m.every) % m.every === m.offset % m.every;
    case "range":
      return (m.min === null || n >= m.min) && (m.max === null || n <= m.max);
  }
}

export function textMatches(list: TextMatcher[], text: string | null): boolean {
  if (text === null) return false;
  return list.some((m) => {
    switch (m.kind) {
      case "contains":
        return text.includes(m.value);
      case "equals":
        return text.trim() === m.value.trim();
      case "regex":
        return m.re.test(text);
    }
  });
}

export function whenMatches(when: When, run: RunRef, facts: RequestFacts): boolean {
  if (when.task && (run.task === null || !when.task.includes(run.task))) return false;
  if (when.treatment && (run.treatment === null || !when.treatment.includes(run.treatment)))
    return false;
  if (when.model && (facts.model === null || !when.model.includes(facts.model))) return false;
  if (when.rep && !intMatches(when.rep, run.rep)) return false;
  if (when.role && !when.role.includes(run.role)) return false;
  if (when.position && !intMatches(when.position, facts.position)) return false;
  if (when.user_text && !textMatches(when.user_text, facts.userText)) return false;
  if (when.tool_result && !textMatches(when.tool_result, facts.toolResult)) return false;
  if (when.system && !textMatches(when.system, facts.systemText)) return false;
  if (when.tool && !when.tool.every((t) => facts.tools.includes(t))) return false;
  if (when.skill && !when.skill.every((s) => facts.skills.includes(s))) return false;
  return true;
}

export type Selection =
  | {
      kind: "step";
      rule: Rule;
      /** Index into rule.steps actually played (the last one when repeating). */
      stepIndex: number;
      /** Position within the rule's sequence (conversation or turn count). */
      sequenceIndex: number;
      /** Which by_rep alternative was picked, or null for a plain step. */
      alternative: number | null;
      step: Step;
    }
  | { kind: "no_match"; message: string }
  | { kind: "past_end"; rule: Rule; sequenceIndex: number; message: string };

function snippet(text: string | null, max = 200): string {
  if (text === null) return "(none)";
  const t = text.replace(/\s+/g, " ").trim();
  return JSON.stringify(t.length > max ? `${t.slice(0, max)}...` : t);
}

function describe(run: RunRef, facts: RequestFacts): string {
  return (
    `${runLabel(run)}; position ${facts.position} (turn position ${facts.turnPosition}); ` +
    `latest user text: ${snippet(facts.userText)}; latest tool_result: ${snippet(facts.toolResult)}`
  );
}

export function selectStep(script: ModelScript, run: RunRef, facts: RequestFacts): Selection {
  const exhausted: string[] = [];
  for (const rule of script.rules) {
    if (!whenMatches(rule.when, run, facts)) continue;
    const seq = rule.count === "turn" ? facts.turnPosition : facts.position;
    let stepIndex = seq;
    if (seq >= rule.steps.length) {
      if (rule.afterLast === "next") {
        exhausted.push(rule.name);
        continue;
      }
      if (rule.afterLast === "error") {
        return {
          kind: "past_end",
          rule,
          sequenceIndex: seq,
          message:
            `skillbench model script: rule ${JSON.stringify(rule.name)} has ${rule.steps.length} step(s) but this request ` +
            `is at ${rule.count} position ${seq} (${describe(run, facts)}). ` +
            `Add steps, or set after_last: repeat (replay the last step) or next (fall through to later rules).`,
        };
      }
      stepIndex = rule.steps.length - 1;
    }
    const rs = rule.steps[stepIndex];
    if (!rs) continue;
    if (rs.kind === "plain")
      return {
        kind: "step",
        rule,
        stepIndex,
        sequenceIndex: seq,
        alternative: null,
        step: rs.step,
      };
    const alternative = (run.rep - 1) % rs.alternatives.length;
    const step = rs.alternatives[alternative];
    if (step) return { kind: "step", rule, stepIndex, sequenceIndex: seq, alternative, step };
  }
  const tail =
    exhausted.length > 0 ? ` (matched but past their last step: ${exhausted.join(", ")})` : "";
  return {
    kind: "no_match",
    message: `skillbench model script: no rule matched this request${tail} (${describe(run, facts)}).`,
  };
}
