/**
 * Secret redaction, applied to every byte skillbench saves. Pure.
 *
 * Redacts: the values of known secrets (at least 4 characters) in the forms `secretForms` lists,
 * in any letter case and with whitespace or escaped line breaks between their characters;
 * gzip or zlib streams in base64 whose decompressed text holds one; known key formats
 * (`KEY_FORMATS`) whatever variable or file they come from; `Bearer <token>`, `x-api-key: <key>`,
 * credentials inside URLs (`scheme://user:pass@host`), and values of JSON/env style keys whose
 * name looks like a credential (API_KEY, AUTH_TOKEN, SECRET, PASSWORD, ...). The table of covered
 * and knowingly uncovered forms is test/unit/util/redact-forms.test.ts (docs/sandbox.md).
 */
import { gunzipSync, inflateSync } from "node:zlib";

export const REDACTED = "[REDACTED]";

const PATTERNS: Array<[RegExp, string]> = [
  [/\b(Bearer)\s+[A-Za-z0-9._~+/=-]{4,}/gi, `$1 ${REDACTED}`],
  [/\b(x-api-key)(["']?\s*[:=]\s*["']?)[^\s"',}]{4,}/gi, `$1$2${REDACTED}`],
  [/\b([a-z][a-z0-9+.-]*:\/\/)[^/\s:@"']+:[^/\s@"']+@/gi, `$1${REDACTED}@`],
  [
    // The separator may end in a quote (escaped or not), never in a lone backslash, so an
    // escape sequence such as \n in JSON text is never cut in two.
    /\b([A-Za-z0-9_]*(?:API[_-]?KEY|AUTH[_-]?TOKEN|ACCESS[_-]?TOKEN|SECRET(?:[_-]?ACCESS)?(?:[_-]?KEY)?|PASSWORD|PASSWD)[A-Za-z0-9_]*)(\\?["']?\s*[:=]\s*(?:\\?["'])?)(?!\[REDACTED\])[^\s"'\\,}]{4,}/gi,
    `$1$2${REDACTED}`,
  ],
];

/**
 * Known API key formats, redacted wherever they appear (a key under a harmless name, pasted into
 * a file): Anthropic and OpenAI (`sk-…`), GitHub, GitLab, Slack, AWS access key ids, Google API
 * keys, Hugging Face, and PEM private keys.
 */
const KEY_FORMATS: RegExp[] = [
  /\bsk-(?:ant-)?[A-Za-z0-9_-]{20,}/g,
  /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,}/g,
  /\bgithub_pat_[A-Za-z0-9_]{30,}/g,
  /\bglpat-[A-Za-z0-9_-]{20,}/g,
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/g,
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  /\bAIza[0-9A-Za-z_-]{35}/g,
  /\bhf_[A-Za-z0-9]{30,}/g,
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g,
];
const MAYBE_KEY = /sk-|gh[pousr]_|github_pat_|glpat-|xox[abprs]-|AKIA|ASIA|AIza|hf_|PRIVATE KEY/;

/**
 * base64 of a gzip stream (`H4sI`) or of a zlib one (`eJ`, `eN`, `eA`, `eF`: 0x78 and a level),
 * at least 24 characters, possibly wrapped over lines (`base64` wraps at 76).
 */
const COMPRESSED_B64 =
  /(?<![A-Za-z0-9+/])(?:H4sI|eJ|eN|eA|eF)[A-Za-z0-9+/]{20,}(?:(?:\r?\n|\\n)[A-Za-z0-9+/]{4,})*={0,2}/g;
/** What a decompressed blob may grow to before it is left as it is (a zip bomb stays cheap). */
const MAX_INFLATED = 1 << 20;

function inflated(b64: string): string | null {
  const bytes = Buffer.from(b64.replace(/\r?\n|\\n/g, ""), "base64");
  try {
    if (bytes[0] === 0x1f && bytes[1] === 0x8b)
      return gunzipSync(bytes, { maxOutputLength: MAX_INFLATED }).toString("utf8");
    if (bytes[0] === 0x78 && ((bytes[0] << 8) | (bytes[1] ?? 0)) % 31 === 0)
      return inflateSync(bytes, { maxOutputLength: MAX_INFLATED }).toString("utf8");
  } catch {
    // not a stream after all, cut short, or larger than MAX_INFLATED
  }
  return null;
}

/**
 * Text that none of PATTERNS can match lacks all of these (each pattern needs one of them, in
 * the same case-insensitive sense): one scan of most texts instead of four.
 */
const MAYBE_PATTERN =
  /bearer|:\/\/|api[_-]?key|auth[_-]?token|access[_-]?token|secret|passw(?:or)?d/i;

/** Names of environment variables whose values are treated as secrets. */
export function isSecretName(name: string): boolean {
  return /(TOKEN|API[_-]?KEY|_KEY$|^KEY$|SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL|PRIVATE[_-]?KEY|AUTH)/i.test(
    name,
  );
}

export interface Redactor {
  (text: string): string;
  readonly secrets: readonly string[];
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Shortest encoded form worth matching: shorter cores would match ordinary text. */
const MIN_ENCODED = 8;

/**
 * The base64 text that a secret's bytes produce wherever they sit in an encoded stream: for each
 * of the three byte alignments, the characters that depend on the secret's bytes alone (standard
 * and URL-safe alphabets). `printf %s "$KEY" | base64` gives the first one with its padding.
 */
function base64Forms(v: string): string[] {
  const bytes = Buffer.from(v, "utf8");
  const out: string[] = [bytes.toString("base64"), bytes.toString("base64url")];
  for (let k = 0; k < 3; k++) {
    const b64 = Buffer.concat([Buffer.alloc(k), bytes]).toString("base64");
    const first = k === 0 ? 0 : 4;
    const last = 4 * Math.floor((k + bytes.length) / 3);
    const core = b64.slice(first, last);
    if (core.length >= MIN_ENCODED) out.push(core, core.replace(/\+/g, "-").replace(/\//g, "_"));
  }
  return out.filter((f) => f.length >= MIN_ENCODED);
}

/**
 * Every form of a secret that redaction matches (docs/sandbox.md, "Secrets"): the value, its
 * JSON-escaped text, its base64 (any alignment, both alphabets), hex and reversed text.
 */
function secretForms(v: string): string[] {
  const hex = Buffer.from(v, "utf8").toString("hex");
  return [
    v,
    JSON.stringify(v).slice(1, -1),
    ...(v.length >= MIN_ENCODED ? [...base64Forms(v), hex, hex.toUpperCase()] : []),
    [...v].reverse().join(""),
  ];
}

/**
 * A secret form as a pattern that also matches it with whitespace, or a JSON-escaped line break
 * or tab, between any two of its characters (a key wrapped over two lines, spaced out).
 */
function loosePattern(form: string): string {
  return [...form].map(escapeRegExp).join("(?:\\s|\\\\[nrt])*");
}

/**
 * A text lower-cased and without what `loosePattern` lets stand between a secret's characters:
 * where a loose match can be looked for fast (escapes looked for only where a backslash is).
 */
function skeleton(text: string): string {
  const lower = text.toLowerCase();
  return (lower.includes("\\") ? lower.replace(/\\[nrt]/g, "") : lower).replace(/\s+/g, "");
}

/** Build a redactor for the given secret values (values shorter than 4 chars are ignored). */
export function makeRedactor(secretValues: Iterable<string>): Redactor {
  // A secret with a quote or a backslash appears escaped inside JSON text; an agent may print it
  // encoded: match every form we can foresee.
  const forms = [...secretValues].filter((v) => v.length >= 4).flatMap(secretForms);
  const secrets = [...new Set(forms.filter((v) => v.length >= 4))].sort(
    (a, b) => b.length - a.length,
  );
  // Any letter case, and whitespace inside. The loose pattern is slow to scan (no literal to
  // skip ahead by), so it runs only on a text whose lower-cased, separator-free skeleton holds
  // a form: three native passes for the rest (nearly every text).
  const loose = secrets.length > 0 ? new RegExp(secrets.map(loosePattern).join("|"), "gi") : null;
  const skeletonForms = [...new Set(secrets.map(skeleton))].filter((f) => f.length > 0);
  const probe =
    skeletonForms.length > 0 ? new RegExp(skeletonForms.map(escapeRegExp).join("|")) : null;
  const once = (text: string): string => {
    let out = loose && probe?.test(skeleton(text)) ? text.replace(loose, REDACTED) : text;
    if (MAYBE_KEY.test(out)) for (const re of KEY_FORMATS) out = out.replace(re, REDACTED);
    if (MAYBE_PATTERN.test(out)) for (const [re, rep] of PATTERNS) out = out.replace(re, rep);
    return out;
  };
  const fn = ((text: string): string => {
    const out = once(text);
    // A compressed blob is opened only when it may hide something: its text is redacted as any
    // text, and the whole blob goes when that changed anything.
    if (!/H4sI|e[JNAF][A-Za-z0-9+/]{20}/.test(out)) return out;
    return out.replace(COMPRESSED_B64, (blob) => {
      const text = inflated(blob);
      return text !== null && once(text) !== text ? REDACTED : blob;
    });
  }) as Redactor;
  Object.defineProperty(fn, "secrets", { value: secrets });
  return fn;
}

/**
 * The values a user declared for the agent (`--env`, the suite's `env:`) that are redacted: every
 * one under a credential-like name, and whatever the name every value of 8 characters or more
 * that is not a number, `true`/`false`, an absolute path or a URL without credentials (a key
 * under a plain name, `CONFIG_BLOB=sk-ant-…`).
 */
export function declaredSecrets(env: Record<string, string | undefined>): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(env)) {
    if (!v) continue;
    if (isSecretName(k)) out.push(v);
    else if (
      v.length >= 8 &&
      !/^[-+]?\d+(?:\.\d+)?$/.test(v) &&
      !/^(?:true|false)$/i.test(v) &&
      !/^\/[^\s]*$/.test(v) &&
      !/^[a-z][a-z0-9+.-]*:\/\/[^/@\s]*(?:[/?#]\S*)?$/i.test(v)
    )
      out.push(v);
  }
  return out;
}

/** Secret values found in an environment: every variable whose name looks like a credential. */
export function secretsFromEnv(
  env: NodeJS.ProcessEnv | Record<string, string | undefined>,
): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(env)) if (v && isSecretName(k)) out.push(v);
  return out;
}

/** Redact every string inside a JSON-able value (keys kept): the result is always valid JSON. */
export function redactValue<T>(value: T, redact: (s: string) => string): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return redact(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === "object") {
      // A new plain object with the same own keys in the same order (as Object.fromEntries).
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(v)) {
        setOwnKey(out, k, walk((v as Record<string, unknown>)[k]));
      }
      return out;
    }
    return v;
  };
  return walk(value) as T;
}

