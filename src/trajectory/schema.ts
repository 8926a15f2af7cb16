import { z } from "zod";

/**
 * The step syntax of a Skill's expected steps (docs/trajectory.md): what one tool call of the
 * agent must look like. Written in snake_case in every file (an eval manifest keeps `steps:` as
 * written, task.toml as TOML does), so that one schema reads both. Pure.
 */

/** `/body/flags` or a plain pattern (as the inline `expect` checks read a regex). */
export function compileRegex(src: string): RegExp {
  const m = /^\/(.*)\/([a-z]*)$/s.exec(src);
  return m ? new RegExp(m[1] ?? "", m[2]) : new RegExp(src);
}

const Regex = z
  .string()
  .min(1)
  .superRefine((src, ctx) => {
    try {
      compileRegex(src);
    } catch (e) {
      ctx.addIssue({
        code: "custom",
        // V8's message already reads "Invalid regular expression: /…/: <why>".
        message: e instanceof Error ? e.message : `invalid regular expression: ${String(e)}`,
      });
    }
  });

export const StepSchema = z
  .strictObject({
    /** How reports name the step; default: its conditions (`stepLabel`). */
    name: z.string().min(1).optional(),
    /** The agent's own tool name (`Bash`, `run_shell_command`) or a neutral kind (`command`, `write`, ...). */
    tool: z.string().min(1).optional(),
    /** Input field → regex its value (a string, else its JSON) must match. */
    args: z.record(z.string(), Regex).optional(),
    /** A command tool's command must match. */
    command: Regex.optional(),
    /** A write, edit or patch wrote a workspace-relative path the glob matches. */
    writes: z.string().min(1).optional(),
    /** A file of the Skill, relative to its folder (`references/format.md`), read, listed or opened by a command. */
    reads_skill_file: z.string().min(1).optional(),
  })
  .refine(
    (s) =>
      s.tool !== undefined ||
      s.args !== undefined ||
      s.command !== undefined ||
      s.writes !== undefined ||
      s.reads_skill_file !== undefined,
    { error: "a step needs at least one of tool, args, command, writes or reads_skill_file" },
  );
export type Step = z.infer<typeof StepSchema>;

export const StepsSchema = z
  .strictObject({
    /**
     * The Skill whose use the steps describe: the dimension is N/A in a run that did not invoke
     * it. Default: any Skill (an eval manifest fills in its own Skill).
     */
    skill: z.string().min(1).optional(),
    /** The expected steps must happen in this order (other calls may come between them). */
    ordered: z.boolean().default(false),
    expect: z.array(StepSchema).default([]),
    /** Steps that must not happen: one that does scores the whole dimension 0. */
    forbidden: z.array(StepSchema).default([]),
  })
  .refine((s) => s.expect.length + s.forbidden.length > 0, {
    error: "steps needs at least one step in expect or forbidden",
  });
export type Steps = z.infer<typeof StepsSchema>;

/** What `tools:` of an inline `expect` asks of the trajectory (docs/manifest.md). */
export const ToolsExpectSchema = z
  .strictObject({
    /** Tool names or kinds called at least once. */
    contains: z.array(z.string().min(1)).optional(),
    /** Tool names or kinds never called. */
    not_contains: z.array(z.string().min(1)).optional(),
    /** Called in this order, other calls allowed between them. */
    sequence: z.array(z.string().min(1)).min(1).optional(),
    /** At most N tool calls in all, or at most N calls of each named tool or kind. */
    max_calls: z
      .union([z.number().int().min(0), z.record(z.string(), z.number().int().min(0))])
      .optional(),
  })
  .refine(
    (t) =>
      (t.contains?.length ?? 0) +
        (t.not_contains?.length ?? 0) +
        (t.sequence === undefined ? 0 : 1) +
        (t.max_calls === undefined ? 0 : 1) >
      0,
    { error: "tools needs contains, not_contains, sequence or max_calls" },
  );
