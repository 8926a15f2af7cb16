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
