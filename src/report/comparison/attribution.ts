import type { RunDigest } from "../../core/digest.js";
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
  return treatments.map((treatment) => {
    const entries = runs.filter((r) => r.treatment === treatment).flatMap(entriesOf);
    const buckets = ATTRIBUTION_BUCKETS.map((bucket) => {
      const texts = entries.filter((e) => e.bucket === bucket).map((e) => e.text);
      return { bucket, count: texts.length, items: collapseItems(texts) };
    }).filter((b) => b.count > 0);
    return { treatment, failures: entries.length, buckets };
  });
}
