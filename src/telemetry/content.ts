/**
 * What leaves in span attributes when the text is the user's content (prompts, tool inputs and
 * outputs, replies): by default only its hash and length; with `--otel-include-content` the text,
 * always after the run's secret redaction (docs/telemetry.md, "Content"). Pure.
 */
import { createHash } from "node:crypto";

export interface ContentPolicy {
  /** Export the text itself (redacted) instead of its hash. */
  includeContent: boolean;
  /** The run's secret redaction: applied to every string that leaves, content or not. */
  redact: (s: string) => string;
  /** Longest text exported as is; longer text is cut and marked. */
  maxChars: number;
}

export const DEFAULT_MAX_CONTENT_CHARS = 20_000;

export function sha256Hex(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/**
 * Attributes for one piece of content under `key`: `<key>` (text or `sha256:<hex>`) and
 * `<key>.length` (characters of the original text). The hash is of the redacted text, so a
 * secret cannot be confirmed by hashing guesses.
 */
export function contentAttributes(
  key: string,
  text: string | null | undefined,
  policy: ContentPolicy,
): Record<string, string | number> {
  if (text === null || text === undefined) return {};
  const red = policy.redact(text);
  if (!policy.includeContent)
    return { [key]: `sha256:${sha256Hex(red)}`, [`${key}.length`]: text.length };
  const cut =
    red.length > policy.maxChars
      ? `${red.slice(0, policy.maxChars)}… [${red.length - policy.maxChars} more characters]`
      : red;
  return { [key]: cut, [`${key}.length`]: text.length };
}
