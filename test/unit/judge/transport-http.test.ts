import { describe, expect, it } from "vitest";
import {
  httpErrorText,
  httpTransport,
  judgeHeaders,
  messagesUrl,
  replyFromBody,
} from "../../../src/judge/transport-http.js";

describe("messagesUrl", () => {
  it.each([
    ["http://h", "http://h/v1/messages"],
    ["http://h/", "http://h/v1/messages"],
    ["http://h/runs/t/T/1/judge", "http://h/runs/t/T/1/judge/v1/messages"],
    ["http://h/v1", "http://h/v1/messages"],
    ["http://h/v1/", "http://h/v1/messages"],
    ["http://h/v1/messages", "http://h/v1/messages"],
    ["http://h/custom/messages", "http://h/custom/messages"],
  ])("%s", (base, url) => {
    expect(messagesUrl(base)).toBe(url);
  });
});

describe("headers", () => {
  it.each([
    [{ kind: "token" as const, value: "tok1" }, { authorization: "Bearer tok1" }, "x-api-key"],
    [{ kind: "api_key" as const, value: "key1" }, { "x-api-key": "key1" }, "authorization"],
  ])("%j", (cred, has, absent) => {
    const h = judgeHeaders(cred);
    expect(h).toMatchObject({
      ...has,
      "anthropic-version": "2023-06-01",
      "content-type": "application/json",
    });
    expect(h[absent]).toBeUndefined();
  });
});

describe("replies", () => {
  it.each([
    [
      "text blocks joined, usage",
      '{"content":[{"type":"text","text":"a"},{"type":"tool_use"},{"type":"text","text":"b"}],"usage":{"input_tokens":5,"output_tokens":2}}',
      { ok: true, text: "ab", tokens: { input: 5, output: 2 }, costUsd: null },
    ],
    ["no usage", '{"content":[]}', { ok: true, text: "", tokens: null, costUsd: null }],
    ["not JSON", "oops", { ok: false }],
    ["not a message", '{"x":1}', { ok: false }],
  ])("%s", (_n, body, expected) => {
    expect(replyFromBody(body)).toMatchObject(expected);
  });
  it.each([
    [500, '{"type":"error","error":{"type":"api_error","message":"boom"}}', "HTTP 500 boom"],
    [502, "Bad   gateway\n", "HTTP 502 Bad gateway"],
    [503, "", "HTTP 503"],
  ])("error %d", (status, body, text) => {
    expect(httpErrorText(status, body)).toBe(text);
  });
});

describe("httpTransport failures", () => {
  const opts = {
    baseUrl: "http://h",
    credential: { kind: "api_key" as const, value: "k" },
    model: "m",
    maxTokens: 2048,
  };
  it("a timeout is reported as such", async () => {
    const never: typeof fetch = (_u, init) =>
      new Promise((_res, rej) =>
        init?.signal?.addEventListener("abort", () => rej(new Error("aborted"))),
      );
    const t = httpTransport({ ...opts, timeoutMs: 10, fetchImpl: never });
    expect(await t("p")).toEqual({ ok: false, error: "timeout after 0.01s" });
  });
  it("an exception is reported with its cause", async () => {
    const broken: typeof fetch = () =>
      Promise.reject(new TypeError("fetch failed", { cause: new Error("ECONNREFUSED") }));
    const t = httpTransport({ ...opts, timeoutMs: 1000, fetchImpl: broken });
    expect(await t("p")).toEqual({ ok: false, error: "fetch failed: ECONNREFUSED" });
  });
  it("sends the body of docs/judge.md (direct HTTP)", async () => {
    let seen: unknown = null;
    const capture: typeof fetch = (_u, init) => {
      seen = JSON.parse(String(init?.body));
      return Promise.resolve(
        new Response('{"content":[{"type":"text","text":"ok"}]}', { status: 200 }),
      );
    };
    await httpTransport({ ...opts, timeoutMs: 1000, fetchImpl: capture })("PROMPT");
    expect(seen).toEqual({
      model: "m",
      max_tokens: 2048,
      messages: [{ role: "user", content: "PROMPT" }],
    });
  });
});
