/**
 * Bounded memory for hostile transcripts (docs/evidence.md, "Long lines"): a JSONL line longer
 * than `LONG_LINE_CHARS` is not held whole. Its text is streamed through `JsonStringCapper`,
 * which copies the JSON as it comes but keeps at most `STRING_CAP_CHARS` of each string value
 * (its source text), ending a cut string with `TRUNCATION_MARK`. The result is the same JSON
 * event with shorter strings, small enough to redact, store and parse. Pure.
 */

/** Lines up to this many characters are handled whole; longer ones are capped as they stream. */
export const LONG_LINE_CHARS = 4_000_000;
/** Characters of JSON source kept per string value of a long line. */
export const STRING_CAP_CHARS = 256_000;
/** Past this many characters of output, every further string of the line is cut to SMALL_CAP_CHARS. */
const LINE_BUDGET_CHARS = 8_000_000;
const SMALL_CAP_CHARS = 1_000;
/**
 * Text outside strings (numbers, punctuation) is copied; a line with more than this of it is no
 * event skillbench reads and is replaced by `{"type":"skillbench_truncated_line",...}`.
 */
const HARD_LIMIT_CHARS = 32_000_000;

/** What ends a cut string (inside the JSON string: plain text, no escapes needed). */
export const TRUNCATION_MARK = (dropped: number): string =>
  `[skillbench: truncated ${dropped} characters of a long line]`;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

export class JsonStringCapper {
  private readonly out: string[] = [];
  private outChars = 0;
  private inString = false;
  /** Inside a string: the escape sequence being read (after `\`), or 0 when none. */
  private escapeLeft = 0;
  /** The current string's kept source text (without the quotes) and how much was dropped. */
  private kept: string[] = [];
  private keptChars = 0;
  private dropped = 0;
  private cap = STRING_CAP_CHARS;
  private total = 0;
  /** Strings cut so far in this line. */
  truncatedStrings = 0;

  /** The partial-secret guard: a kept prefix never ends with the start of one of these. */
  constructor(private readonly secrets: readonly string[] = []) {}

  push(text: string): void {
    this.total += text.length;
    let i = 0;
    const n = text.length;
    while (i < n) {
      if (!this.inString) {
        const q = text.indexOf('"', i);
        const end = q === -1 ? n : q;
        this.emit(text.slice(i, end));
        if (q === -1) return;
        this.emit('"');
        this.inString = true;
        this.cap = this.outChars > LINE_BUDGET_CHARS ? SMALL_CAP_CHARS : STRING_CAP_CHARS;
        i = q + 1;
        continue;
      }
      // Inside a string: copy up to the next quote or backslash (or finish an escape).
      if (this.escapeLeft !== 0) {
        const c = text.charCodeAt(i);
        // `\uXXXX`: after the `u`, four hex digits follow.
        this.escapeLeft = this.escapeLeft === -1 ? (c === 0x75 ? 4 : 0) : this.escapeLeft - 1;
        this.keep(text[i] ?? "", this.escapeLeft === 0);
        i += 1;
        continue;
      }
      let j = i;
      while (j < n) {
        const c = text.charCodeAt(j);
        if (c === QUOTE || c === BACKSLASH) break;
        j += 1;
      }
      if (j > i) this.keep(text.slice(i, j), true);
      if (j === n) return;
      if (text.charCodeAt(j) === BACKSLASH) {
        this.escapeLeft = -1; // the next character says which escape
        this.keep("\\", false);
        i = j + 1;
        continue;
      }
      this.closeString();
      i = j + 1;
    }
  }

  /** The capped line. */
  end(): string {
    if (this.inString) this.closeString(false);
    if (this.outChars > HARD_LIMIT_CHARS)
      return JSON.stringify({
        type: "skillbench_truncated_line",
        characters: this.total,
        reason: "more than 32 million characters outside strings",
      });
    return this.out.join("");
  }

  private emit(s: string): void {
    if (s.length === 0) return;
    this.outChars += s.length;
    // Past the hard limit nothing more is held: end() replaces the line.
    if (this.outChars <= HARD_LIMIT_CHARS) this.out.push(s);
  }

  /** Keep `s` of the current string while under the cap; `boundary`: a cut may follow `s`. */
  private keep(s: string, boundary: boolean): void {
    if (this.dropped > 0) {
      this.dropped += s.length;
      return;
    }
    if (this.keptChars + s.length <= this.cap || !boundary) {
      this.kept.push(s);
      this.keptChars += s.length;
      return;
    }
    const room = Math.max(0, this.cap - this.keptChars);
    let cut = room;
    const hi = cut > 0 ? s.charCodeAt(cut - 1) : 0;
    if (hi >= 0xd800 && hi <= 0xdbff) cut -= 1; // never split a surrogate pair
    if (cut > 0) this.kept.push(s.slice(0, cut));
    this.keptChars += cut;
    this.dropped = s.length - cut;
  }

  private closeString(closeQuote = true): void {
    let text = this.kept.join("");
    if (this.dropped > 0) {
      const before = text.length;
      text = dropPartialEscape(dropPartialSecret(text, this.secrets));
      this.truncatedStrings += 1;
      text += ` ${TRUNCATION_MARK(this.dropped + before - text.length)}`;
    }
    this.emit(text);
    // An unterminated string (the line was cut short) stays unterminated: the line is malformed.
    if (closeQuote) this.emit('"');
    this.inString = false;
    this.escapeLeft = 0;
    this.kept = [];
    this.keptChars = 0;
    this.dropped = 0;
  }
}

/** Without a trailing `\`, `\u` or `\uXX` left by a cut (the cut happens between escapes, but stay safe). */
function dropPartialEscape(s: string): string {
  const m = /\\(?:u[0-9A-Fa-f]{0,3})?$/.exec(s);
  if (m === null) return s;
  // An even run of backslashes before the match means the last one is itself escaped.
  let k = m.index;
  let slashes = 0;
  while (k > 0 && s.charCodeAt(k - 1) === BACKSLASH) {
    slashes += 1;
    k -= 1;
  }
  return slashes % 2 === 1 && m[0] === "\\" ? s : s.slice(0, m.index);
}

/** Without a tail that is the beginning of a secret (a cut must not leave part of one). */
function dropPartialSecret(s: string, secrets: readonly string[]): string {
  let out = s;
  for (const secret of secrets) {
    for (let k = Math.min(secret.length - 1, out.length); k >= 4; k -= 1) {
      if (out.endsWith(secret.slice(0, k))) {
        out = out.slice(0, out.length - k);
        break;
      }
    }
  }
  return out;
}
