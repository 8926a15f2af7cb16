/**
 * What `rescore` and its worker threads (rescore-workers.ts, rescore-worker.ts) send each other,
 * parsed on arrival like any other input.
 */
import { z } from "zod";
import type { RunDigest } from "../core/digest.js";
import { InputError, SkillbenchError } from "../core/errors.js";

/** What a worker is started with (its workerData). */
export const RescoreWorkerSettingsSchema = z.object({
  outDir: z.string(),
  profile: z.string().optional(),
  hostEnv: z.record(z.string(), z.string().optional()),
});
export type RescoreWorkerSettings = z.infer<typeof RescoreWorkerSettingsSchema>;

/** Runs to rescore, as [position in the rescore's run list, run folder]; or: take no more. */
export const ToWorkerSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("runs"), runs: z.array(z.tuple([z.number().int(), z.string()])) }),
  z.object({ kind: z.literal("stop") }),
]);
export type ToWorker = z.infer<typeof ToWorkerSchema>;

const ErrorSchema = z.object({
  name: z.string(),
  message: z.string(),
  stack: z.string().optional(),
  code: z.string().optional(),
  details: z
    .object({
      file: z.string().optional(),
      field: z.string().optional(),
      line: z.number().optional(),
    })
    .optional(),
});

/**
 * A rescored run (rescore-run.ts's RescoredRun). Its digest is checked to be an object only: a
 * worker makes it with digestOf from a report its schema has just parsed, in the same build of
 * this code (parsing it again would cost the main thread as much as the worker saved it).
 */
const RescoredSchema = z.object({
  digest: z.custom<RunDigest>((v) => typeof v === "object" && v !== null && !Array.isArray(v)),
  changed: z.boolean(),
  stamp: z.string(),
  reportJson: z.string(),
});

const ResultSchema = z.object({ i: z.number().int(), run: RescoredSchema.nullable() });

export const FromWorkerSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("results"), results: z.array(ResultSchema) }),
  z.object({ kind: z.literal("error"), results: z.array(ResultSchema), error: ErrorSchema }),
]);
export type FromWorker = z.infer<typeof FromWorkerSchema>;

/** An error as a worker sends it: what the main thread needs to throw the same error. */
export function serializeError(e: unknown): z.infer<typeof ErrorSchema> {
  if (e instanceof SkillbenchError)
    return {
      name: e.name,
      message: e.message,
      ...(e.stack ? { stack: e.stack } : {}),
      code: e.code,
      details: e.details,
    };
  if (e instanceof Error)
    return { name: e.name, message: e.message, ...(e.stack ? { stack: e.stack } : {}) };
  return { name: "Error", message: String(e) };
}

/** The error a worker sent, as the main thread throws it (bad input stays an InputError: exit 2). */
export function deserializeError(e: z.infer<typeof ErrorSchema>): Error {
  const err =
    e.name === "InputError"
      ? new InputError(e.message, e.details ?? {})
      : e.code !== undefined
        ? new SkillbenchError(e.code, e.message, e.details ?? {})
        : new Error(e.message);
  if (e.stack !== undefined) err.stack = e.stack;
  return err;
}
