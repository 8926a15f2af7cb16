import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from "node:crypto";
import { z } from "zod";
import { InputError } from "../core/errors.js";

/**
 * The queue's shared key (`SKILLBENCH_QUEUE_KEY`, from the environment of the coordinator and of
 * every worker, never from the command line): jobs and run records are signed with an HMAC under
 * it, and a job's `--env` values travel encrypted under it. Anyone who can write to Redis can
 * then neither make a worker run a job nobody signed, nor substitute a suite bundle (the signed
 * job names the bundle's sha256, which the worker checks), nor change a run's record on its way
 * back. See docs/distributed.md, "Security".
 */
export const QUEUE_KEY_VAR = "SKILLBENCH_QUEUE_KEY";
const MIN_KEY_CHARS = 16;

export interface QueueKey {
  /** For HMACs. */
  mac: Buffer;
  /** For AES-256-GCM (the `--env` values). */
  seal: Buffer;
}

/** The shared key from the environment; null when unset. */
export function queueKeyFrom(env: Record<string, string | undefined>): QueueKey | null {
  const text = env[QUEUE_KEY_VAR];
  if (text === undefined || text === "") return null;
  if (text.length < MIN_KEY_CHARS)
    throw new InputError(
      `${QUEUE_KEY_VAR}: at least ${MIN_KEY_CHARS} characters (e.g. openssl rand -hex 32)`,
      { field: QUEUE_KEY_VAR },
    );
  // Two keys derived from one secret: the MAC and the cipher never share a key.
  const derive = (info: string): Buffer =>
    Buffer.from(hkdfSync("sha256", text, "skillbench-queue", info, 32));
  return { mac: derive("mac"), seal: derive("seal") };
}

/** The shared key the coordinator and its workers sign with; refused when unset (exit 2). */
export function requireQueueKey(env: Record<string, string | undefined>): QueueKey {
  const key = queueKeyFrom(env);
  if (!key)
    throw new InputError(
      `${QUEUE_KEY_VAR} is not set: the coordinator and its workers sign the queue's jobs and records with this shared key (the same value on every host, e.g. openssl rand -hex 32; docs/distributed.md)`,
      { field: QUEUE_KEY_VAR },
    );
  return key;
}

/** JSON with object keys sorted at every level: the bytes an HMAC is taken over. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(",")}]`;
  if (v !== null && typeof v === "object") {
    const entries = Object.entries(v)
      .filter(([, x]) => x !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonicalJson(x)}`).join(",")}}`;
  }
  return JSON.stringify(v);
}

/** HMAC-SHA256 of a purpose and a value (the purpose keeps a job's MAC from passing as a record's). */
export function macOf(key: QueueKey, purpose: string, value: unknown): string {
  return createHmac("sha256", key.mac)
    .update(`${purpose}\n${canonicalJson(value)}`)
    .digest("hex");
}

export function macMatches(key: QueueKey, purpose: string, value: unknown, mac: string): boolean {
  const want = Buffer.from(macOf(key, purpose, value), "hex");
  const got = Buffer.from(mac, "hex");
  return got.length === want.length && timingSafeEqual(got, want);
}

export const SealedSchema = z.object({
  iv: z.string(),
  data: z.string(),
  tag: z.string(),
});
export type Sealed = z.infer<typeof SealedSchema>;

/** Encrypt a small JSON value (AES-256-GCM, a fresh IV each time). */
export function seal(key: QueueKey, value: unknown): Sealed {
  const iv = randomBytes(12);
  const c = createCipheriv("aes-256-gcm", key.seal, iv);
  const data = Buffer.concat([c.update(JSON.stringify(value), "utf8"), c.final()]);
  return {
    iv: iv.toString("base64"),
    data: data.toString("base64"),
    tag: c.getAuthTag().toString("base64"),
  };
}

/** Decrypt what `seal` made; throws when the key differs or the bytes were changed. */
export function unseal(key: QueueKey, s: Sealed): unknown {
  const d = createDecipheriv("aes-256-gcm", key.seal, Buffer.from(s.iv, "base64"));
  d.setAuthTag(Buffer.from(s.tag, "base64"));
  const text = Buffer.concat([d.update(Buffer.from(s.data, "base64")), d.final()]).toString("utf8");
  return JSON.parse(text) as unknown;
}
