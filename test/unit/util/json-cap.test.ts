import { describe, expect, it } from "vitest";
import {
  JsonStringCapper,
  LONG_LINE_CHARS,
  STRING_CAP_CHARS,
  TRUNCATION_MARK,
} from "../../../src/util/json-cap.js";
import { LineSplitter } from "../../../src/util/lines.js";

/** Feed `text` in chunks of `size` and return the capped line. */
function cap(text: string, size = 65_536, secrets: string[] = []): { line: string; cut: number } {
  const c = new JsonStringCapper(secrets);
  for (let i = 0; i < text.length; i += size) c.push(text.slice(i, i + size));
  return { line: c.end(), cut: c.truncatedStrings };
}

const big = (n: number, ch = "y"): string => ch.repeat(n);

describe("JsonStringCapper", () => {
  it.each([
    ["an object with short strings", { type: "user", a: "x", n: [1, 2.5, null, true] }],
    ["escapes and unicode", { s: 'q"uo\\te\n\t\u0001 é 😀' }],
  ])("copies %s unchanged", (_what, value) => {
    const text = JSON.stringify(value);
    expect(cap(text, 3)).toEqual({ line: text, cut: 0 });
  });

  it.each([
    ["plain text", big(STRING_CAP_CHARS + 5000)],
    ["escapes at the cut", `${big(STRING_CAP_CHARS - 1)}\n\n\n"\\${big(5000)}`],
    ["\\u escapes at the cut", `${big(STRING_CAP_CHARS - 2)}\u0001\u0002\u0003${big(5000)}`],
    ["a surrogate pair at the cut", `${big(STRING_CAP_CHARS - 1)}😀😀${big(5000)}`],
  ])("cuts a long string of %s to valid JSON with a marker", (_what, s) => {
    for (const size of [1, 7, 65_536]) {
      if (size === 1 && s.length > 300_000) continue;
      const { line, cut } = cap(JSON.stringify({ type: "user", content: s, after: "kept" }), size);
      const v = JSON.parse(line) as { content: string; after: string };
      expect(cut).toBe(1);
      expect(v.after).toBe("kept");
      expect(v.content.length).toBeLessThan(STRING_CAP_CHARS + 100);
      const marks = /^([^]*) \[skillbench: truncated (\d+) characters of a long line\]$/.exec(
        v.content,
      );
      expect(marks?.[1]?.length ?? 0).toBeGreaterThan(0);
      expect(v.content.endsWith(TRUNCATION_MARK(Number(marks?.[2])))).toBe(true);
      expect(s.startsWith(v.content.replace(/ \[skillbench: truncated.*$/, ""))).toBe(true);
    }
  });

  it("never leaves the beginning of a secret at the cut", () => {
    const secret = "sk-live-0123456789abcdef";
    const s = `${big(STRING_CAP_CHARS - 10)}${secret}${big(1000)}`;
    const { line } = cap(JSON.stringify({ s }), 65_536, [secret]);
    const v = JSON.parse(line) as { s: string };
    expect(v.s).not.toContain("sk-live-01");
    expect(v.s).toMatch(/^y+ \[skillbench: truncated \d+ characters/);
  });

  it("keeps a line that was cut short malformed (an unterminated string stays unterminated)", () => {
    const { line } = cap(`{"type":"user","s":"${big(STRING_CAP_CHARS + 10)}`);
    expect(() => JSON.parse(line) as unknown).toThrow();
  });
});

describe("LineSplitter", () => {
  it("splits lines across chunks and bytes, holding an unfinished line", () => {
    const sp = new LineSplitter();
    const lines: string[] = [];
    const bytes = Buffer.from("a\nbé", "utf8");
    sp.push(bytes.subarray(0, 4), (l) => lines.push(l)); // "a\nb" + half of é
    sp.push(bytes.subarray(4), (l) => lines.push(l));
    sp.push("c\n\nd", (l) => lines.push(l));
    expect(lines).toEqual(["a", "béc", ""]);
    expect(sp.flush()).toBe("d");
    expect(sp.flush()).toBe("");
  });

  it("streams a line longer than LONG_LINE_CHARS through the capper", () => {
    const sp = new LineSplitter();
    const lines: string[] = [];
    const text = JSON.stringify({ type: "user", content: big(LONG_LINE_CHARS + 10) });
    for (let i = 0; i < text.length; i += 1 << 16)
      sp.push(text.slice(i, i + (1 << 16)), (l) => lines.push(l));
    sp.push('\n{"type":"result"}\n', (l) => lines.push(l));
    expect(lines).toHaveLength(2);
    expect(lines[0]?.length).toBeLessThan(STRING_CAP_CHARS + 200);
    expect(JSON.parse(lines[0] ?? "")).toMatchObject({ type: "user" });
    expect(lines[1]).toBe('{"type":"result"}');
    expect(sp.cappedLines).toBe(1);
  });
});
