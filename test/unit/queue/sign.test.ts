import { describe, expect, it } from "vitest";
import { bounded, explainRedisError, QueueStopped } from "../../../src/queue/connect.js";
import { isEndpointName } from "../../../src/queue/job.js";
import {
  canonicalJson,
  macMatches,
  macOf,
  queueKeyFrom,
  requireQueueKey,
  seal,
  unseal,
} from "../../../src/queue/sign.js";

const key = requireQueueKey({ SKILLBENCH_QUEUE_KEY: "unit-key-0123456789abcdef" });
const other = requireQueueKey({ SKILLBENCH_QUEUE_KEY: "unit-key-fedcba9876543210" });

describe("the queue's shared key", () => {
  it("comes from the environment only, long enough, or not at all", () => {
    expect(queueKeyFrom({})).toBeNull();
    expect(queueKeyFrom({ SKILLBENCH_QUEUE_KEY: "" })).toBeNull();
    expect(() => queueKeyFrom({ SKILLBENCH_QUEUE_KEY: "short" })).toThrow(/at least 16/);
    expect(() => requireQueueKey({})).toThrow(/SKILLBENCH_QUEUE_KEY is not set/);
  });

  it("canonical JSON: key order never changes the bytes signed", () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: null }], c: "x" } })).toBe(
      '{"a":{"c":"x","d":[2,{"y":null,"z":1}]},"b":1}',
    );
    expect(canonicalJson({ a: 1, skip: undefined })).toBe('{"a":1}');
  });

  it.each([
    ["the same value", { run: "a", bundle: "h1" }, true],
    ["a changed field", { run: "a", bundle: "h2" }, false],
    ["an added field", { run: "a", bundle: "h1", extra: 1 }, false],
  ])("a MAC matches %s: %s", (_what, value, ok) => {
    const mac = macOf(key, "job", { bundle: "h1", run: "a" });
    expect(macMatches(key, "job", value, mac)).toBe(ok);
  });

  it("a MAC is bound to its key and its purpose (a job's never passes as a record's)", () => {
    const v = { a: 1 };
    expect(macMatches(other, "job", v, macOf(key, "job", v))).toBe(false);
    expect(macMatches(key, "record", v, macOf(key, "job", v))).toBe(false);
    expect(macMatches(key, "job", v, "not hex")).toBe(false);
  });

  it("sealed values open only under the same key and unchanged", () => {
    const env = { SOME_SETTING: "plain-value" };
    const s = seal(key, env);
    expect(JSON.stringify(s)).not.toContain("plain-value");
    expect(seal(key, env).data).not.toBe(s.data); // a fresh IV each time
    expect(unseal(key, s)).toEqual(env);
    expect(() => unseal(other, s)).toThrow();
    const flipped = Buffer.from(s.data, "base64");
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    expect(() => unseal(key, { ...s, data: flipped.toString("base64") })).toThrow();
  });
});

describe("what a queued run may not set with --env", () => {
  it.each([
    ["ANTHROPIC_BASE_URL", true],
    ["OPENAI_BASE_URL", true],
    ["GOOGLE_GEMINI_BASE_URL", true],
    ["https_proxy", true],
    ["ALL_PROXY", true],
    ["ANTHROPIC_CUSTOM_HEADERS", true],
    ["CLAUDE_CODE_USE_BEDROCK", true],
    ["AWS_REGION", true],
    ["NODE_OPTIONS", true],
    ["MY_SERVICE_ENDPOINT", true],
    ["CLAUDE_CODE_MAX_RETRIES", false],
    ["SOME_SETTING", false],
    ["ANTHROPIC_MODEL", false],
  ])("%s: %s", (name, refused) => {
    expect(isEndpointName(name)).toBe(refused);
  });
});

describe("connection errors in words", () => {
  const err = (message: string, code?: string) => Object.assign(new Error(message), { code });
  it.each([
    [err("WRONGPASS invalid username-password pair"), /refused the password/, true],
    [err("NOAUTH Authentication required."), /refused the password/, true],
    [err("ERR DB index is out of range"), /no such database/, true],
    [err("getaddrinfo ENOTFOUND nowhere", "ENOTFOUND"), /no such host/, true],
    [err("connect ECONNREFUSED 127.0.0.1:1", "ECONNREFUSED"), /connection refused/, false],
    [err("connect ETIMEDOUT", "ETIMEDOUT"), /no answer/, false],
    [
      err("OOM command not allowed when used memory > 'maxmemory'."),
      /out of memory \(maxmemory reached\)/,
      true,
    ],
  ])("%s", (e, cause, lasting) => {
    const x = explainRedisError(e);
    expect(x.cause).toMatch(cause);
    expect(x.lasting).toBe(lasting);
  });
});

describe("bounded: a Redis call raced with a stop and a deadline", () => {
  const never = new Promise<never>(() => undefined);
  it("a stop ends the wait at once", async () => {
    const stop = new AbortController();
    const p = bounded(never, { signal: stop.signal });
    stop.abort();
    await expect(p).rejects.toBeInstanceOf(QueueStopped);
    await expect(bounded(never, { signal: stop.signal })).rejects.toBeInstanceOf(QueueStopped);
  });
  it("a deadline ends it, naming what waited", async () => {
    await expect(bounded(never, { ms: 10, what: "adding jobs" })).rejects.toThrow(
      /no answer from the queue within 0 s \(adding jobs\)/,
    );
  });
  it("an answer in time is the answer", async () => {
    expect(await bounded(Promise.resolve(7), { ms: 1000 })).toBe(7);
    await expect(bounded(Promise.reject(new Error("x")), { ms: 1000 })).rejects.toThrow("x");
  });
});
