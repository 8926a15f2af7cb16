/**
 * Run `work` over `items` with at most `limit` at once. Stops taking new items
 * once `stop` is aborted; items never started are reported as skipped.
 * `work` must not throw (a run records its own failures); if it does, the error
 * is passed to onError and the pool goes on.
 */
export async function runPool<T>(
  items: T[],
  limit: number,
  work: (item: T) => Promise<void>,
  opts: { stop?: AbortSignal; onError?: (item: T, e: unknown) => void } = {},
): Promise<{ started: number; skipped: T[] }> {
  let next = 0;
  let started = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length && !opts.stop?.aborted) {
      const item = items[next++] as T;
      started++;
      try {
        await work(item);
      } catch (e) {
        opts.onError?.(item, e);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return { started, skipped: items.slice(next) };
}
