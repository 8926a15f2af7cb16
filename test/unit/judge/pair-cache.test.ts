/** The judge cache's pairwise verdicts (docs/judge.md, "Caching"): key, storage, misses. */
import { mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { pairCacheKey, PairJudgeCache, type PairCacheKeyParts } from "../../../src/judge/cache.js";

const BASE: PairCacheKeyParts = {
  model: "judge-1",
  transport: "http",
  maxTokens: 2048,
  endpoint: "http://127.0.0.1:9/v1",
  firstPrompt: "A: candidate workspace + answer; B: baseline",
  secondPrompt: "A: baseline; B: candidate workspace + answer",
};

describe("pairCacheKey", () => {
  it("is a sha256 hex digest, the same for the same parts", () => {
    expect(pairCacheKey(BASE)).toMatch(/^[0-9a-f]{64}$/);
    expect(pairCacheKey({ ...BASE })).toBe(pairCacheKey(BASE));
  });

  it.each<[string, Partial<PairCacheKeyParts>]>([
    ["the judge model", { model: "judge-2" }],
    ["the transport", { transport: "cli" }],
    ["max tokens", { maxTokens: 1024 }],
    ["the endpoint", { endpoint: "scripted-model:x:t/CANDIDATE/1" }],
    ["the candidate's content (first order)", { firstPrompt: `${BASE.firstPrompt}!` }],
    ["the baseline's content (second order)", { secondPrompt: `${BASE.secondPrompt}!` }],
    ["the orders swapped", { firstPrompt: BASE.secondPrompt, secondPrompt: BASE.firstPrompt }],
  ])("changes with %s", (_what, change) => {
    expect(pairCacheKey({ ...BASE, ...change })).not.toBe(pairCacheKey(BASE));
  });
});

describe("PairJudgeCache", () => {
  const order = (preferred: "A" | "B" | "tie" | null) => ({
    preferred,
    reason: preferred === null ? "HTTP 500" : "because",
    calls: 1,
    repairs: 0,
  });

  it("stores a pair whose both orders answered, and gives it back", async () => {
    const cache = new PairJudgeCache(await mkdtemp(path.join(os.tmpdir(), "sb-pair-cache-")));
    const key = pairCacheKey(BASE);
    expect(await cache.get(key)).toBeNull();
    const pair = {
      first: order("A"),
      second: order("B"),
      tokens: { input: 3, output: 1 },
      cost_usd: 0.01,
    };
    await cache.put(key, pair);
    expect(await cache.get(key)).toEqual(pair);
  });

  it.each([
    ["the first order failed", order(null), order("A")],
    ["the second order failed", order("tie"), order(null)],
  ])("does not store a pair when %s (asked again next time)", async (_w, first, second) => {
    const cache = new PairJudgeCache(await mkdtemp(path.join(os.tmpdir(), "sb-pair-cache-")));
    const key = pairCacheKey(BASE);
    await cache.put(key, { first, second, tokens: null, cost_usd: null });
    expect(await cache.get(key)).toBeNull();
  });

  it("a file that is not a cached pair is a miss", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "sb-pair-cache-"));
    const key = pairCacheKey(BASE);
    await writeFile(path.join(dir, `pair-${key}.json`), '{"first": 1}');
    expect(await new PairJudgeCache(dir).get(key)).toBeNull();
    await writeFile(path.join(dir, `pair-${key}.json`), "not json");
    expect(await new PairJudgeCache(dir).get(key)).toBeNull();
  });
});
