/**
 * The bounded pools: stored-result reads (store, viewer) and trigger probes go through runPool and
 * mapPool; the runner's stages (runner/schedule.ts) are bounded with Slots.
 */

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

/**
 * At most `limit` holders at once; those waiting are served in the order they asked. A waiter can
 * give up when its `stop` signal is aborted.
 */
export class Slots {
  private held = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: number) {}

  /** Wait for a slot: true once it is held, false when `stop` was aborted first (none is held). */
  take(stop?: AbortSignal): Promise<boolean> {
    if (stop?.aborted) return Promise.resolve(false);
    if (this.held < this.limit && this.waiting.length === 0) {
      this.held++;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const onAbort = (): void => {
        const i = this.waiting.indexOf(grant);
        if (i >= 0) this.waiting.splice(i, 1);
        resolve(false);
      };
      const grant = (): void => {
        stop?.removeEventListener("abort", onAbort);
        this.held++;
        resolve(true);
      };
      stop?.addEventListener("abort", onAbort, { once: true });
      this.waiting.push(grant);
    });
  }

  /** Give a held slot back: the first in line gets it. */
  give(): void {
    this.held--;
    this.waiting.shift()?.();
  }
}
