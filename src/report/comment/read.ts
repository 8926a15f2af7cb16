/**
 * Reading results folders (`run`, `eval`, `triggers`) into the comment's input. Every file is
 * optional except that a folder must hold one of comparison.json, eval.json or triggers.json; each
 * is parsed with the part of its schema the comment shows (unknown fields ignored, so folders
 * written by later versions with extra fields still read), and a file that does not parse is an
 * InputError naming the file and field.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { HealthReportSchema, healthEffect, type HealthProblem } from "../../core/health.js";
import { InputError } from "../../core/errors.js";
import type { CommentSkill } from "./render.js";

const Interval = z.object({ low: z.number(), high: z.number() });

const ComparisonFile = z.object({
  roles: z
    .object({
      candidate: z.string().nullable().optional(),
      baseline: z.string().nullable().optional(),
    })
    .optional(),
  verdict: z
    .object({
      band: z.enum(["improved", "non_inferior", "regressed", "inconclusive"]),
      reason: z.string().optional(),
      delta: z.number().nullable().optional(),
      ci: Interval.nullable().optional(),
    })
    .nullable()
    .optional(),
  lift: z
    .object({
      per_protocol: z
        .object({ delta: z.number().nullable(), ci: Interval.nullable().optional() })
        .nullable()
        .optional(),
      invocation_rate: z.object({ candidate: z.number().nullable().optional() }).optional(),
    })
    .nullable()
    .optional(),
  spend: z
    .array(z.object({ treatment: z.string(), cost_usd: z.number().nullable().optional() }))
    .optional(),
  endpoint: z.object({ scripted: z.boolean() }).nullable().optional(),
  /** Present with runs of several models (report/comparison/models.ts). */
  models: z.array(z.object({ model: z.string() })).optional(),
  task_outcomes: z
    .array(
      z.object({
        task: z.string(),
        cells: z.record(z.string(), z.object({ c: z.number(), n: z.number() })),
      }),
    )
    .optional(),
});

const MetadataFile = z.object({
  suite: z.object({ path: z.string().optional() }).nullable().optional(),
  model: z.string().nullable().optional(),
  model_script: z.string().nullable().optional(),
  agent: z.object({ name: z.string(), version: z.string().nullable().optional() }).optional(),
});

const EvalFile = z.object({
  schema: z.literal("skillbench.eval.v1"),
  skill: z.string(),
  quality_gates: z
    .object({
      ok: z.boolean(),
      gates: z.array(
        z.object({
          metric: z.string(),
          treatment: z.string(),
          value: z.number().nullable(),
          min: z.number().nullable(),
          ok: z.boolean(),
          detail: z.string(),
        }),
      ),
    })
    .nullable()
    .optional(),
});

const Rate = z.object({
  value: z.number().nullable(),
  count: z.number(),
  of: z.number(),
  ci: Interval.nullable().optional(),
});

const TriggersFile = z.object({
  schema: z.literal("skillbench.triggers.v1"),
  skill: z.string(),
  agent: z.object({ name: z.string() }).optional(),
  model: z.string().nullable().optional(),
  scripted_model: z.unknown().optional(),
  precision: Rate,
  recall: Rate,
});

/** health.json (docs/health.md): the preflight's problems, as core/health.ts defines them. */
const HealthFile = HealthReportSchema.pick({ problems: true });

/** A health problem as one line ("task · check · kind: cause"), or null for a note. */
function problemText(p: HealthProblem): string | null {
  if (healthEffect(p.kind) === "note") return null;
  return `${[p.task, p.check].filter((x) => x !== undefined).join(" · ")} · ${p.kind}: ${p.cause}`;
}

async function readJson<T>(file: string, schema: z.ZodType<T>): Promise<T | null> {
  if (!existsSync(file)) return null;
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, "utf8"));
  } catch (e) {
    throw new InputError(
      `${file}: not valid JSON (${e instanceof Error ? e.message : String(e)})`,
      {
        file,
      },
    );
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const field = first?.path.join(".") ?? "";
    throw new InputError(
      `${file}: field ${field || "(top level)"}: ${first?.message ?? "does not parse"}`,
      { file, field },
    );
  }
  return parsed.data;
}

/** The experiment's cost: the arms' sum, unknown when any arm's is (a partial sum would mislead). */
function costOf(costs: readonly (number | null)[]): number | null {
  let sum = 0;
  for (const c of costs) {
    if (c === null) return null;
    sum += c;
  }
  return costs.length > 0 ? sum : null;
}

/** One results folder as the comment shows it. */
export async function readCommentSkill(dir: string): Promise<CommentSkill> {
  const at = (f: string): string => path.join(dir, f);
  const comparison = await readJson(at("comparison.json"), ComparisonFile);
  const triggers = await readJson(at("triggers.json"), TriggersFile);
  const evalJson = await readJson(at("eval.json"), EvalFile);
  if (!comparison && !triggers && !evalJson)
    throw new InputError(
      `${dir}: not a results folder of run, eval or triggers (no comparison.json, eval.json or triggers.json)`,
      { file: dir },
    );
  const metadata = await readJson(at("metadata.json"), MetadataFile);
  const health = await readJson(at("health.json"), HealthFile);
  const v = comparison?.verdict ?? null;
  const pp = comparison?.lift?.per_protocol ?? null;
  const costs = (comparison?.spend ?? []).map((s) => s.cost_usd ?? null);
  const skill =
    evalJson?.skill ??
    triggers?.skill ??
    (metadata?.suite?.path ? path.basename(metadata.suite.path) : path.basename(dir));
  return {
    skill,
    kind: triggers ? "triggers" : evalJson ? "eval" : "run",
    dir,
    agent: metadata?.agent?.name ?? triggers?.agent?.name ?? null,
    // Runs of several models: every one (the reason then says how the Skill did on each).
    model:
      comparison?.models && comparison.models.length > 1
        ? comparison.models.map((m) => m.model).join(", ")
        : (metadata?.model ?? triggers?.model ?? null),
    scripted:
      comparison?.endpoint?.scripted ??
      (triggers ? Boolean(triggers.scripted_model) : Boolean(metadata?.model_script)),
    candidate: comparison?.roles?.candidate ?? null,
    baseline: comparison?.roles?.baseline ?? null,
    band: v?.band ?? null,
    reason: v?.reason ?? null,
    delta: v && typeof v.delta === "number" && v.ci ? { estimate: v.delta, ...v.ci } : null,
    lift:
      pp && pp.delta !== null && pp.ci
        ? {
            estimate: pp.delta,
            ...pp.ci,
            invocation_rate: comparison?.lift?.invocation_rate?.candidate ?? null,
          }
        : null,
    triggers: triggers
      ? {
          precision: { ...triggers.precision, ci: triggers.precision.ci ?? null },
          recall: { ...triggers.recall, ci: triggers.recall.ci ?? null },
        }
      : null,
    health: health ? health.problems.map(problemText).filter((x): x is string => x !== null) : null,
    gates: evalJson?.quality_gates
      ? { ok: evalJson.quality_gates.ok, rows: evalJson.quality_gates.gates }
      : null,
    cost_usd: costOf(costs),
    tasks: (comparison?.task_outcomes ?? []).map((t) => ({
      task: t.task,
      cells: Object.entries(t.cells).map(([treatment, c]) => ({ treatment, c: c.c, n: c.n })),
    })),
  };
}
