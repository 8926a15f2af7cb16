import type {
  FaultInput,
  IntMatcherInput,
  ModelScriptFile,
  RuleInput,
  StepInput,
  TextMatcherInput,
  ToolUseInput,
  UsageInput,
  WhenInput,
} from "./script-schema.js";
import type {
  Block,
  Fault,
  IntMatcher,
  ModelScript,
  Rule,
  RuleStep,
  Step,
  TextMatcher,
  Usage,
  When,
} from "./script.js";

/** Turn a schema-valid script file into the `ModelScript` the server plays. Pure. */

const ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  500: "api_error",
  529: "overloaded_error",
};

function defaultErrorType(status: number): string {
  return ERROR_TYPES[status] ?? (status < 500 ? "invalid_request_error" : "api_error");
}

function textMatcher(m: TextMatcherInput): TextMatcher[] {
  const list = Array.isArray(m) ? m : [m];
  return list.map((x): TextMatcher => {
    if (typeof x === "string") return { kind: "contains", value: x };
    if ("contains" in x) return { kind: "contains", value: x.contains };
    if ("equals" in x) return { kind: "equals", value: x.equals };
    return { kind: "regex", re: new RegExp(x.regex, x.flags) };
  });
}

function intMatcher(m: IntMatcherInput): IntMatcher {
  if (typeof m === "number") return { kind: "values", values: [m] };
  if (Array.isArray(m)) return { kind: "values", values: m };
  if ("every" in m) return { kind: "every", every: m.every, offset: m.offset ?? 0 };
  return { kind: "range", min: m.min ?? null, max: m.max ?? null };
}

function list<T>(v: T | T[]): T[] {
  return Array.isArray(v) ? v : [v];
}

function normalizeWhen(w: WhenInput | undefined): When {
  const out: When = {};
  if (!w) return out;
  if (w.task !== undefined) out.task = list(w.task);
  if (w.treatment !== undefined) out.treatment = list(w.treatment);
  if (w.model !== undefined) out.model = list(w.model);
  if (w.rep !== undefined) out.rep = intMatcher(w.rep);
  if (w.role !== undefined) out.role = list(w.role);
  if (w.position !== undefined) out.position = intMatcher(w.position);
  if (w.user_text !== undefined) out.user_text = textMatcher(w.user_text);
  if (w.tool_result !== undefined) out.tool_result = textMatcher(w.tool_result);
  if (w.system !== undefined) out.system = textMatcher(w.system);
  if (w.tool !== undefined) out.tool = list(w.tool);
  if (w.skill !== undefined) out.skill = list(w.skill);
  return out;
}

function toolBlock(t: ToolUseInput): Block {
  return { type: "tool_use", name: t.name, input: t.input ?? {}, id: t.id ?? null };
}

function normalizeUsage(u: UsageInput | undefined): Partial<Usage> {
  const out: Partial<Usage> = {};
  if (!u) return out;
  if (u.input_tokens !== undefined) out.input_tokens = u.input_tokens;
  if (u.output_tokens !== undefined) out.output_tokens = u.output_tokens;
  if (u.cache_read_input_tokens !== undefined)
    out.cache_read_input_tokens = u.cache_read_input_tokens;
  if (u.cache_creation_input_tokens !== undefined)
    out.cache_creation_input_tokens = u.cache_creation_input_tokens;
  return out;
}

function normalizeFault(f: FaultInput, defaultTimes: number | null): Fault {
  const base = { delayMs: f.delay_ms ?? 0, times: f.times ?? defaultTimes };
  if (f.hang) return { ...base, kind: "hang" };
  if (f.cut !== undefined) {
    const cut = f.cut === true ? {} : f.cut;
    return {
      ...base,
      kind: "cut",
      afterEvents: cut.after_events ?? null,
      clean: cut.clean ?? false,
    };
  }
  const status = f.status ?? 500;
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(f.headers ?? {})) headers[k.toLowerCase()] = String(v);
  return {
    ...base,
    kind: "status",
    status,
    errorType: f.error_type ?? defaultErrorType(status),
    message: f.message ?? `scripted fault: HTTP ${status}`,
    body: f.body,
    headers,
  };
}

type PlainStepInput = Omit<StepInput, "by_rep">;

function normalizeStep(s: PlainStepInput): Step {
  let content: Block[];
  if (s.content !== undefined) {
    content = s.content.map((b): Block => {
      if ("text" in b) return { type: "text", text: b.text };
      if ("tool_use" in b) return toolBlock(b.tool_use);
      if ("run" in b) return { type: "action", id: null, action: "run", command: b.run };
      if ("write" in b) return { type: "action", id: null, action: "write", ...b.write };
      if ("edit" in b) return { type: "action", id: null, action: "edit", ...b.edit };
      if ("skill" in b) return { type: "action", id: null, action: "skill", skill: b.skill };
      return { type: "action", id: null, action: "read", path: b.read };
    });
  } else {
    content = [];
    if (s.text !== undefined) content.push({ type: "text", text: s.text });
    if (s.skill !== undefined)
      content.push({ type: "action", id: null, action: "skill", skill: s.skill });
    if (s.read !== undefined)
      content.push({ type: "action", id: null, action: "read", path: s.read });
    if (s.run !== undefined)
      content.push({ type: "action", id: null, action: "run", command: s.run });
    if (s.write !== undefined)
      content.push({ type: "action", id: null, action: "write", ...s.write });
    if (s.edit !== undefined) content.push({ type: "action", id: null, action: "edit", ...s.edit });
    if (s.tool_use !== undefined) for (const t of list(s.tool_use)) content.push(toolBlock(t));
  }
  const faults =
    s.fault === undefined
      ? []
      : Array.isArray(s.fault)
        ? s.fault.map((f) => normalizeFault(f, 1))
        : [normalizeFault(s.fault, null)];
  return {
    content,
    stopReason: s.stop_reason ?? null,
    usage: normalizeUsage(s.usage),
    model: s.model ?? null,
    delayMs: s.delay_ms ?? 0,
    faults,
  };
}

function normalizeRuleStep(s: StepInput): RuleStep {
  if (s.by_rep !== undefined) return { kind: "by_rep", alternatives: s.by_rep.map(normalizeStep) };
  return { kind: "plain", step: normalizeStep(s) };
}

function normalizeRule(r: RuleInput, index: number, file: ModelScriptFile): Rule {
  const steps = r.steps ?? (r.reply ? [r.reply] : []);
  return {
    index,
    name: r.name ?? `rules[${index}]`,
    when: normalizeWhen(r.when),
    steps: steps.map(normalizeRuleStep),
    count: r.count ?? file.defaults?.count ?? "conversation",
    afterLast: r.after_last ?? (r.reply ? "repeat" : (file.defaults?.after_last ?? "error")),
  };
}

export function normalizeScript(file: ModelScriptFile, source: string | null = null): ModelScript {
  const u = file.defaults?.usage;
  return {
    defaults: {
      model: file.defaults?.model ?? null,
      usage: {
        input_tokens: u?.input_tokens ?? 100,
        output_tokens: u?.output_tokens ?? null,
        cache_read_input_tokens: u?.cache_read_input_tokens ?? 0,
        cache_creation_input_tokens: u?.cache_creation_input_tokens ?? 0,
      },
    },
    rules: file.rules.map((r, i) => normalizeRule(r, i, file)),
    source,
  };
}
