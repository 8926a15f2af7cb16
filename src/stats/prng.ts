/**
 * Seeded pseudo-random numbers, so that every resampling result is reproducible. Pure
 * (the state lives in the returned closure).
 */

/** mulberry32: a small 32-bit generator; returns uniform floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * mulberry32's sequence a block at a time: each fill(out) writes the next out.length numbers
 * of mulberry32(seed). For the bootstrap's inner loops, where a small loop of its own is
 * cheaper than a closure call per number.
 */
export function mulberry32Blocks(seed: number): { fill(out: Float64Array): void } {
  let a = seed >>> 0;
  return {
    fill(out: Float64Array): void {
      for (let i = 0; i < out.length; i++) {
        a = (a + 0x6d2b79f5) >>> 0;
        let t = a;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        out[i] = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
      }
    },
  };
}
