import type { RunDigest } from "../../core/digest.js";
import { groupBy } from "../../plan/group.js";
import { ATTRIBUTION_BUCKETS, type AttributionItem, type AttributionTreatment } from "./types.js";

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

/** One bucket's items: by text (first-seen order), and by (check, reason), each text built once. */
interface BucketItems {
  count: number;
  byText: Map<string, AttributionItem>;
  byParts: Map<string, Map<string, AttributionItem>>;
}

/** The item of `${check} -> [${bucket}] ${reason}`, counted once more (as collapseItems counts texts). */
function countItem(b: BucketItems, bucket: string, check: string, reason: string): void {
  let byReason = b.byParts.get(check);
  if (!byReason) b.byParts.set(check, (byReason = new Map<string, AttributionItem>()));
  let item = byReason.get(reason);
  if (!item) {
    const text = `${check} -> [${bucket}] ${reason}`;
    item = b.byText.get(text);
    if (!item) b.byText.set(text, (item = { text, count: 0 }));
    byReason.set(reason, item);
  }
  item.count++;
  b.count++;
}

/**
 * Failure attribution per treatment and bucket (every bucket, model included), over the given
 * runs. A run's failures are its structured attribution, then "uncategorized" for each failed
 * check it does not cover; identical texts collapse into one item with a count (collapseItems),
 * first-seen order kept.
 */
export function attributionSection(
  runs: RunDigest[],
  treatments: string[],
): AttributionTreatment[] {
  const byTreatment = groupBy(runs, (r) => r.treatment);
  return treatments.map((treatment) => {
    const buckets = new Map<string, BucketItems>();
    const itemsOf = (bucket: string): BucketItems => {
      let b = buckets.get(bucket);
      if (!b) buckets.set(bucket, (b = { count: 0, byText: new Map(), byParts: new Map() }));
      return b;
    };
    let failures = 0;
    for (const r of byTreatment.get(treatment) ?? []) {
      // Most runs pass: nothing to do for them.
      if (r.failure_attribution.length === 0 && r.checks_failed.length === 0) continue;
      for (const a of r.failure_attribution)
        countItem(itemsOf(a.bucket), a.bucket, a.check, a.reason);
      failures += r.failure_attribution.length;
      const covered = new Set(r.failure_attribution.map((a) => a.check));
      for (const c of r.checks_failed)
        if (!covered.has(c)) {
          countItem(itemsOf("uncategorized"), "uncategorized", c, "no attribution recorded");
          failures++;
        }
    }
    return {
      treatment,
      failures,
      buckets: ATTRIBUTION_BUCKETS.flatMap((bucket) => {
        const b = buckets.get(bucket);
        return b && b.count > 0 ? [{ bucket, count: b.count, items: [...b.byText.values()] }] : [];
      }),
    };
  });
}
