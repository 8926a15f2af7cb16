import { z } from "zod";

/**
 * The model-script file format (YAML or JSON), as written by users. Pure.
 * Documented in docs/model-script.md; `normalize-script.ts` turns a parsed file
 * into the `ModelScript` the server plays.
 */

const REGEX_FLAGS = /^[imsu]*$/;

const ContainsSchema = z.strictObject({ contains: z.string() });
const EqualsSchema = z.strictObject({ equals: z.string() });
const RegexSchema = z
  .strictObject({
    regex: z.string(),
    flags: z
      .string()
      .regex(REGEX_FLAGS, { error: "flags may only use the letters i, m, s, u" })
      .optional(),
  })
  .superRefine((v, ctx) => {
    try {
      new RegExp(v.regex, v.flags);
    } catch (e) {
      ctx.addIssue({
        code: "custom",
        path: ["regex"],
        message: `invalid regular expression: ${e instanceof Error ? e.message : String(e)}`,
      });
    }
  });

const SingleTextMatcherSchema = z.union([z.string(), ContainsSchema, EqualsSchema, RegexSchema], {
  error: "expected a string (substring), {contains}, {equals} or {regex, flags}",
});
/** A string is a case-sensitive substring; a list matches when any entry matches. */
const TextMatcherSchema = z.union(
  [SingleTextMatcherSchema, z.array(SingleTextMatcherSchema).min(1)],
  {
    error: "expected a string (substring), {contains}, {equals}, {regex, flags} or a list of them",
  },
);
export type TextMatcherInput = z.infer<typeof TextMatcherSchema>;

const Int = z.number().int();
const EverySchema = z.strictObject({ every: Int.min(1), offset: Int.min(0).optional() });
const RangeSchema = z
  .strictObject({ min: Int.optional(), max: Int.optional() })
  .refine((v) => v.min !== undefined || v.max !== undefined, { error: "give min, max or both" });
/** Integer matcher (rep, position): a number, a list, `{every, offset}` or `{min, max}`. */
const IntMatcherSchema = z.union([Int, z.array(Int).min(1), EverySchema, RangeSchema], {
  error: "expected an integer, a list of integers, {every, offset} or {min, max}",
});
export type IntMatcherInput = z.infer<typeof IntMatcherSchema>;

const StringOrListSchema = z.union([z.string(), z.array(z.string()).min(1)], {
  error: "expected a string or a list of strings",
});

export const RoleSchema = z.enum(["subject", "simulator", "judge"]);
export type Role = z.infer<typeof RoleSchema>;

const WhenSchema = z.strictObject({
  task: StringOrListSchema.optional(),
  treatment: StringOrListSchema.optional(),
  /** The model the request asks for (its body's `model`; Gemini: the URL's), exactly. */
  model: StringOrListSchema.optional(),
  rep: IntMatcherSchema.optional(),
  role: z
    .union([RoleSchema, z.array(RoleSchema).min(1)], {
      error: "expected subject, simulator, judge or a list of them",
    })
    .optional(),
  /** Conversation position: number of assistant messages already in the request. */
  position: IntMatcherSchema.optional(),
  user_text: TextMatcherSchema.optional(),
  tool_result: TextMatcherSchema.optional(),
  system: TextMatcherSchema.optional(),
  /** Every named tool is offered in the request's `tools`. */
  tool: StringOrListSchema.optional(),
  /** Every named skill is in the skill listing the CLI sends. */
  skill: StringOrListSchema.optional(),
});
export type WhenInput = z.infer<typeof WhenSchema>;

const TokenCount = Int.min(0);
const UsageSchema = z.strictObject({
  input_tokens: TokenCount.optional(),
  output_tokens: TokenCount.optional(),
  cache_read_input_tokens: TokenCount.optional(),
  cache_creation_input_tokens: TokenCount.optional(),
});
export type UsageInput = z.infer<typeof UsageSchema>;

const ToolUseSchema = z.strictObject({
  name: z.string().min(1),
  input: z.record(z.string(), z.unknown()).optional(),
  id: z.string().min(1).optional(),
});
export type ToolUseInput = z.infer<typeof ToolUseSchema>;

/** Agent-neutral actions: the server maps each to the tool of the agent that asked. */
const WriteActionSchema = z.strictObject({
  path: z.string().min(1),
  content: z.string(),
});
const EditActionSchema = z.strictObject({
  path: z.string().min(1),
  old: z.string().min(1),
  new: z.string(),
});
const BlockSchema = z.union(
  [
    z.strictObject({ edit: EditActionSchema }),
    z.strictObject({ text: z.string() }),
    z.strictObject({ tool_use: ToolUseSchema }),
    z.strictObject({ run: z.string().min(1) }),
    z.strictObject({ write: WriteActionSchema }),
    z.strictObject({ skill: z.string().min(1) }),
    z.strictObject({ read: z.string().min(1) }),
  ],
  {
    error:
      "expected a block {text: ...}, {tool_use: {name, input}}, {run: command}, {write: {path, content}}, {edit: {path, old, new}}, {skill: name} or {read: path}",
  },
);

const StopReasonSchema = z.enum([
  "end_turn",
  "tool_use",
  "max_tokens",
  "stop_sequence",
  "pause_turn",
  "refusal",
]);
export type StopReason = z.infer<typeof StopReasonSchema>;

