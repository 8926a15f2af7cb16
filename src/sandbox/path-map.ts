import path from "node:path";

/** A host path prefix and where it appears inside the sandbox. */
export interface PathMapping {
  host: string;
  inside: string;
}

/**
 * Map one host path through the first mapping whose host prefix contains it (mappings are
 * tried longest prefix first). Values that are not inside any mapping come back unchanged. Pure.
 */
export function mapPath(value: string, mappings: readonly PathMapping[]): string {
  const sorted = [...mappings].sort((a, b) => b.host.length - a.host.length);
  for (const m of sorted) {
    const host = m.host.replace(/\/+$/, "");
    if (value === host) return m.inside;
    if (value.startsWith(`${host}/`))
      return path.posix.join(m.inside, value.slice(host.length + 1));
  }
  return value;
}

/** Map the value of every `NAME=path` or bare path in a list. Pure. */
export function mapEnvValues(
  env: Record<string, string>,
  mappings: readonly PathMapping[],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) out[k] = mapPath(v, mappings);
  return out;
}

/** True when `p` is `dir` or inside it (POSIX, normalised). Pure. */
export function isUnder(p: string, dir: string): boolean {
  const rel = path.posix.relative(path.posix.normalize(dir), path.posix.normalize(p));
  return rel === "" || (!rel.startsWith("../") && rel !== ".." && !path.posix.isAbsolute(rel));
}
