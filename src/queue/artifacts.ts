import type { Redis } from "ioredis";
import { KEY_PREFIX } from "./job.js";

/**
 * Where bulky bytes (suite bundles, run records) are kept while they travel between the
 * coordinator and the workers. Redis by default; an S3-compatible store implements the same
 * four calls (keys become object names) and is chosen by the URL given to the commands.
 */
export interface ArtifactStore {
  /** Store bytes under a key (overwriting). `ttlSec` bounds how long an uncollected copy stays. */
  put(key: string, data: Buffer, ttlSec: number): Promise<void>;
  /** Store only when absent; true when stored now. */
  putIfAbsent(key: string, data: Buffer, ttlSec: number): Promise<boolean>;
  get(key: string): Promise<Buffer | null>;
  delete(key: string): Promise<void>;
  /** Keep an existing object for `ttlSec` more (a bundle in use by a resumed experiment). */
  touch(key: string, ttlSec: number): Promise<boolean>;
}

export function redisArtifactStore(redis: Redis): ArtifactStore {
  const k = (key: string): string => `${KEY_PREFIX}:artifact:${key}`;
  return {
    async put(key, data, ttlSec) {
      await redis.set(k(key), data, "EX", ttlSec);
    },
    async putIfAbsent(key, data, ttlSec) {
      return (await redis.set(k(key), data, "EX", ttlSec, "NX")) === "OK";
    },
    async get(key) {
      return redis.getBuffer(k(key));
    },
    async delete(key) {
      await redis.del(k(key));
    },
    async touch(key, ttlSec) {
      return (await redis.expire(k(key), ttlSec)) === 1;
    },
  };
}

export const bundleKey = (hash: string): string => `bundle/${hash}`;
export const resultKey = (experimentId: string, runId: string, attempt: number): string =>
  `result/${experimentId}/${runId}/${attempt}`;