const CutSchema = z.union(
  [
    z.literal(true),
    z.strictObject({ after_events: Int.min(1).optional(), clean: z.boolean().optional() }),
  ],
  { error: "expected true or {after_events, clean}" },
);

const FaultSchema = z
  .strictObject({
    status: Int.min(400).max(599).optional(),
    error_type: z.string().min(1).optional(),
    message: z.string().optional(),
    body: z.unknown().optional(),
    headers: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
    cut: CutSchema.optional(),
    hang: z.literal(true).optional(),
    delay_ms: Int.min(0).optional(),
    times: Int.min(1).optional(),
  })
  .superRefine((f, ctx) => {
    const kinds = [f.status !== undefined, f.cut !== undefined, f.hang !== undefined].filter(
      Boolean,
    ).length;
    if (kinds !== 1) {
      ctx.addIssue({ code: "custom", message: "a fault needs exactly one of status, cut or hang" });
    }
    if (f.status === undefined) {
      for (const k of ["error_type", "message", "body", "headers"] as const) {
        if (f[k] !== undefined)
          ctx.addIssue({ code: "custom", path: [k], message: `${k} is only allowed with status` });
      }
    }
  });
export type FaultInput = z.infer<typeof FaultSchema>;

const replyFields = {
  text: z.string().optional(),
  tool_use: z.union([ToolUseSchema, z.array(ToolUseSchema).min(1)]).optional(),
  /** Agent-neutral actions (docs/model-script.md, section 4.2). */
  skill: z.string().min(1).optional(),
  read: z.string().min(1).optional(),
  run: z.string().min(1).optional(),
  write: WriteActionSchema.optional(),
  edit: EditActionSchema.optional(),
  content: z.array(BlockSchema).optional(),
  stop_reason: StopReasonSchema.optional(),
  usage: UsageSchema.optional(),
  model: z.string().min(1).optional(),
  delay_ms: Int.min(0).optional(),
  fault: z.union([FaultSchema, z.array(FaultSchema).min(1)]).optional(),
};

const ACTION_KEYS = ["skill", "read", "run", "write", "edit"] as const;

function hasReply(s: {
  text?: unknown;
  tool_use?: unknown;
  content?: unknown;
  skill?: unknown;
  read?: unknown;
  run?: unknown;
  write?: unknown;
  edit?: unknown;
}): boolean {
  return (
    s.text !== undefined ||
    s.tool_use !== undefined ||
    s.content !== undefined ||
    ACTION_KEYS.some((k) => s[k] !== undefined)
  );
}

function checkPlainStep(
  s: { text?: unknown; tool_use?: unknown; content?: unknown; fault?: FaultInput | FaultInput[] },
  ctx: z.RefinementCtx,
): void {
  if (s.content !== undefined && (s.text !== undefined || s.tool_use !== undefined)) {
    ctx.addIssue({
      code: "custom",
      path: ["content"],
      message: "use either content or text/tool_use, not both",
    });
  }
  if (hasReply(s)) return;
  const f = s.fault;
  if (f === undefined) {
    ctx.addIssue({
      code: "custom",
      message: "a step needs text, tool_use, content, by_rep or fault",
    });
  } else if (Array.isArray(f) || f.times !== undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["fault"],
      message:
        "this fault ends after some attempts, so the step also needs a reply (text, tool_use or content)",
    });
  }
}

const PlainStepSchema = z.strictObject(replyFields).superRefine(checkPlainStep);

const StepSchema = z
  .strictObject({ ...replyFields, by_rep: z.array(PlainStepSchema).min(1).optional() })
  .superRefine((s, ctx) => {
    if (s.by_rep !== undefined) {
      const others = Object.entries(s).filter(
        ([k, v]: [string, unknown]) => k !== "by_rep" && v !== undefined,
      );
      if (others.length > 0) {
        ctx.addIssue({
          code: "custom",
          path: ["by_rep"],
          message: "a by_rep step may not have other fields",
        });
      }
      return;
    }
    checkPlainStep(s, ctx);
  });
export type StepInput = z.infer<typeof StepSchema>;

const AfterLastSchema = z.enum(["error", "repeat", "next"]);
export type AfterLast = z.infer<typeof AfterLastSchema>;
const CountSchema = z.enum(["conversation", "turn"]);
export type Count = z.infer<typeof CountSchema>;

const RuleSchema = z
  .strictObject({
    name: z.string().min(1).optional(),
    when: WhenSchema.optional(),
    steps: z.array(StepSchema).min(1).optional(),
    reply: StepSchema.optional(),
    count: CountSchema.optional(),
    after_last: AfterLastSchema.optional(),
  })
  .superRefine((r, ctx) => {
    if ((r.steps === undefined) === (r.reply === undefined)) {
      ctx.addIssue({ code: "custom", message: "a rule needs exactly one of steps or reply" });
    }
  });
export type RuleInput = z.infer<typeof RuleSchema>;

export const ModelScriptFileSchema = z.strictObject({
  version: z.literal(1).optional(),
  description: z.string().optional(),
  defaults: z
    .strictObject({
      model: z.string().min(1).optional(),
      usage: UsageSchema.optional(),
      after_last: AfterLastSchema.optional(),
      count: CountSchema.optional(),
    })
    .optional(),
  rules: z.array(RuleSchema).min(1),
});
export type ModelScriptFile = z.infer<typeof ModelScriptFileSchema>;
