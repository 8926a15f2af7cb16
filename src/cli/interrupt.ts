/**
 * The signal that interrupted the command, if one did: an interrupted command exits 130
 * (SIGINT) or 143 (SIGTERM), as a shell reports a process ended by it, whatever its runs gave
 * and whatever `--exit-zero` says (a CI job stopped half-way must not look passed).
 */
let received: NodeJS.Signals | null = null;

/** Called by a command's signal handlers; the first signal counts. */
export function noteInterrupt(signal: "SIGINT" | "SIGTERM"): void {
  received ??= signal;
}

/** 130 after SIGINT, 143 after SIGTERM, null when no signal interrupted the command. */
export function interruptExitCode(): number | null {
  if (received === "SIGINT") return 130;
  if (received === "SIGTERM") return 143;
  return null;
}
