/**
 * The regexes that recognise infrastructure noise in a run's output (the original
 * harness's rules, stated in docs/statistics.md §8), kept as data so that the docs and
 * the tests can cite them. All case-insensitive.
 */

export type HardNoiseCode =
  | "rate_limited"
  | "api_timeout"
  | "runner_timeout"
  | "container_failure"
  | "auth_failure"
  | "network_failure";

export interface HardNoiseRule {
  code: HardNoiseCode;
  reason: string;
  patterns: RegExp[];
}

/** Checked in this order; the first rule with a matching pattern wins. */
export const HARD_NOISE_RULES: readonly HardNoiseRule[] = [
  {
    code: "rate_limited",
    reason: "API rate limit or quota failure",
    // `\b429\b` (the original has a bare `429`, which also matched ids and counts such as 4291).
    patterns: [/(\b429\b|rate[_ -]?limit|insufficient quota|quota exceeded)/i],
  },
  {
    code: "api_timeout",
    reason: "Claude/API request timed out",
    patterns: [/(api request timed out|request timed out|read timed out)/i],
  },
  {
    code: "runner_timeout",
    reason: "Runner timed out before a complete result",
    patterns: [/(timeout after|timed out after|subprocess.*timeout)/i],
  },
  {
    code: "container_failure",
    reason: "Docker/container failed before evaluation completed",
    patterns: [
      /docker daemon not running/i,
      /docker [^\n]{0,80}(not available|failed|image build failed)/i,
      /docker build[^\n]{0,80}failed/i,
      /container (?:failed|crashed|did not start)/i,
      /container build[^\n]{0,80}failed/i,
      /build image[^\n]{0,80}failed/i,
      /image build[^\n]{0,80}failed/i,
      /mount[^\n]{0,80}failed/i,
    ],
  },
  {
    code: "auth_failure",
    reason: "Authentication failed before evaluation completed",
    patterns: [/(authentication|unauthorized|invalid api key|api key|auth token)/i],
  },
  {
    code: "network_failure",
    reason: "Network failure interrupted evaluation",
    patterns: [
      // econnrefused and socket hang up are additions to the original list (docs/statistics.md §8).
      /(dns|tls|connection reset|connection refused|gateway timeout|econnreset|etimedout|econnrefused|socket hang up)/i,
    ],
  },
];

/** Extra words that, in stderr or failed checks of a run WITH a result, raise a soft flag. */
export const OUTER_FAILURE_RE =
  /(api timeout|timeout|rate[_ -]?limit|quota|network|dns|tls|docker|container|auth)/i;

/** Failed-check / stderr words that, with a `task` attribution, suggest a validator assumption broke. */
export const VALIDATOR_ASSUMPTION_RE =
  /(validator|artifact path|task directory|not found in archive)/i;

export interface NoiseMatch {
  rule: HardNoiseRule;
  /** The line of text that matched, trimmed and cut to 200 characters. */
  line: string;
}

/** The line containing index `at` of `text`, trimmed and cut to 200 characters. */
function lineAt(text: string, at: number): string {
  const start = text.lastIndexOf("\n", at - 1) + 1;
  const endNl = text.indexOf("\n", at);
  const end = endNl === -1 ? text.length : endNl;
  return text.slice(start, end).trim().slice(0, 200);
}

/** First line of `text` that `re` matches (trimmed, <= 200 chars), or null. */
export function matchLine(re: RegExp, text: string): string | null {
  const m = re.exec(text);
  return m ? lineAt(text, m.index) : null;
}

/** The first hard-noise rule (in order) with a pattern matching `text`, or null. */
export function matchHardNoise(
  text: string,
  skip: readonly HardNoiseCode[] = [],
): NoiseMatch | null {
  for (const rule of HARD_NOISE_RULES) {
    if (skip.includes(rule.code)) continue;
    for (const re of rule.patterns) {
      const line = matchLine(re, text);
      if (line !== null) return { rule, line };
    }
  }
  return null;
}
