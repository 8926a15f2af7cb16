/**
 * The inner command of a `bash -lc '<command>'` wrapper, as the agent's model wrote it (Codex
 * reports the wrapped form). Pure; anything it does not recognise is returned unchanged.
 */
export function unwrapShell(command: string): string {
  const m = /^(?:\S*\/)?(?:bash|sh|zsh) -l?c (.+)$/s.exec(command.trim());
  const word = m?.[1];
  if (word === undefined) return command;
  const inner = singleShellWord(word);
  return inner ?? command;
}

/** The value of one POSIX shell word made of quoted and unquoted parts; null if it is several words. */
function singleShellWord(s: string): string | null {
  let out = "";
  let i = 0;
  while (i < s.length) {
    const c = s.charAt(i);
    if (c === "'") {
      const end = s.indexOf("'", i + 1);
      if (end < 0) return null;
      out += s.slice(i + 1, end);
      i = end + 1;
    } else if (c === '"') {
      let j = i + 1;
      while (j < s.length && s.charAt(j) !== '"') {
        if (s.charAt(j) === "\\" && j + 1 < s.length && '"\\$`\n'.includes(s.charAt(j + 1))) {
          out += s.charAt(j + 1);
          j += 2;
        } else {
          out += s.charAt(j);
          j += 1;
        }
      }
      if (j >= s.length) return null;
      i = j + 1;
    } else if (c === "\\" && i + 1 < s.length) {
      out += s.charAt(i + 1);
      i += 2;
    } else if (/\s/.test(c)) {
      return null;
    } else {
      out += c;
      i += 1;
    }
  }
  return out;
}
