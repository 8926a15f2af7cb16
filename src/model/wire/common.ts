import { isRecord } from "../request-facts.js";

export { isRecord };

export const REMINDER = /^\s*<system-reminder>/;

/** `- name: description` lines of a skill listing; `(file: path)` at the end is kept. */
export function listedSkills(text: string): { names: string[]; files: Record<string, string> } {
  const names: string[] = [];
  const files: Record<string, string> = {};
  // Codex names each skill's file by a short root (`r1/hello/SKILL.md`) and lists the roots.
  const roots = new Map<string, string>();
  for (const m of text.matchAll(/^\s*- `([\w.-]+)` = `([^`]+)`\s*$/gm))
    if (m[1] && m[2]) roots.set(m[1], m[2]);
  const expand = (f: string): string => {
    const slash = f.indexOf("/");
    const root = slash > 0 ? roots.get(f.slice(0, slash)) : undefined;
    return root === undefined ? f : `${root}${f.slice(slash)}`;
  };
  for (const line of text.split("\n")) {
    const m = /^\s*- ([A-Za-z0-9][\w.-]*):(?:\s|$)(.*)$/.exec(line);
    if (!m?.[1]) continue;
    const file = /\(file: ([^)]+SKILL\.md)\)\s*$/.exec(m[2] ?? "");
    if (!file?.[1]) continue;
    if (!names.includes(m[1])) names.push(m[1]);
    files[m[1]] = expand(file[1]);
  }
  return { names, files };
}

/** Approximate output tokens of a reply: one per 4 characters of its JSON. */
export function approxTokens(v: unknown): number {
  return Math.max(1, Math.ceil(JSON.stringify(v).length / 4));
}
