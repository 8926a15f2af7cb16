/** The one bounded pool: runs (runner) and stored-result reads (store, viewer) go through it. */

/**
 * Run `work` over `items` with at most `limit` at once. Stops taking new items
 * once `stop` is aborted; items never started are reported as skipped.
 * `work` should not throw (a run records its own failures); if it does, the error
 * is passed to onError and the pool goes on.
 */
export async function runPool<T>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<void>,
  opts: { stop?: AbortSignal; onError?: (item: T, e: unknown) => void } = {},
): Promise<{ started: number; skipped: T[] }> {
  let next = 0;
  let started = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length && !opts.stop?.aborted) {
      const i = next++;
      const item = items[i] as T;
      started++;
      try {
        await work(item, i);
      } catch (e) {
        opts.onError?.(item, e);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return { started, skipped: items.slice(next) };
}

/**
 * Run `fn` over `items` with at most `limit` calls in flight; results in input order.
 * The first error rejects the whole map (after the calls in flight have settled).
 */
export async function mapPool<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  const stop = new AbortController();
  const failure: { error?: unknown; failed: boolean } = { failed: false };
  await runPool(
    items,
    limit,
    async (item, i) => {
      out[i] = await fn(item, i);
    },
    {
      stop: stop.signal,
      onError: (_item, e) => {
        if (!failure.failed) Object.assign(failure, { error: e, failed: true });
        stop.abort();
      },
    },
  );
  if (failure.failed) throw failure.error;
  return out;
}
