/**
 * Every form of a secret that redaction covers, and every form it knowingly does not
 * (docs/sandbox.md, "Secrets in saved and exported files" lists the same).
 */
import { gzipSync, deflateRawSync, deflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { declaredSecrets, makeRedactor, REDACTED } from "../../../src/util/redact.js";

const SECRET = "sk-ant-api03-Zq7Xw9Lm2Np4Rt6Vb8Cd0Ef";
const PLAIN = "CorrectHorseBattery42"; // a declared value with no known key format
const r = makeRedactor([SECRET, PLAIN]);
const none = makeRedactor([]);
const b64 = (s: string | Buffer): string => Buffer.from(s).toString("base64");
/** `base64` wraps its output at 76 characters. */
const wrapped = (s: string): string => s.replace(/(.{76})/g, "$1\n");
const long = `${PLAIN} is the password, `.repeat(4);

describe("covered: the secret is gone", () => {
  it.each<[string, string]>([
    ["as it is", `key=${PLAIN}.`],
    ["upper-cased", PLAIN.toUpperCase()],
    ["lower-cased", PLAIN.toLowerCase()],
    ["split over two lines", `${PLAIN.slice(0, 9)}\n${PLAIN.slice(9)}`],
    ["split over two lines, CRLF", `${PLAIN.slice(0, 9)}\r\n${PLAIN.slice(9)}`],
    [
      "split by an escaped line break in JSON text",
      JSON.stringify(`${PLAIN.slice(0, 9)}\n${PLAIN.slice(9)}`),
    ],
    ["spaced out", [...PLAIN].join(" ")],
    ["tab-separated characters", [...PLAIN].join("\t")],
    ["JSON-escaped (a quote inside)", JSON.stringify({ v: PLAIN })],
    ["base64", b64(PLAIN)],
    ["base64 inside a longer base64 text", b64(`xx${PLAIN}yy`)],
    ["base64url", Buffer.from(PLAIN).toString("base64url")],
    ["base64 wrapped by the base64 tool", wrapped(b64(long))],
    ["hex", Buffer.from(PLAIN).toString("hex")],
    ["HEX", Buffer.from(PLAIN).toString("hex").toUpperCase()],
    ["reversed", [...PLAIN].reverse().join("")],
    ["gzip + base64", b64(gzipSync(long))],
    ["gzip + base64, wrapped", wrapped(b64(gzipSync(long)))],
    ["zlib (deflate) + base64", b64(deflateSync(long))],
    [
      "gzip + base64 with the line breaks escaped in JSON",
      JSON.stringify(wrapped(b64(gzipSync(long)))),
    ],
  ])("%s", (_name, text) => {
    const out = r(text);
    expect(out).toContain(REDACTED);
    expect(out.toLowerCase()).not.toContain(PLAIN.toLowerCase());
    expect(out.replace(/\s/g, "").toLowerCase()).not.toContain(PLAIN.toLowerCase());
  });
});

describe("covered: known key formats, whatever they were declared as (or not at all)", () => {
  it.each<[string, string]>([
    ["Anthropic", SECRET],
    ["OpenAI project key", "sk-proj-AbCdEfGhIjKlMnOpQrStUvWx1234"],
    ["GitHub token", "ghp_0123456789abcdefghijABCDEFGHIJ012345"],
    ["GitHub fine-grained token", "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz"],
    ["GitLab token", "glpat-AbCdEfGhIjKlMnOpQrSt"],
    ["Slack token", "xoxb-1234567890-abcdefghij"],
    ["AWS access key id", "AKIAIOSFODNN7EXAMPLE"],
    ["Google API key", "AIzaSyA1234567890abcdefghijklmnopqrstuv"],
    ["Hugging Face token", "hf_abcdefghijklmnopqrstuvwxyzABCDEF"],
    [
      "PEM private key",
      "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n-----END OPENSSH PRIVATE KEY-----",
    ],
  ])("%s", (_name, key) => {
    expect(none(`CONFIG_BLOB=${key} rest`)).toBe(`CONFIG_BLOB=${REDACTED} rest`);
  });
});

describe("knowingly not covered: the text stays", () => {
  it.each<[string, string, string]>([
    ["a part of the secret (its first half)", PLAIN.slice(0, 10), PLAIN.slice(0, 10)],
    ["other characters between its characters", [...PLAIN].join("-"), "C-o-r-r"],
    ["URL-encoding of characters that need it", encodeURIComponent("pa ss/wo+rd=1234"), "pa%20ss"],
    [
      "ROT13 and other ciphers",
      PLAIN.replace(/[a-z]/gi, (c) =>
        String.fromCharCode(((c.toLowerCase().charCodeAt(0) - 97 + 13) % 26) + 97),
      ),
      "pbeerpg",
    ],
    [
      "raw deflate (no zlib header) + base64",
      b64(deflateRawSync(long)),
      b64(deflateRawSync(long)).slice(0, 12),
    ],
    [
      "gzip without base64 (binary: the workspace copy keeps text files only)",
      gzipSync(long).toString("latin1"),
      "\u001f\u008b",
    ],
    [
      "base64 of the secret in another letter case",
      b64(PLAIN.toUpperCase()),
      b64(PLAIN.toUpperCase()).slice(0, 12),
    ],
  ])("%s", (_name, text, kept) => {
    expect(makeRedactor(["pa ss/wo+rd=1234", PLAIN])(text)).toContain(kept);
  });

  it("encoded forms of a value under 8 characters", () => {
    const short = makeRedactor(["abc1234"]);
    expect(short("abc1234")).toBe(REDACTED);
    expect(short(b64("abc1234"))).toBe(b64("abc1234"));
  });
});

describe("declaredSecrets: which declared --env values are redacted", () => {
  it.each<[string, string, boolean]>([
    ["ANTHROPIC_API_KEY", "abcd", true],
    ["CONFIG_BLOB", SECRET, true],
    ["CONFIG_BLOB", PLAIN, true],
    ["CLAUDE_CODE_MAX_RETRIES", "0", false],
    ["SHORT", "abc1234", false],
    ["TIMEOUT_MS", "600000000", false],
    ["FLAG", "false", false],
    ["SOME_DIR", "/usr/local/share/x", false],
    ["ENDPOINT", "http://127.0.0.1:8080/v1", false],
    ["ENDPOINT", "https://user:pa55word@host/v1", true],
  ])("%s=%s → %s", (name, value, redacted) => {
    expect(declaredSecrets({ [name]: value }).includes(value)).toBe(redacted);
  });
});
