import { z } from "zod";
import { isGlob, matchGlob } from "../../glob.js";
import type { DimensionDef, RubricCheck, RubricProfile, ScoringInput } from "../../types.js";

/**
 * skillbench's declarative rubric format (`format = "skillbench.rubric.v1"` in a suite's
 * `profiles/*.toml`): dimensions with weights, each scored as passed/total of its checks, drawn
 * from a small library of check kinds. See docs/rubrics.md.
 */

export const DECLARATIVE_FORMAT = "skillbench.rubric.v1";

const NAME_RE = /^[A-Za-z][A-Za-z0-9_.-]*$/;
const NAME_MSG = "must start with a letter and use only letters, digits, _ . -";

function regexField() {
  return z
    .string()
    .min(1)
    .superRefine((src, ctx) => {
      try {
        new RegExp(src);
      } catch (e) {
        ctx.addIssue({
          code: "custom",
          message: `invalid regular expression: ${e instanceof Error ? e.message : String(e)}`,
        });
      }
    });
}

const Flags = z
  .string()
  .regex(/^[ims]*$/, "only the flags i, m and s are allowed")
  .optional();

const Common = {
  /** A failed hard check is a hard failure: the run fails. */
  hard: z.boolean().default(false),
  /** Hard-failure text; default `Rubric check failed: <dimension>: <label>`. */
  message: z.string().min(1).optional(),
  /** How the check is named in reports; default derived from the kind. */
  label: z.string().min(1).optional(),
};

const CountOf = z.enum(["tool_calls", "commands", "files_created", "files_modified", "turns"]);

const CheckSchema = z.discriminatedUnion("kind", [
  z
    .object({
      kind: z.literal("file_exists"),
      path: z.string().min(1).optional(),
      glob: z.string().min(1).optional(),
      ...Common,
    })
    .strict()
    .refine((c) => (c.path === undefined) !== (c.glob === undefined), {
      error: "give exactly one of path or glob",
      path: ["path"],
    }),
  z
    .object({
      kind: z.literal("file_matches"),
      path: z.string().min(1),
      regex: regexField(),
      flags: Flags,
      ...Common,
    })
    .strict(),
  z
    .object({ kind: z.literal("command_ran"), regex: regexField(), flags: Flags, ...Common })
    .strict(),
  z
    .object({ kind: z.literal("no_command"), regex: regexField(), flags: Flags, ...Common })
    .strict(),
  z.object({ kind: z.literal("skill_invoked"), name: z.string().min(1), ...Common }).strict(),
  z
    .object({
      kind: z.literal("validator_check"),
      name: z.string().min(1).optional(),
      regex: regexField().optional(),
      flags: Flags,
      status: z.enum(["passed", "failed"]).default("passed"),
      ...Common,
    })
    .strict()
    .refine((c) => (c.name === undefined) !== (c.regex === undefined), {
      error: "give exactly one of name or regex",
      path: ["name"],
    }),
  z
    .object({
      kind: z.literal("count"),
      of: CountOf,
      min: z.number().int().min(0).optional(),
      max: z.number().int().min(0).optional(),
      ...Common,
    })
    .strict()
    .refine((c) => c.min !== undefined || c.max !== undefined, {
      error: "give min, max or both",
      path: ["min"],
    })
    .refine((c) => c.min === undefined || c.max === undefined || c.min <= c.max, {
      error: "min must not exceed max",
      path: ["min"],
    }),
]);
type DeclarativeCheck = z.infer<typeof CheckSchema>;

const DimensionSchema = z
  .object({
    name: z.string().regex(NAME_RE, NAME_MSG),
    weight: z.number().min(0).refine(Number.isFinite, "must be a finite number"),
    description: z.string().optional(),
    check: z.array(CheckSchema).min(1, "a dimension needs at least one [[dimension.check]]"),
  })
  .strict();

export const DeclarativeProfileSchema = z
  .object({
    format: z.literal(DECLARATIVE_FORMAT),
    name: z.string().regex(NAME_RE, NAME_MSG).optional(),
    description: z.string().optional(),
    /** Interaction defaults for the runner (mode, max_turns, ...); not used by the rubric. */
    interaction: z.record(z.string(), z.unknown()).optional(),
    dimension: z.array(DimensionSchema).min(1, "a rubric needs at least one [[dimension]]"),
  })
  .strict()
  .superRefine((p, ctx) => {
    const seen = new Set<string>();
    p.dimension.forEach((d, i) => {
      if (seen.has(d.name))
        ctx.addIssue({
          code: "custom",
          message: `duplicate dimension name ${JSON.stringify(d.name)}`,
          path: ["dimension", i, "name"],
        });
      seen.add(d.name);
    });
  });
