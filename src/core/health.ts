import { z } from "zod";

/**
 * health.json (docs/health.md): whether an experiment's parts can be trusted before (and after)
 * agents run: each task's validators against a reference solution (the oracle), against the
 * untouched workspace (the null agent), and against themselves (repeats). One list of problems,
 * each naming its task, its check when it has one, its kind and its cause.
 *
 * The kinds are open-ended: a new kind is one line of `HEALTH_KINDS`, with what it does to the
 * verdict. `leave_out`: the task is left out of the comparison, with the problem as its reason;
 * `inconclusive`: the comparison's band is made inconclusive; `note`: reported only.
 */
export const HEALTH_KINDS = {
  /** The reference solution ran, and a check failed on its workspace. */
  oracle_failed: "leave_out",
  /** The reference solution itself failed: a non-zero exit, or a file it names is missing. */
  oracle_error: "leave_out",
  /** The reference solution did not end within the task's timeout (it was killed). */
  oracle_timeout: "leave_out",
  /** The reference solution wrote outside the workspace (refused by the sandbox, or found after). */
  oracle_escape: "leave_out",
  /** Every check passes on the untouched workspace: the task measures nothing. */
  vacuous: "leave_out",
  /** A check's result differed between repeats of the validators on one workspace. */
  flaky: "leave_out",
  /** The validators report no check at all on the untouched workspace: only the rubric decides. */
  no_checks: "note",
  /**
   * The task's arms differ beyond their treatments before any run (arm integrity, docs/statistics.md
   * §14): a Skill missing, altered or where its arm must not have it, settings or facts that differ.
   * Reported here; what it does to the verdict is decided after the runs, from what they did: a
   * Skill that reached an arm without it is an `arm_leak` there, and the band is inconclusive.
   */
  arm_mismatch: "note",
  /** The same, for every task: the runs' environment could reach the host user's own settings. */
  arm_unsafe: "inconclusive",
  /** A host-level Skill has the name of one under test: reported (the runs never see it). */
  host_skill_shadow: "note",
} as const satisfies Record<string, HealthEffect>;

export type HealthEffect = "leave_out" | "inconclusive" | "note";
export type HealthKind = keyof typeof HEALTH_KINDS;

const KIND_NAMES = Object.keys(HEALTH_KINDS) as [HealthKind, ...HealthKind[]];
const HealthKindSchema = z.enum(KIND_NAMES);

/** What a problem of this kind does to the verdict. */
export function healthEffect(kind: HealthKind): HealthEffect {
  return HEALTH_KINDS[kind];
}

export const HealthProblemSchema = z.object({
  task: z.string(),
  /** The check's name (its message up to the first ": "); absent when the problem is the task's. */
  check: z.string().optional(),
  kind: HealthKindSchema,
  /** One line a user can act on. */
  cause: z.string(),
  /** Where it was seen: the oracle's workspace, the untouched one, … (free text for later kinds). */
  phase: z.string().optional(),
  /** The treatment (arm) a problem belongs to, for kinds that have one. */
  treatment: z.string().optional(),
});
export type HealthProblem = z.infer<typeof HealthProblemSchema>;

/** The reference solution a task ships (docs/health.md): none → the task is `unverified`. */
const SOLUTION_KINDS = ["solve.sh", "files", "files+solve.sh"] as const;

export const TaskHealthSchema = z.object({
  task: z.string(),
  /** What the task ships as its reference solution; null: none. */
  solution: z.enum(SOLUTION_KINDS).nullable(),
  /**
   * `sound`: verified by its oracle, no problem; `unverified`: no solution and no problem (not an
   * error); `unsound`: at least one problem that leaves it out.
   */
  status: z.enum(["sound", "unverified", "unsound"]),
  /** How the reference solution ended (null without one). */
  oracle: z
    .object({
      outcome: z.enum(["ok", "crashed", "timeout", "escaped", "error"]),
      exit_code: z.number().int().nullable(),
      duration_ms: z.number(),
      /** the last lines of its output (redacted), to say why */
      output_tail: z.string(),
      passed: z.array(z.string()),
      failed: z.array(z.string()),
    })
    .nullable(),
  /** The checks on the untouched workspace (the first repeat). */
  null_agent: z.object({ passed: z.array(z.string()), failed: z.array(z.string()) }),
  sandbox: z.string(),
});
export type TaskHealth = z.infer<typeof TaskHealthSchema>;

export const HEALTH_SCHEMA = "skillbench.health.v1";

export const HealthReportSchema = z.object({
  schema: z.literal(HEALTH_SCHEMA),
  /** The suite or Skill folder checked. */
  target: z.string(),
  /** How many times the validators ran on each workspace. */
  repeats: z.number().int().positive(),
  /** `quick`: nothing that starts an agent; `full`: more (docs/health.md). */
  level: z.enum(["quick", "full"]).default("quick"),
  /** No problem of an effect other than `note`. */
  sound: z.boolean(),
  tasks: z.array(TaskHealthSchema),
  problems: z.array(HealthProblemSchema),
});
export type HealthReport = z.infer<typeof HealthReportSchema>;

/** The tasks a problem leaves out of the comparison, each with its problems' causes. */
export function leftOutTasks(report: Pick<HealthReport, "problems">): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const p of report.problems) {
    if (healthEffect(p.kind) !== "leave_out") continue;
    const list = out.get(p.task) ?? [];
    list.push(p.check === undefined ? p.kind : `${p.kind} (${p.check})`);
    out.set(p.task, list);
  }
  return out;
}

/**
 * What the verdict keeps of health.json (metadata.json `health`; comparison.json `health`): the
 * counts, and each task left out of the comparison with its reasons (docs/statistics.md §15).
 */
export const HealthSummarySchema = z.object({
  tasks: z.number().int(),
  sound: z.number().int(),
  verified: z.number().int(),
  unverified: z.number().int(),
  left_out: z.array(z.object({ task: z.string(), reasons: z.array(z.string()) })),
  /** Problems whose kind makes the band inconclusive (`arm_unsafe`). */
  inconclusive: z.array(z.object({ task: z.string(), reason: z.string() })).default([]),
});
export type HealthSummary = z.infer<typeof HealthSummarySchema>;

export function healthSummary(r: Pick<HealthReport, "tasks" | "problems">): HealthSummary {
  const left = leftOutTasks(r);
  return {
    tasks: r.tasks.length,
    sound: r.tasks.length - left.size,
    verified: r.tasks.filter((t) => t.status === "sound").length,
    unverified: r.tasks.filter((t) => t.status === "unverified").length,
    left_out: [...left].map(([task, reasons]) => ({ task, reasons })),
    inconclusive: r.problems
      .filter((p) => healthEffect(p.kind) === "inconclusive")
      .map((p) => ({ task: p.task, reason: `${p.kind}: ${p.cause}` })),
  };
}

/** "12 of 14 task(s) sound; 2 left out: a (vacuous), b (flaky (c1)); 10 verified by a reference solution." */
export function healthVerdictLine(h: HealthSummary): string {
  const left =
    h.left_out.length === 0
      ? ""
      : `; ${h.left_out.length} left out of the comparison: ${h.left_out.map((l) => `${l.task} (${l.reasons.join(", ")})`).join("; ")}`;
  return `Task health: ${h.sound} of ${h.tasks} task(s) sound${left}; ${h.verified} verified by a reference solution.`;
}
