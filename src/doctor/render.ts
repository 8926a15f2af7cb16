import type { CheckStatus, DoctorCheck, DoctorReport } from "./types.js";

const MARK: Record<CheckStatus, string> = { ok: "ok  ", warn: "WARN", fail: "FAIL" };

/** The worst of a list of statuses. Pure. */
export function worstStatus(checks: readonly DoctorCheck[]): CheckStatus {
  if (checks.some((c) => c.status === "fail")) return "fail";
  return checks.some((c) => c.status === "warn") ? "warn" : "ok";
}

/** Plain text, one check a line, the fix indented below it. Pure. */
export function renderDoctor(report: DoctorReport): string {
  const lines = ["skillbench doctor", ""];
  const width = Math.max(...report.checks.map((c) => c.name.length));
  for (const c of report.checks) {
    lines.push(`[${MARK[c.status]}] ${c.name.padEnd(width)}  ${c.detail}`);
    if (c.fix) lines.push(`       ${" ".repeat(width)}  fix: ${c.fix}`);
  }
  lines.push("", `overall: ${report.status}`);
  return `${lines.join("\n")}\n`;
}
