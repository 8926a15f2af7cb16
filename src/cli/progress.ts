import { stripControls, type ProgressEvent } from "../index.js";

/**
 * Progress on stderr: a live status line on a terminal, one plain line per
 * finished run elsewhere (CI, a pipe).
 */
export function makeProgress(
  stream: NodeJS.WriteStream,
  live: boolean,
): (e: ProgressEvent) => void {
  const started = Date.now();
  let total = 0;
  let done = 0;
  let passed = 0;
  let failed = 0;
  let errored = 0;
  const running = new Set<string>();
  const elapsed = (): string => `${((Date.now() - started) / 1000).toFixed(0)}s`;
  const status = (): string =>
    `[${done}/${total}] passed ${passed} · failed ${failed} · errored ${errored} · running ${running.size} · ${elapsed()}`;
  const redraw = (): void => {
    if (live) stream.write(`\r\x1b[2K${status()}`);
  };
  const timer = live ? setInterval(redraw, 1000) : null;
  timer?.unref();
  return (e) => {
    switch (e.type) {
      case "plan":
        total = e.toRun;
        stream.write(
          `skillbench: ${e.total} runs planned (${e.toRun} to run, ${e.reused} already complete) → ${e.outDir}\n` +
            (e.estimate ? `  ${e.estimate}\n` : ""),
        );
        break;
      case "start":
        running.add(e.run.run_id);
        redraw();
        break;
      case "end": {
        running.delete(e.run.run_id);
        done++;
        const r = e.report;
        let word = "CANCELLED";
        if (r) {
          if (r.status === "passed") passed++;
          else if (r.status === "errored") errored++;
          else failed++;
          word = r.status.toUpperCase();
        }
        // Check messages come from agents and validators: no escape sequences reach the terminal.
        const extra =
          r && !r.passed ? ` — ${stripControls(r.checks_failed[0] ?? "")}`.slice(0, 160) : "";
        if (live) stream.write("\r\x1b[2K");
        stream.write(
          `${word.padEnd(9)} ${e.run.run_id} (${((r?.timing.wall_ms ?? 0) / 1000).toFixed(1)}s)${extra}\n`,
        );
        if (done === total && timer) clearInterval(timer);
        redraw();
        break;
      }
      case "note":
        if (live) stream.write("\r\x1b[2K");
        stream.write(`${stripControls(e.message)}\n`);
        break;
    }
  };
}