export type DeclarativeProfileSpec = z.infer<typeof DeclarativeProfileSchema>;

/** Default label of a check, as shown in reasons and hard failures. */
function checkLabel(c: DeclarativeCheck): string {
  if (c.label !== undefined) return c.label;
  switch (c.kind) {
    case "file_exists":
      return `file_exists ${c.path ?? c.glob ?? ""}`;
    case "file_matches":
      return `file_matches ${c.path} /${c.regex}/${c.flags ?? ""}`;
    case "command_ran":
      return `command_ran /${c.regex}/${c.flags ?? ""}`;
    case "no_command":
      return `no_command /${c.regex}/${c.flags ?? ""}`;
    case "skill_invoked":
      return `skill_invoked ${c.name}`;
    case "validator_check":
      return `validator_check ${c.name ?? `/${c.regex ?? ""}/${c.flags ?? ""}`} ${c.status}`;
    case "count":
      return `count ${c.of} in [${c.min ?? 0}, ${c.max ?? "∞"}]`;
  }
}

/** The number a `count` check bounds. `turns` is the agent-reported num_turns (0 when unknown). */
function countOf(of: z.infer<typeof CountOf>, input: ScoringInput): number {
  const e = input.evidence;
  switch (of) {
    case "tool_calls":
      return e.tool_calls.length;
    case "commands":
      return e.commands_run.length;
    case "files_created":
      return e.files_created.length;
    case "files_modified":
      return e.files_modified.length;
    case "turns":
      return e.num_turns ?? 0;
  }
}

/** Does a validator message carry this check name (`name` or `name: detail`)? */
function isCheckNamed(message: string, name: string): boolean {
  return message === name || message.startsWith(`${name}:`);
}

function runCheck(c: DeclarativeCheck, input: ScoringInput): boolean {
  switch (c.kind) {
    case "file_exists":
      return input.workspace.exists(c.path ?? c.glob ?? "");
    case "file_matches": {
      const re = new RegExp(c.regex, c.flags ?? "");
      const files = isGlob(c.path) ? matchGlob(c.path, input.workspace.list()) : [c.path];
      return files.some((f) => {
        const t = input.workspace.read(f);
        return t !== null && re.test(t);
      });
    }
    case "command_ran": {
      const re = new RegExp(c.regex, c.flags ?? "");
      return input.evidence.commands_run.some((cmd) => re.test(cmd));
    }
    case "no_command": {
      const re = new RegExp(c.regex, c.flags ?? "");
      return !input.evidence.commands_run.some((cmd) => re.test(cmd));
    }
    case "skill_invoked":
      return input.evidence.skills_invoked.includes(c.name);
    case "validator_check": {
      const list = c.status === "passed" ? input.baseline.passed : input.baseline.failed;
      if (c.name !== undefined) {
        const name = c.name;
        return list.some((m) => isCheckNamed(m, name));
      }
      const re = new RegExp(c.regex ?? "", c.flags ?? "");
      return list.some((m) => re.test(m));
    }
    case "count": {
      const n = countOf(c.of, input);
      return (c.min === undefined || n >= c.min) && (c.max === undefined || n <= c.max);
    }
  }
}

function hardMessage(dimension: string, c: DeclarativeCheck): string {
  return c.message ?? `Rubric check failed: ${dimension}: ${checkLabel(c)}`;
}

export function declarativeProfile(
  spec: DeclarativeProfileSpec,
  fallbackName: string,
  source?: string,
): RubricProfile {
  const dimensions: DimensionDef[] = spec.dimension.map((d) => ({
    name: d.name,
    weight: d.weight,
    description: d.description ?? d.check.map(checkLabel).join("; "),
    evaluate: (input) => {
      const checks: RubricCheck[] = d.check.map((c) => ({
        name: checkLabel(c),
        passed: runCheck(c, input),
      }));
      const failed = checks.filter((c) => !c.passed).map((c) => c.name);
      const ok = checks.length - failed.length;
      return {
        checks,
        reason: `${ok}/${checks.length} passed${failed.length > 0 ? `; failed: ${failed.join("; ")}` : ""}`,
      };
    },
  }));
  return {
    name: spec.name ?? fallbackName,
    description: spec.description ?? "Declarative rubric (skillbench.rubric.v1)",
    emptyChecks: { score: 0, reason: "no checks" },
    dimensions,
    hardFailures: (input) =>
      spec.dimension.flatMap((d) =>
        d.check.filter((c) => c.hard && !runCheck(c, input)).map((c) => hardMessage(d.name, c)),
      ),
    ...(source !== undefined ? { source } : {}),
  };
}
