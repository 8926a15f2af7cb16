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
