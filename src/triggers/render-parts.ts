/**
 * The parts a single Skill's trigger report (report.ts, html.ts) and a catalog's
 * (catalog-report.ts) build and render alike: the invalid attempts, the per-probe outcomes, the
 * rate cells and the page head, in one place so the two reports keep the same wording. Pure.
 */
import { escapeHtml as e } from "../report/html/escape.js";
import type { Interval } from "../stats/index.js";
import { f2 } from "../util/format.js";
import { outcomeLabel } from "./classify.js";
import type { ProbeRecord } from "./types.js";

/** Every invalid attempt of the probes; `final` when it was the probe's last (not re-run). */
export function invalidAttemptsOf(records: readonly ProbeRecord[]) {
  return records.flatMap((r) =>
    r.attempts
      .filter((a) => a.outcome.kind === "invalid")
      .map((a) => ({
        probe: r.probe_id,
        attempt: a.attempt,
        reason: a.outcome.kind === "invalid" ? a.outcome.reason : "",
        detail: a.detail,
        final: a.attempt === r.attempts.length,
      })),
  );
}

export type InvalidAttempt = ReturnType<typeof invalidAttemptsOf>[number];

/** Each probe's outcome and how many attempts it took. */
export function probeOutcomesOf(records: readonly ProbeRecord[]) {
  return records.map((r) => ({
    probe: r.probe_id,
    outcome: outcomeLabel(r.outcome),
    attempts: r.attempts.length,
  }));
}

export const ci = (iv: Interval | null): string => (iv ? `[${f2(iv.low)}, ${f2(iv.high)}]` : "n/a");
/** A Markdown table cell: pipes escaped, whitespace folded to one line. */
export const cell = (s: string): string => s.replace(/\|/g, "\\|").replace(/\s+/g, " ").trim();

/** `name ×n, …` of a count per Skill ("" when empty). */
export const countsList = (counts: Record<string, number>): string =>
  Object.entries(counts)
    .map(([k, n]) => `${k} ×${n}`)
    .join(", ");

/** The Markdown "Invalid attempts" section and the "not run" warning (nothing when neither). */
export function invalidAttemptsMarkdown(
  attempts: readonly InvalidAttempt[],
  notRun: readonly string[],
): string[] {
  const out: string[] = [];
  if (attempts.length > 0) {
    out.push("## Invalid attempts", "");
    out.push("| probe | attempt | reason | re-run? | detail |", "| --- | --- | --- | --- | --- |");
    for (const a of attempts)
      out.push(
        `| ${a.probe} | ${a.attempt} | ${a.reason} | ${a.final ? "no (limit reached)" : "yes"} | ${cell(a.detail).slice(0, 200)} |`,
      );
    out.push("");
  }
  if (notRun.length > 0)
    out.push(`⚠️ ${notRun.length} probe(s) were not run (interrupted): ${notRun.join(", ")}.`, "");
  return out;
}

/** The HTML "Invalid attempts" table (nothing when there are none). */
export function invalidAttemptsHtml(attempts: readonly InvalidAttempt[]): string[] {
  if (attempts.length === 0) return [];
  return [
    "<h2>Invalid attempts</h2><table><tr><th>probe</th><th>attempt</th><th>reason</th><th>re-run?</th><th>detail</th></tr>",
    ...attempts.map(
      (a) =>
        `<tr><td>${e(a.probe)}</td><td>${a.attempt}</td><td>${e(a.reason)}</td><td>${a.final ? "no (limit reached)" : "yes"}</td><td>${e(a.detail.slice(0, 300))}</td></tr>`,
    ),
    "</table>",
  ];
}

/** The style both trigger pages start with; each adds its own rules after it. */
export const BASE_STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:72rem;padding:0 1rem;color:#1b1f24}
table{border-collapse:collapse;margin:.5rem 0 1.5rem}th,td{border:1px solid #d0d7de;padding:.3rem .6rem;text-align:left;vertical-align:top}
th{background:#f6f8fa}.warn{background:#fff8c5;border:1px solid #d4a72c;padding:.5rem .8rem}`;

/** The page's head (`title`) and its `<h1>` (`heading`), both already escaped. */
export function pageHead(title: string, heading: string, style: string): string[] {
  return [
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title><style>${style}</style></head><body>`,
    `<h1>${heading}</h1>`,
  ];
}

/** The warning that the agent talked to the scripted model: `subject` is what it does not test. */
export const scriptedModelMarkdown = (model: string, subject: string): string =>
  `> ⚠️ **Scripted model.** The agent talked to skillbench's scripted model (${model}), not a real one: these numbers test the harness and the script, not ${subject}.`;

export const scriptedModelHtml = (model: string, subject: string): string =>
  `<p class="warn"><strong>Scripted model.</strong> The agent talked to skillbench's scripted model (${e(model)}), not a real one: these numbers test the harness and the script, not ${subject}.</p>`;
