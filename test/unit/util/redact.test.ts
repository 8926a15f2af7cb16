import { describe, expect, it } from "vitest";
import {
  isSecretName,
  makeRedactor,
  redactJsonLine,
  redactValue,
  REDACTED,
} from "../../../src/util/redact.js";

describe("makeRedactor", () => {
  const r = makeRedactor(["sk-live-123456", 'ab"cd\\efgh', "xyz"]);
  it.each([
    ["a literal secret value", "key is sk-live-123456!", `key is ${REDACTED}!`],
    ["a secret shorter than 4 chars is left alone", "xyz", "xyz"],
    ["Bearer tokens", "authorization: Bearer abc.def-ghi", `authorization: Bearer ${REDACTED}`],
    ["x-api-key headers", "x-api-key: k-998877", `x-api-key: ${REDACTED}`],
    ["credentials in URLs", "https://user:pa55w0rd@host/x", `https://${REDACTED}@host/x`],
    ["credential-like keys", "DB_PASSWORD=hunter22", `DB_PASSWORD=${REDACTED}`],
    ["JSON credential keys", '{"api_key":"abcd1234"}', `{"api_key":"${REDACTED}"}`],
    [
      "a secret in its JSON-escaped form",
      JSON.stringify({ v: 'ab"cd\\efgh' }),
      `{"v":"${REDACTED}"}`,
    ],
  ])("%s", (_name, input, expected) => {
    expect(r(input)).toBe(expected);
  });
});

describe("redactJsonLine never turns valid JSON into invalid JSON", () => {
  const r = makeRedactor(["hunter22secret"]);
  it.each([
    JSON.stringify({ text: "export DB_PASSWORD=\nhunter22" }),
    JSON.stringify({ text: 'PASSWORD=\\"quoted\\" and hunter22secret' }),
    JSON.stringify({ a: ["API_KEY=\tvalue123", { b: "x-api-key: \nzzzz" }] }),
  ])("%s", (line) => {
    const out = redactJsonLine(line, r);
    expect(() => JSON.parse(out)).not.toThrow();
    expect(out).not.toContain("hunter22secret");
  });
  it("leaves non-JSON lines to text redaction", () => {
    expect(redactJsonLine("plain hunter22secret", r)).toBe(`plain ${REDACTED}`);
  });
});

describe("redactValue", () => {
  it("redacts strings at any depth and keeps keys", () => {
    const r = makeRedactor(["s3cr3t-value"]);
    expect(redactValue({ k: ["x s3cr3t-value", { s3cr3t: "s3cr3t-value" }], n: 1 }, r)).toEqual({
      k: [`x ${REDACTED}`, { s3cr3t: REDACTED }],
      n: 1,
    });
  });
});

describe("isSecretName", () => {
  it.each([
    ["AWS_SECRET_ACCESS_KEY", true],
    ["ANTHROPIC_API_KEY", true],
    ["ANTHROPIC_AUTH_TOKEN", true],
    ["GITHUB_TOKEN", true],
    ["NPM_TOKEN", true],
    ["DB_PASSWORD", true],
    ["SSH_PRIVATE_KEY", true],
    ["PATH", false],
    ["HOME", false],
    ["LANG", false],
    ["CLAUDE_CODE_MAX_RETRIES", false],
  ])("%s -> %s", (name, secret) => {
    expect(isSecretName(name)).toBe(secret);
  });
});

describe("secret forms", () => {
  const secret = "sk-live-0123456789abcdef";
  const r = makeRedactor([secret]);
  const b64 = (s: string) => Buffer.from(s).toString("base64");
  const cases: Array<[string, string]> = [
    ["plain", `key=${secret}.`],
    ["base64 on its own", b64(secret)],
    ["base64url", Buffer.from(secret).toString("base64url")],
    ["base64 inside a longer encoded text (offset 1)", b64(`x${secret}yz`)],
    ["base64 inside a longer encoded text (offset 2)", b64(`xy${secret}z`)],
    ["hex", Buffer.from(secret).toString("hex")],
    ["reversed", [...secret].reverse().join("")],
  ];
  for (const [name, text] of cases)
    it(`redacts the ${name} form`, () => {
      const out = r(text);
      expect(out).toContain("[REDACTED]");
      expect(out).not.toContain(secret);
    });
  it("leaves unrelated base64 alone", () => {
    expect(r(b64("nothing to see here at all"))).toBe(b64("nothing to see here at all"));
  });
});
