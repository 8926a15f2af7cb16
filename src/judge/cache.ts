import { readFile } from "node:fs/promises";
import path from "node:path";
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
