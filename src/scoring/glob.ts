/**
 * A small, pure glob matcher for workspace-relative POSIX paths: `**` (any number of path
 * segments, including none), `*` (within a segment), `?` (one character), `[...]` / `[!...]`
 * (a character class). Dot files match like any other name.
 */

export function isGlob(p: string): boolean {
  return /[*?[]/.test(p);
}

function escapeRe(ch: string): string {
  return /[\\^$.*+?()[\]{}|/]/.test(ch) ? `\\${ch}` : ch;
}

export function globToRegExp(glob: string): RegExp {
  let re = "";
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i] ?? "";
    if (ch === "*") {
      if (glob[i + 1] === "*") {
        const atStart = i === 0 || glob[i - 1] === "/";
        const slashAfter = glob[i + 2] === "/";
        if (atStart && slashAfter) {
          re += "(?:[^/]+/)*";
          i += 2;
        } else {
          re += ".*";
          i += 1;
        }
      } else {
        re += "[^/]*";
      }
    } else if (ch === "?") {
      re += "[^/]";
    } else if (ch === "[") {
      const close = glob.indexOf("]", i + 2);
      if (close < 0) {
        re += "\\[";
        continue;
      }
      let body = glob.slice(i + 1, close);
      const negate = body.startsWith("!") || body.startsWith("^");
      if (negate) body = body.slice(1);
      re += `[${negate ? "^/" : ""}${body.replace(/\\/g, "\\\\").replace(/\]/g, "\\]")}]`;
      i = close;
    } else {
      re += escapeRe(ch);
    }
  }
  return new RegExp(`^${re}$`);
}

/** Every folder implied by the file list (`a/b/c.txt` → `a`, `a/b`). */
function impliedDirs(files: readonly string[]): string[] {
  const dirs = new Set<string>();
  for (const f of files) {
    const parts = f.split("/");
    for (let i = 1; i < parts.length; i++) dirs.add(parts.slice(0, i).join("/"));
  }
  return [...dirs];
}

/** Normalise a relative path: strip `./`, collapse `//`, drop a trailing `/`. */
export function normalizeRel(p: string): string {
  return p
    .replace(/\\/g, "/")
    .replace(/^(\.\/)+/, "")
    .replace(/\/{2,}/g, "/")
    .replace(/\/$/, "");
}

/** Files (and implied folders) matching the glob. */
export function matchGlob(glob: string, files: readonly string[]): string[] {
  const re = globToRegExp(normalizeRel(glob));
  return [...files, ...impliedDirs(files)].filter((f) => re.test(f));
}
