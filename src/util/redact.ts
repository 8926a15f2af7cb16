/**
 * Secret redaction, applied to every byte skillbench saves. Pure.
 *
 * Redacts: the literal values of known secrets (at least 4 characters),
 * `Bearer <token>`, `x-api-key: <key>`, credentials inside URLs
 * (`scheme://user:pass@host`), and values of JSON/env style keys whose name looks
 * like a credential (API_KEY, AUTH_TOKEN, SECRET, PASSWORD, ...).
 */
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

/** Build a redactor for the given secret values (values shorter than 4 chars are ignored). */
export function makeRedactor(secretValues: Iterable<string>): Redactor {
  // A secret with a quote or a backslash appears escaped inside JSON text; an agent may print it
  // encoded: match every form we can foresee.
  const forms = [...secretValues].filter((v) => v.length >= 4).flatMap(secretForms);
  const secrets = [...new Set(forms.filter((v) => v.length >= 4))].sort(
    (a, b) => b.length - a.length,
  );
  const literal = secrets.length > 0 ? new RegExp(secrets.map(escapeRegExp).join("|"), "g") : null;
  const fn = ((text: string): string => {
    let out = literal ? text.replace(literal, REDACTED) : text;
    if (MAYBE_PATTERN.test(out)) for (const [re, rep] of PATTERNS) out = out.replace(re, rep);
    return out;
  }) as Redactor;
  Object.defineProperty(fn, "secrets", { value: secrets });
  return fn;
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
        const x = walk((v as Record<string, unknown>)[k]);
        if (k === "__proto__")
          Object.defineProperty(out, k, {
            value: x,
            enumerable: true,
            writable: true,
            configurable: true,
          });
        else out[k] = x;
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