/**
 * Redact one line of JSONL. Text redaction first; if that would turn a valid JSON
 * line into an invalid one, redact the decoded strings instead and re-serialise.
 */
export function redactJsonLine(line: string, redact: (s: string) => string): string {
  const out = redact(line);
  if (out === line) return out;
  try {
    JSON.parse(out);
    return out;
  } catch {
    try {
      return JSON.stringify(redactValue(JSON.parse(line) as unknown, redact));
    } catch {
      return out; // the line was not JSON to begin with
    }
  }
}

/**
 * A JSON value with every string redacted, as redactValue makes it, but the value
 * itself (and each part of it) where redaction changes none of its strings: the same JSON text,
 * without a copy of every object of a record whose strings nearly never change. For a value
 * that is only read (written to a file, checked by a schema): the result may be `value`.
 */
export function redactedRecord<T>(value: T, redact: (s: string) => string): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return redact(v);
    if (Array.isArray(v)) {
      let out: unknown[] | null = null;
      for (let i = 0; i < v.length; i++) {
        const x = walk(v[i]);
        if (out === null && x !== v[i]) out = v.slice(0, i);
        out?.push(x);
      }
      return out ?? v;
    }
    if (v !== null && typeof v === "object") {
      const rec = v as Record<string, unknown>;
      const keys = Object.keys(rec);
      // Anything but a plain object (a Date, whose toJSON would speak for it) is copied as
      // redactValue copies it: its own keys into a plain object.
      const proto: unknown = Object.getPrototypeOf(v);
      let out: Record<string, unknown> | null =
        proto === Object.prototype || proto === null ? null : {};
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i] ?? "";
        const x = walk(rec[k]);
        if (out === null && x !== rec[k]) {
          out = {};
          for (let j = 0; j < i; j++) setOwnKey(out, keys[j] ?? "", rec[keys[j] ?? ""]);
        }
        if (out !== null) setOwnKey(out, k, x);
      }
      return out ?? v;
    }
    return v;
  };
  return walk(value) as T;
}

/** out[k] = x, also for a key named `__proto__` (an own property, as Object.fromEntries makes it). */
function setOwnKey(out: Record<string, unknown>, k: string, x: unknown): void {
  if (k === "__proto__")
    Object.defineProperty(out, k, {
      value: x,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  else out[k] = x;
}
