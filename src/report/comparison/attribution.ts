import type { RunDigest } from "../../core/digest.js";
import { groupBy } from "../group.js";
import {
  ATTRIBUTION_BUCKETS,
  type AttributionBucket,
  type AttributionItem,
  type AttributionTreatment,
} from "./types.js";

/** Identical items collapse into one with a count ("x<count> <item>" in the markdown), first-seen order kept. */
export function collapseItems(texts: string[]): AttributionItem[] {
  const byText = new Map<string, AttributionItem>();
  for (const text of texts) {
    const hit = byText.get(text);
    if (hit) hit.count++;
    else byText.set(text, { text, count: 1 });
  }
  return [...byText.values()];
}

interface Entry {
  bucket: AttributionBucket;
  text: string;
}

/** A run's failures: its structured attribution, or "uncategorized" for failed checks it does not cover. */
function entriesOf(r: RunDigest): Entry[] {
  // Most runs pass: nothing to allocate for them.
  if (r.failure_attribution.length === 0 && r.checks_failed.length === 0) return [];
  const out: Entry[] = r.failure_attribution.map((a) => ({
    bucket: a.bucket,
    text: `${a.check} -> [${a.bucket}] ${a.reason}`,
  }));
  const covered = new Set(r.failure_attribution.map((a) => a.check));
  for (const c of r.checks_failed)
    if (!covered.has(c))
      out.push({
        bucket: "uncategorized",
        text: `${c} -> [uncategorized] no attribution recorded`,
      });
  return out;
}

/** Failure attribution per treatment and bucket (every bucket, model included), over the given runs. */
export function attributionSection(
  runs: RunDigest[],
  treatments: string[],
): AttributionTreatment[] {
  const byTreatment = groupBy(runs, (r) => r.treatment);
  return treatments.map((treatment) => {
    // The texts of each bucket, in run order (one pass over the treatment's runs).
    const texts = new Map<AttributionBucket, string[]>();
    let failures = 0;
    for (const r of byTreatment.get(treatment) ?? [])
      for (const e of entriesOf(r)) {
        failures++;
        const t = texts.get(e.bucket);
        if (t) t.push(e.text);
        else texts.set(e.bucket, [e.text]);
      }
    const buckets = ATTRIBUTION_BUCKETS.flatMap((bucket) => {
      const t = texts.get(bucket) ?? [];
      return t.length > 0 ? [{ bucket, count: t.length, items: collapseItems(t) }] : [];
    });
    return { treatment, failures, buckets };
  });
}
