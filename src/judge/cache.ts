import { readFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { PairwiseFileSchema } from "../core/pairwise.js";
import { canonicalJson, sha256 } from "../util/hash.js";
import { writeJsonAtomic } from "../util/fs.js";
import { JudgeBlockSchema, type JudgeBlock } from "./types.js";

/**
 * A file cache of judge verdicts, one JSON file per key in a folder given by
 * the caller (e.g. `<results>/judge-cache/`). Only successful verdicts are
 * stored, so a failed call is tried again next time.
 */

export interface JudgeCacheKeyParts {
  model: string;
  prompt: string;
  transport: string;
  samples: number;
  maxTokens: number;
  baseUrl: string | null;
}

/** sha256 over the judge model, the prompt and the settings. Pure. */
export function judgeCacheKey(p: JudgeCacheKeyParts): string {
  return sha256(
    canonicalJson({
      // 2: the prompts state that ties are ties (docs/judge.md); answers to the old prompts are not reused.
      v: 2,
      model: p.model,
      prompt: p.prompt,
      transport: p.transport,
      samples: p.samples,
      max_tokens: p.maxTokens,
      base_url: p.baseUrl,
    }),
  );
}

export class JudgeCache {
  constructor(readonly dir: string) {}

  private file(key: string): string {
    if (!/^[0-9a-f]{64}$/.test(key))
      throw new Error(`judge cache key must be a sha256 hex digest, got ${key}`);
    return path.join(this.dir, `${key}.json`);
  }

  /** The stored block, or null (missing, unreadable or not a valid block: a miss). */
  async get(key: string): Promise<JudgeBlock | null> {
    let text: string;
    try {
      text = await readFile(this.file(key), "utf8");
    } catch {
      return null;
    }
    try {
      const r = JudgeBlockSchema.safeParse(JSON.parse(text));
      return r.success ? r.data : null;
    } catch {
      return null;
    }
  }

  async put(key: string, block: JudgeBlock): Promise<void> {
    await writeJsonAtomic(this.file(key), block);
  }
}

/**
 * What identifies one pairwise judgement (docs/judge.md, "Pairwise"): the judge (model,
 * transport, endpoint, max tokens) and both orders' prompts as sent. Each prompt holds the task's
 * instruction, the pairwise template with its rubric and both runs' final workspace and answer,
 * one order with the candidate first and the other with the baseline first: so the key changes
 * when either run's content, the order, the template or the rubric does, and not otherwise.
 */
export interface PairCacheKeyParts {
  model: string;
  transport: string;
  maxTokens: number;
  /** the endpoint as the single-run key names it (`cacheEndpoint`, else the base URL) */
  endpoint: string | null;
  /** the candidate as A */
  firstPrompt: string;
  /** the baseline as A */
  secondPrompt: string;
}

/** sha256 over a pair's judge settings and both orders' prompts. Pure. */
export function pairCacheKey(p: PairCacheKeyParts): string {
  return sha256(
    canonicalJson({
      v: 1,
      kind: "pair",
      model: p.model,
      transport: p.transport,
      max_tokens: p.maxTokens,
      endpoint: p.endpoint,
      first: sha256(p.firstPrompt),
      second: sha256(p.secondPrompt),
    }),
  );
}

const PairOrderSchema = PairwiseFileSchema.shape.pairs.element.shape.first;

/** A cached pair: both orders as judged, and what judging them cost then (a hit costs nothing). */
const CachedPairSchema = z.object({
  first: PairOrderSchema,
  second: PairOrderSchema,
  tokens: PairwiseFileSchema.shape.tokens,
  cost_usd: PairwiseFileSchema.shape.cost_usd,
});
export type CachedPair = z.infer<typeof CachedPairSchema>;

/**
 * Pairwise verdicts in the same folder as the single-run cache (`pair-<key>.json`), so that
 * `rescore` and `--resume` ask the judge only about pairs whose content changed. Only pairs whose
 * both orders gave a preference are stored: a failed order is asked again next time.
 */
export class PairJudgeCache {
  constructor(readonly dir: string) {}

  private file(key: string): string {
    if (!/^[0-9a-f]{64}$/.test(key))
      throw new Error(`judge cache key must be a sha256 hex digest, got ${key}`);
    return path.join(this.dir, `pair-${key}.json`);
  }

  /** The stored pair, or null (missing, unreadable or not a valid entry: a miss). */
  async get(key: string): Promise<CachedPair | null> {
    try {
      const r = CachedPairSchema.safeParse(JSON.parse(await readFile(this.file(key), "utf8")));
      return r.success ? r.data : null;
    } catch {
      return null;
    }
  }

  async put(key: string, pair: CachedPair): Promise<void> {
    if (pair.first.preferred === null || pair.second.preferred === null) return;
    await writeJsonAtomic(this.file(key), pair);
  }
}
