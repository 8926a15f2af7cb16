/**
 * The signal that interrupted the command, if one did: an interrupted command exits 130
 * (SIGINT) or 143 (SIGTERM), as a shell reports a process ended by it, whatever its runs gave
 * and whatever `--exit-zero` says (a CI job stopped half-way must not look passed).
 */
let received: NodeJS.Signals | null = null;

/** Called by the signal handlers of withStopSignals (below); the first signal counts. */
function noteInterrupt(signal: "SIGINT" | "SIGTERM"): void {
  received ??= signal;
}

/** 130 after SIGINT, 143 after SIGTERM, null when no signal interrupted the command. */
export function interruptExitCode(): number | null {
  if (received === "SIGINT") return 130;
  if (received === "SIGTERM") return 143;
  return null;
}

/** What a command stops and kills: `run`'s and `eval`'s runs, `triggers`' probes. */
export interface StopSignals {
  /** Aborted by the first Ctrl-C or SIGTERM: nothing new starts. */
  stop: AbortSignal;
  /** Aborted by a second Ctrl-C or SIGTERM: the running ones are killed. */
  kill: AbortSignal;
}

/**
 * Runs `go` with two-stage Ctrl-C handling: the first SIGINT stops new `what` (runs, probes)
 * from starting and says so, a second kills the running ones. SIGTERM is both at once (a
 * supervisor that sends it will not send a second). The handlers are removed when `go` ends.
 */
export async function withStopSignals<T>(
  what: "runs" | "probes",
  go: (signals: StopSignals) => Promise<T>,
): Promise<T> {
  const stop = new AbortController();
  const kill = new AbortController();
  const onSigint = (): void => {
    noteInterrupt("SIGINT");
    if (!stop.signal.aborted) {
      process.stderr.write(
        `\nskillbench: stopping — no new ${what} start; press Ctrl-C again to kill the running ones\n`,
      );
      stop.abort();
    } else kill.abort();
  };
  const onSigterm = (): void => {
    noteInterrupt("SIGTERM");
    stop.abort();
    kill.abort();
  };
  process.on("SIGINT", onSigint);
  process.on("SIGTERM", onSigterm);
  try {
    return await go({ stop: stop.signal, kill: kill.signal });
  } finally {
    process.off("SIGINT", onSigint);
    process.off("SIGTERM", onSigterm);
  }
}
