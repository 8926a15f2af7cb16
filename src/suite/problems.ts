import { InputError } from "../core/errors.js";
import type { SuiteWarning } from "./types.js";

/** A problem found while loading; `message` includes the field, print as `${file}: ${message}`. */
export interface Problem {
  file: string;
  field?: string;
  line?: number;
  message: string;
}

function formatProblem(p: Problem | SuiteWarning): string {
  return `${p.file}: ${p.message}`;
}

/**
 * Collects every error and warning of a load so that the user sees all of them at
 * once. Warnings are forwarded to `onWarning` as they are found.
 */
export class Problems {
  readonly errors: Problem[] = [];
  readonly warnings: SuiteWarning[] = [];

  constructor(private readonly onWarning?: (w: SuiteWarning) => void) {}

  error(p: Problem): void {
    this.errors.push(p);
  }

  warn(w: SuiteWarning): void {
    this.warnings.push(w);
    this.onWarning?.(w);
  }

  get errorCount(): number {
    return this.errors.length;
  }

  /** Throw one InputError listing every error (one per line), if there are any. */
  throwIfAny(what: string): void {
    const [first] = this.errors;
    if (!first) return;
    throw problemsToError(what, this.errors);
  }
}

export function problemsToError(what: string, errors: Problem[]): InputError {
  const [first] = errors;
  const details = first ? { file: first.file, field: first.field, line: first.line } : {};
  if (errors.length === 1 && first) return new InputError(formatProblem(first), details);
  const lines = errors.map((p) => `  ${formatProblem(p)}`);
  return new InputError(`${what}: ${errors.length} problems\n${lines.join("\n")}`, details);
}
