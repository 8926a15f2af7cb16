import { describe, expect, it } from "vitest";
import { hasControls, stripControls } from "../../../src/util/safe-text.js";

describe("stripControls", () => {
  it.each([
    ["colours", "\x1b[31mred\x1b[0m text", "red text"],
    ["cursor movement and erase", "a\x1b[2K\x1b[1A\x1b[10Cb", "ab"],
    ["OSC 8 hyperlink", "\x1b]8;;https://evil.example\x07click\x1b]8;;\x07", "click"],
    ["OSC title with ST", "\x1b]0;pwned\x1b\\ok", "ok"],
    ["8-bit CSI", "x\x9b31my", "xy"],
    ["carriage return and backspace", "safe\rEVIL\b\b", "safeEVIL"],
    ["bell and NUL", "a\x07b\x00c", "abc"],
    ["bidi overrides", "user\u202Egnp.exe", "usergnp.exe"],
    ["newlines and tabs stay", "a\n\tb\n", "a\n\tb\n"],
    ["plain unicode stays", "Grüße — ✓", "Grüße — ✓"],
  ])("%s", (_what, input, out) => {
    expect(stripControls(input)).toBe(out);
    // hasControls: exactly when stripControls changes the text
    expect(hasControls(input)).toBe(out !== input);
  });
});
