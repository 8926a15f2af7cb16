import { z } from "zod";

/**
 * Errors that carry a code. `InputError` is bad user input (a malformed file, an
 * unknown name, a hostile path): the CLI prints it and exits 2. Anything else that
 * escapes is a harness bug.
 */
export class SkillbenchError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details: { file?: string; field?: string; line?: number } = {},
  ) {
    super(message);
    this.name = "SkillbenchError";
  }
}

/** Bad input from the user: exit code 2. The message names the file and field. */
export class InputError extends SkillbenchError {
  constructor(message: string, details: { file?: string; field?: string; line?: number } = {}) {
    super("input", message, details);
    this.name = "InputError";
  }
}

/** The issues of a failed zod parse as `field.path: message; …` (`(root)` for the value itself). */
export function issuesText(e: z.ZodError): string {
  return e.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ");
}

export function errorMessage(e: unknown): string {
  if (e instanceof Error) return e.message;
  return String(e);
}

/** ENOSPC / EDQUOT: the disk (or the user's quota) is full. */
export function isDiskFull(e: unknown): boolean {
  const code = typeof e === "object" && e !== null && "code" in e ? e.code : null;
  return code === "ENOSPC" || code === "EDQUOT";
}

/** The file a failed write was for, when the error knows it. */
export function errorPath(e: unknown): string | null {
  return typeof e === "object" && e !== null && "path" in e && typeof e.path === "string"
    ? e.path
    : null;
}

/**
 * The disk filled up during a run: new runs stopped, what could be written was. The CLI prints the
 * message and exits 1; `--resume --out DIR` completes the experiment once space is free.
 */
export class DiskFullError extends SkillbenchError {
  constructor(
    readonly file: string,
    readonly outDir: string,
  ) {
    super(
      "disk_full",
      `disk full while writing ${file}: free space and run --resume --out ${outDir}`,
      { file },
    );
    this.name = "DiskFullError";
  }
}

/**
 * An error as a worker thread sends it (util/threads.ts: a structured clone keeps no class): its
 * name, message and stack, a SkillbenchError's code and details, or a system error's code
 * (ENOENT, ENOSPC…). Parsed on arrival (errorFromSent).
 */
const SentErrorSchema = z.object({
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
  /** a SkillbenchError (InputError among them) */
  skillbench: z.boolean(),
});
type SentError = z.infer<typeof SentErrorSchema>;

/** What a worker thread sends of an error it caught. */
export function errorToSend(e: unknown): SentError {
  const stack = e instanceof Error && e.stack ? { stack: e.stack } : {};
  if (e instanceof SkillbenchError)
    return {
      name: e.name,
      message: e.message,
      ...stack,
      code: e.code,
      details: e.details,
      skillbench: true,
    };
  if (e instanceof Error) {
    const code = "code" in e && typeof e.code === "string" ? { code: e.code } : {};
    return { name: e.name, message: e.message, ...stack, ...code, skillbench: false };
  }
  return { name: "Error", message: String(e), skillbench: false };
}

/**
 * The error a worker thread sent, as the main thread throws it: bad input stays an InputError
 * (exit 2), a system error keeps its code (a full disk is still told as one).
 */
export function errorFromSent(sent: unknown): Error {
  const parsed = SentErrorSchema.safeParse(sent);
  if (!parsed.success) return new Error(`a worker thread failed: ${String(sent)}`);
  const e = parsed.data;
  const details = {
    ...(e.details?.file !== undefined ? { file: e.details.file } : {}),
    ...(e.details?.field !== undefined ? { field: e.details.field } : {}),
    ...(e.details?.line !== undefined ? { line: e.details.line } : {}),
  };
  let err: Error;
  if (e.skillbench && e.name === "InputError") err = new InputError(e.message, details);
  else if (e.skillbench) err = new SkillbenchError(e.code ?? "error", e.message, details);
  else err = Object.assign(new Error(e.message), e.code !== undefined ? { code: e.code } : {});
  if (e.stack !== undefined) err.stack = e.stack;
  return err;
}
