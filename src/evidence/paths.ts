/** Path normalisation and skill-path detection. Pure (POSIX paths: the agent runs on Linux). */
import path from "node:path";

/**
 * Make `p` relative to the first root that contains it (POSIX separators, `.` for
 * the root itself). Absolute paths outside every root are kept absolute (normalised);
 * relative paths are normalised (`./a//b` -> `a/b`).
 */
export function relativize(p: string, roots: readonly string[]): string {
  if (!path.posix.isAbsolute(p)) {
    const n = path.posix.normalize(p);
    return n.endsWith("/") && n.length > 1 ? n.slice(0, -1) : n;
  }
  const abs = path.posix.normalize(p);
  for (const root of roots) {
    if (!path.posix.isAbsolute(root)) continue;
    const r = path.posix.relative(root, abs);
    if (r === "") return ".";
    if (r !== ".." && !r.startsWith("../") && !path.posix.isAbsolute(r)) return r;
  }
  return abs.length > 1 && abs.endsWith("/") ? abs.slice(0, -1) : abs;
}

/** Skill folders of CLIs skillbench has no driver for, after the registered agents' own. */
const OTHER_SKILL_FOLDERS = ["qoder", "codebuddy"];

/** The registered agents' Skill folders and a number that changes when they do. */
interface SkillFolderSource {
  version(): number;
  folders(): readonly string[];
}

/**
 * Set by the agent registry (src/agents/registry.ts) when it loads: evidence sits below the
 * drivers (they import it), so the registry hands it the folders rather than being imported.
 */
let source: SkillFolderSource | null = null;

export function useSkillFolders(s: SkillFolderSource): void {
  source = s;
}

let skillPath: { version: number; re: RegExp } | null = null;

/**
 * Skill folders of the agents we know: `.<folder>/skills/<name>` for every registered driver's
 * `skillFolders` (`.claude/skills/<name>`, `.agents/skills/<name>`, ...), then the others. Built
 * on first use (and again if an agent is registered since).
 */
function skillPathRe(): RegExp {
  if (source === null)
    throw new Error("evidence: no agent registry loaded (import src/agents/registry.ts first)");
  if (skillPath?.version === source.version()) return skillPath.re;
  const all = [...source.folders(), ...OTHER_SKILL_FOLDERS];
  const folders = [...new Set(all)].map((f) => f.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|");
  skillPath = {
    version: source.version(),
    re: new RegExp(
      `\\.(?:${folders})\\/skills\\/([^/\\\\\\s"'\`;|&<>()$*?[\\]{}]+)(?=$|[/\\s"'\`;|&<>()])`,
      "g",
    ),
  };
  return skillPath.re;
}

/** Characters that end a path token inside a shell command. */
const TOKEN_END = /[\s"'`;|&<>()]/;

export interface SkillPathMatch {
  skill: string;
  /** The path token that mentions the skill folder, as written. */
  path: string;
}

/**
 * Every mention of a skill folder in `text` (a path or a whole shell command),
 * with the whitespace/quote-delimited token around it. Names containing glob or
 * shell characters (`*`, `$`, ...) are ignored.
 */
export function findSkillPaths(text: string): SkillPathMatch[] {
  const out: SkillPathMatch[] = [];
  const SKILL_PATH = skillPathRe();
  SKILL_PATH.lastIndex = 0;
  for (let m = SKILL_PATH.exec(text); m !== null; m = SKILL_PATH.exec(text)) {
    const skill = m[1];
    if (skill === undefined || skill === "." || skill === "..") continue;
    let start = m.index;
    while (start > 0 && !TOKEN_END.test(text.charAt(start - 1))) start -= 1;
    let end = m.index + m[0].length;
    while (end < text.length && !TOKEN_END.test(text.charAt(end))) end += 1;
    out.push({ skill, path: text.slice(start, end) });
  }
  return out;
}
