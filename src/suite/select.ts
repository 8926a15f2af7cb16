import { InputError } from "../core/errors.js";
import { closest } from "./fields.js";

/**
 * `--task` / `--treatment` filters. Pure.
 *
 * `list` is a comma list of names; `*` is a wildcard anywhere in an entry
 * (`api-*`, `*-smoke`, `*`). Matching is exact and case-sensitive. An undefined
 * or blank list selects everything. The result follows the order of `available`
 * and has no duplicates. Every unknown name or pattern that matches nothing is
 * reported in one InputError that lists the available names.
 */
export function selectNames(
  kind: "task" | "treatment",
  available: string[],
  list: string | undefined,
): string[] {
  const entries = (list ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  if (entries.length === 0) return [...new Set(available)];

  const chosen = new Set<string>();
  const problems: string[] = [];
  for (const entry of entries) {
    if (entry.includes("*")) {
      const re = new RegExp(`^${entry.split("*").map(escapeRegExp).join(".*")}$`);
      const hits = available.filter((n) => re.test(n));
      if (hits.length === 0) problems.push(`no ${kind} matches pattern '${entry}'`);
      for (const h of hits) chosen.add(h);
    } else if (available.includes(entry)) {
      chosen.add(entry);
    } else {
      const hint = closest(entry, available);
      problems.push(
        `unknown ${kind} '${entry}'${hint === undefined ? "" : ` (did you mean '${hint}'?)`}`,
      );
    }
  }
  if (problems.length > 0) {
    const avail = available.length > 0 ? available.join(", ") : "(none)";
    throw new InputError(`${problems.join("; ")}. Available ${kind}s: ${avail}`, { field: kind });
  }
  return [...new Set(available.filter((n) => chosen.has(n)))];
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
