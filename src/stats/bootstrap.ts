/**
 * Two-stage (cluster) percentile bootstrap over per-task outcomes. Pure and
 * deterministic: the same data, statistic, seed and B give the same interval.
 *
 * One replicate: draw T tasks with replacement from the T tasks; then, inside each
 * drawn task, draw its n runs with replacement from its own n runs; evaluate the
 * statistic on that resampled table. The interval is the (1-level)/2 and
 * (1+level)/2 percentiles (linear interpolation, "type 7") of the replicates.
 * Resampling both stages captures between-task and within-task (run-to-run) noise;
 * it is slightly conservative (wider) compared with resampling tasks only.
 *
 * Fast path: every statistic the reports use (pass@k, pass^k, pooled pass rate) depends
 * only on each task's run and pass counts and says so with a `counts` form
 * (src/stats/task-statistics.ts). For those, a replicate is computed from typed arrays
 * (the runs packed into one byte array, per-task values tabulated once per run count)
 * without allocating anything per replicate. It draws the same random numbers in the
 * same order and adds the same values in the same order as the table-building path, so
 * the seeded results are identical to the last bit (test/unit/stats/bootstrap-fast.test.ts).
 * A statistic without a count form takes the table-building path.
 */
import { mulberry32 } from "./prng.js";
import type { CountForm, PerTaskOutcomes, TaskStatistic } from "./task-statistics.js";
import { assertProbability } from "./validate.js";

export interface BootstrapOptions {
  /** Number of replicates B (default 2000). */
  replicates?: number;
  /** PRNG seed (default 1). */
  seed?: number;
  /** Coverage of the interval (default 0.95). */
  level?: number;
}

export interface BootstrapResult {
  /** The statistic on the observed data (for a paired difference: A minus B). */
  estimate: number;
  low: number;
  high: number;
  level: number;
  replicates: number;
  /** Replicates whose statistic was not null (only these enter the percentiles). */
  valid_replicates: number;
  seed: number;
}

interface Resolved {
  replicates: number;
  seed: number;
  level: number;
}

function resolve(options: BootstrapOptions | undefined): Resolved {
  const replicates = options?.replicates ?? 2000;
  const seed = options?.seed ?? 1;
  const level = options?.level ?? 0.95;
  if (!Number.isInteger(replicates) || replicates < 1) {
    throw new RangeError(`replicates must be a positive integer, got ${replicates}`);
  }
  if (!Number.isInteger(seed)) throw new RangeError(`seed must be an integer, got ${seed}`);
  assertProbability("level", level, true);
  return { replicates, seed, level };
}

/** Quantile of sorted values, linear interpolation between order statistics (type 7). */
export function quantileSorted(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) throw new RangeError("quantile of an empty array");
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.ceil(h);
  const a = sorted[lo] ?? 0;
  const b = sorted[hi] ?? a;
  return a + (h - lo) * (b - a);
}

function resampleRuns(runs: boolean[], rng: () => number): boolean[] {
  const out: boolean[] = new Array<boolean>(runs.length);
  for (let r = 0; r < runs.length; r++) out[r] = runs[Math.floor(rng() * runs.length)] ?? false;
  return out;
}

/**
 * The runs of every task packed into typed arrays: run r of task i passed iff
 * passes[offset[i] + r] is 1; the task has len[i] runs.
 */
interface Packed {
  offset: Int32Array;
  len: Int32Array;
  /** passes of task i in all */
  passed: Int32Array;
  passes: Uint8Array;
}

function pack(perTask: PerTaskOutcomes): Packed {
  const t = perTask.length;
  const offset = new Int32Array(t);
  const len = new Int32Array(t);
  let total = 0;
  for (let i = 0; i < t; i++) {
    offset[i] = total;
    len[i] = perTask[i]?.length ?? 0;
    total += len[i] ?? 0;
  }
  const passes = new Uint8Array(total);
  const passed = new Int32Array(t);
  for (let i = 0; i < t; i++) {
    const runs = perTask[i] ?? [];
    const o = offset[i] ?? 0;
    let c = 0;
    for (let r = 0; r < runs.length; r++) {
      passes[o + r] = runs[r] === true ? 1 : 0;
      c += passes[o + r] ?? 0;
    }
    passed[i] = c;
  }
  return { offset, len, passed, passes };
}

/**
 * The replicates of a count-form statistic's difference between two paired arms: per
 * replicate it draws, for each of the t task slots, a task j and then each arm's len[j] runs
 * of task j with replacement (arm a's first), exactly as the table-building path does;
 * replicate values go to `out`, and the count of those that were not null is returned.
 * The mulberry32 generator (src/stats/prng.ts) is inlined here: same sequence, about
 * twice as fast as calling the closure in this loop.
 */
function pairedReplicates(
  packs: [Packed, Packed],
  accs: [CountAccumulator, CountAccumulator],
  replicates: number,
  seed: number,
  out: Float64Array,
): number {
  const t = packs[0].len.length;
  // One replicate's draws: slot i drew task drawn[i], with drawnPasses[arm * t + i] passes.
  const drawn = new Int32Array(t);
  const drawnPasses = new Int32Array(2 * t);
  let m = 0;
  let state = seed >>> 0;
  for (let b = 0; b < replicates; b++) {
    for (let i = 0; i < t; i++) {
      state = (state + 0x6d2b79f5) >>> 0;
      let x = state;
      x = Math.imul(x ^ (x >>> 15), x | 1);
      x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
      const j = Math.floor((((x ^ (x >>> 14)) >>> 0) / 4294967296) * t);
      drawn[i] = j;
      for (let arm = 0; arm < 2; arm++) {
        const p = packs[arm] as Packed;
        const n = p.len[j] as number;
        const all = p.passed[j] as number;
        let c = 0;
        if (all === 0 || all === n) {
          // Every draw from a task whose runs all failed (or all passed) gives the same
          // count: skip its n numbers (mulberry32's state only adds a constant per draw).
          state = (state + Math.imul(n, 0x6d2b79f5)) >>> 0;
          c = all;
        } else {
          const o = p.offset[j] as number;
          const passes = p.passes;
          for (let r = 0; r < n; r++) {
            state = (state + 0x6d2b79f5) >>> 0;
            let y = state;
            y = Math.imul(y ^ (y >>> 15), y | 1);
            y ^= y + Math.imul(y ^ (y >>> 7), y | 61);
            // Math.floor of a value in [0, n): `| 0` is the same and cheaper
            const k = ((((y ^ (y >>> 14)) >>> 0) / 4294967296) * n) | 0;
            c += passes[o + k] as number;
          }
        }
        drawnPasses[arm * t + i] = c;
      }
    }
    const va = accs[0].replicateValue(drawn, drawnPasses, 0);
    if (va === null) continue;
    const vb = accs[1].replicateValue(drawn, drawnPasses, t);
    if (vb === null) continue;
    out[m++] = va - vb;
  }
  return m;
}

/** One statistic of one arm in sharedReplicates: its accumulator and where its replicates go. */
interface ArmStatistic {
  arm: number;
  acc: CountAccumulator;
  out: Float64Array;
}

/**
 * Most arms one sharedReplicates pass takes when a task has up to `maxRuns` runs: the arms'
 * pass counts are the base-(maxRuns + 1) digits of one sum, exact while it stays below 2^53.
 */
function sharedArms(maxRuns: number): number {
  const base = maxRuns + 1;
  let arms = 1;
  let weight = base;
  while (weight * base <= 2 ** 53) {
    weight *= base;
    arms++;
  }
  return arms;
}

/**
 * The replicates of count-form statistics over several arms (separate bootstraps, not a
 * paired one) whose tasks have the same run counts: for them, the random numbers pick the
 * same task j and the same run indices in every arm (the draws depend on the run counts
 * alone), so one pass over the draws serves every arm, and each arm's statistics get what
 * a pass of their own with the same seed gives. Per arm and
 * statistic, the count of replicates that were not null.
 */
function sharedReplicates(
  packs: Packed[],
  units: ArmStatistic[],
  replicates: number,
  seed: number,
): number[] {
  const p0 = packs[0] as Packed;
  const t = p0.len.length;
  const arms = packs.length;
  const len = p0.len;
  const offset = p0.offset;
  // digits[x] = Σ_a passed(arm a, run x) · base^a: summed over a task's draws, its base-`base`
  // digits are the arms' pass counts (each at most the task's run count, below base).
  let base = 1;
  for (let j = 0; j < t; j++) base = Math.max(base, (len[j] as number) + 1);
  const digits = new Float64Array(arms > 1 ? p0.passes.length : 0);
  for (let a = 0, w = 1; arms > 1 && a < arms; a++, w *= base) {
    const passes = (packs[a] as Packed).passes;
    for (let x = 0; x < passes.length; x++)
      digits[x] = (digits[x] as number) + (passes[x] as number) * w;
  }
  // constant[j]: in every arm, task j's runs all passed or all failed (no draw changes a count)
  const constant = new Uint8Array(t);
  for (let j = 0; j < t; j++) {
    let all = 1;
    for (const p of packs) {
      const c = p.passed[j] as number;
      if (c !== 0 && c !== (len[j] as number)) all = 0;
    }
    constant[j] = all;
  }
  const counts = new Int32Array(arms);
  // One replicate's draws: slot i drew task drawn[i], with drawnPasses[a * t + i] passes in arm a.
  const drawn = new Int32Array(t);
  const drawnPasses = new Int32Array(arms * t);
  const u = units.length;
  const m = new Int32Array(u);
  let state = seed >>> 0;
  for (let b = 0; b < replicates; b++) {
    for (let i = 0; i < t; i++) {
      state = (state + 0x6d2b79f5) >>> 0;
      let x = state;
      x = Math.imul(x ^ (x >>> 15), x | 1);
      x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
      const j = Math.floor((((x ^ (x >>> 14)) >>> 0) / 4294967296) * t);
      const n = len[j] as number;
      if (constant[j] === 1) {
        // skip the n draws (mulberry32's state only adds a constant per draw)
        state = (state + Math.imul(n, 0x6d2b79f5)) >>> 0;
        for (let a = 0; a < arms; a++) counts[a] = (packs[a] as Packed).passed[j] as number;
      } else {
        const o = offset[j] as number;
        if (arms === 1) {
          const passes = p0.passes;
          let c = 0;
          for (let r = 0; r < n; r++) {
            state = (state + 0x6d2b79f5) >>> 0;
            let y = state;
            y = Math.imul(y ^ (y >>> 15), y | 1);
            y ^= y + Math.imul(y ^ (y >>> 7), y | 61);
            c += passes[o + (((((y ^ (y >>> 14)) >>> 0) / 4294967296) * n) | 0)] as number;
          }
          counts[0] = c;
        } else {
          let sum = 0;
          for (let r = 0; r < n; r++) {
            state = (state + 0x6d2b79f5) >>> 0;
            let y = state;
            y = Math.imul(y ^ (y >>> 15), y | 1);
            y ^= y + Math.imul(y ^ (y >>> 7), y | 61);
            sum += digits[o + (((((y ^ (y >>> 14)) >>> 0) / 4294967296) * n) | 0)] as number;
          }
          for (let a = 0; a < arms; a++) {
            const c = sum % base;
            counts[a] = c;
            sum = (sum - c) / base;
          }
        }
      }
      drawn[i] = j;
      for (let a = 0; a < arms; a++) drawnPasses[a * t + i] = counts[a] as number;
    }
    for (let x = 0; x < u; x++) {
      const unit = units[x] as ArmStatistic;
      const v = unit.acc.replicateValue(drawn, drawnPasses, unit.arm * t);
      if (v === null) continue;
      const at = m[x] as number;
      unit.out[at] = v;
      m[x] = at + 1;
    }
  }
  return Array.from(m);
}

/** How many paired intervals are remembered per statistic. */
const PAIRED_MEMO_SIZE = 16;
const pairedMemo = new WeakMap<TaskStatistic, Map<string, BootstrapResult | null>>();

/** The packed outcomes as a string: equal strings, equal data (run counts, then pass bits). */
function fingerprint(p: Packed): string {
  let s = `${p.len.join(",")};`;
  const passes = p.passes;
  for (let i = 0; i < passes.length; i += 4096)
    s += String.fromCharCode(...passes.subarray(i, Math.min(i + 4096, passes.length)));
  return s;
}

/**
 * A count-form statistic over one replicate's draws (the task and pass count of each
 * slot, in typed arrays), with no allocation: the per-task values are tabulated once per run
 * count, and it adds exactly the terms the table form adds, in the same order, so the
 * floating-point result is the same.
 */
class CountAccumulator {
  /** macro: the per-task value of task j with c passes is table[base[j] + c]; base -1: left out; NaN: null. */
  private readonly base: Int32Array;
  private readonly table: Float64Array;

  constructor(
    private readonly form: CountForm,
    private readonly p: Packed,
  ) {
    const t = p.len.length;
    this.base = new Int32Array(t).fill(-1);
    if (form.kind === "pooled") {
      this.table = new Float64Array(0);
      return;
    }
    // One row of n + 1 values per distinct run count n (tasks with the same n share it).
    const rowOf = new Map<number, number>();
    let size = 0;
    for (let i = 0; i < t; i++) {
      const n = p.len[i] ?? 0;
      if (n < form.minRuns || rowOf.has(n)) continue;
      rowOf.set(n, size);
      size += n + 1;
    }
    this.table = new Float64Array(size);
    for (const [n, at] of rowOf) {
      for (let c = 0; c <= n; c++) this.table[at + c] = form.perTask(n, c) ?? Number.NaN;
    }
    for (let i = 0; i < t; i++) this.base[i] = rowOf.get(p.len[i] ?? 0) ?? -1;
  }

  /**
   * The statistic on one replicate: slot i drew task drawn[i] with passes[at + i] passes; the
   * per-task terms are added in slot order, as the table form adds them.
   */
  replicateValue(drawn: Int32Array, passes: Int32Array, at: number): number | null {
    const t = drawn.length;
    let sum = 0;
    let weight = 0;
    if (this.form.kind === "pooled") {
      const len = this.p.len;
      for (let i = 0; i < t; i++) {
        sum += passes[at + i] as number;
        weight += len[drawn[i] as number] as number;
      }
    } else {
      const base = this.base;
      const table = this.table;
      for (let i = 0; i < t; i++) {
        const b = base[drawn[i] as number] as number;
        if (b < 0) continue;
        const v = table[b + (passes[at + i] as number)] as number;
        if (Number.isNaN(v)) continue;
        sum += v;
        weight += 1;
      }
    }
    return weight === 0 ? null : sum / weight;
  }
}

function finish(
  estimate: number | null,
  values: number[] | Float64Array,
  o: Resolved,
): BootstrapResult | null {
  if (estimate === null || values.length === 0) return null;
  // Numeric ascending either way (no NaN or -0 can occur among the replicates).
  if (values instanceof Float64Array) values.sort();
  else values.sort((x, y) => x - y);
  return {
    estimate,
    low: quantileSorted(values, (1 - o.level) / 2),
    high: quantileSorted(values, (1 + o.level) / 2),
    level: o.level,
    replicates: o.replicates,
    valid_replicates: values.length,
    seed: o.seed,
  };
}

/**
 * Percentile bootstrap interval for `statistic` over one treatment's per-task outcomes
 * (e.g. `macroPassAtK(2)`, `macroPassHatK(2)`, `pooledPassRate`). Returns null when
 * the statistic is null on the observed data (e.g. no task has k runs) or on every
 * replicate.
 */
export function bootstrapInterval(
  perTask: PerTaskOutcomes,
  statistic: TaskStatistic,
  options?: BootstrapOptions,
): BootstrapResult | null {
  return bootstrapIntervals(perTask, [statistic], options)[0] ?? null;
}

/**
 * bootstrapInterval of several statistics over the same outcomes and options, in order.
 * Each result is exactly what bootstrapInterval gives for that statistic alone; the
 * count-form statistics share one pass over the random draws (the draws do not depend on
 * the statistic), so k statistics cost about one.
 */
export function bootstrapIntervals(
  perTask: PerTaskOutcomes,
  statistics: readonly TaskStatistic[],
  options?: BootstrapOptions,
): Array<BootstrapResult | null> {
  return bootstrapIntervalsOfArms([perTask], statistics, options)[0] ?? [];
}

/** Run counts per task as a string: arms with equal keys draw the same numbers. */
function layoutKey(p: Packed): string {
  return p.len.join(",");
}

/**
 * bootstrapIntervals of each arm (separate intervals, e.g. one per treatment; not a paired
 * difference), in order: `result[arm][s]` is exactly bootstrapIntervals(perTasks[arm],
 * statistics, options)[s]. Arms whose tasks have the same run counts share one pass over
 * the random draws (they draw the same numbers), so a treatment costs about one arm, not
 * one each.
 */
export function bootstrapIntervalsOfArms(
  perTasks: readonly PerTaskOutcomes[],
  statistics: readonly TaskStatistic[],
  options?: BootstrapOptions,
): Array<Array<BootstrapResult | null>> {
  const o = resolve(options);
  const results = perTasks.map(() =>
    new Array<BootstrapResult | null>(statistics.length).fill(null),
  );
  // Per arm: the estimates; the count-form statistics go to the shared passes below.
  const estimates = perTasks.map((perTask) =>
    statistics.map((s) => (perTask.length === 0 ? null : s(perTask))),
  );
  // Arms by run-count layout, at most sharedArms(most runs of a task) in a group.
  const groups = new Map<string, Array<Array<{ arm: number; pack: Packed; fast: number[] }>>>();
  perTasks.forEach((perTask, arm) => {
    const fast: number[] = [];
    statistics.forEach((statistic, i) => {
      const e = estimates[arm]?.[i];
      if (e === null || e === undefined) return;
      if (statistic.counts !== undefined) fast.push(i);
      else
        (results[arm] as Array<BootstrapResult | null>)[i] = tableInterval(
          perTask,
          statistic,
          e,
          o,
        );
    });
    if (fast.length === 0) return;
    const pack_ = pack(perTask);
    const key = layoutKey(pack_);
    let same = groups.get(key);
    if (!same) groups.set(key, (same = []));
    const last = same[same.length - 1];
    if (last && last.length < sharedArms(Math.max(0, ...pack_.len)))
      last.push({ arm, pack: pack_, fast });
    else same.push([{ arm, pack: pack_, fast }]);
  });
  for (const group of [...groups.values()].flat()) {
    const units: Array<ArmStatistic & { stat: number; armIndex: number }> = [];
    group.forEach((g, a) => {
      for (const i of g.fast)
        units.push({
          arm: a,
          armIndex: g.arm,
          stat: i,
          acc: new CountAccumulator((statistics[i] as TaskStatistic).counts as CountForm, g.pack),
          out: new Float64Array(o.replicates),
        });
    });
    const m = sharedReplicates(
      group.map((g) => g.pack),
      units,
      o.replicates,
      o.seed,
    );
    units.forEach((unit, x) => {
      (results[unit.armIndex] as Array<BootstrapResult | null>)[unit.stat] = finish(
        estimates[unit.armIndex]?.[unit.stat] ?? null,
        unit.out.subarray(0, m[x]),
        o,
      );
    });
  }
  return results;
}

/** The table-building path of bootstrapInterval (a statistic without a count form). */
function tableInterval(
  perTask: PerTaskOutcomes,
  statistic: TaskStatistic,
  estimate: number,
  o: Resolved,
): BootstrapResult | null {
  const rng = mulberry32(o.seed);
  const t = perTask.length;
  const values: number[] = [];
  for (let b = 0; b < o.replicates; b++) {
    const sample: PerTaskOutcomes = new Array<boolean[]>(t);
    for (let i = 0; i < t; i++) sample[i] = resampleRuns(perTask[Math.floor(rng() * t)] ?? [], rng);
    const v = statistic(sample);
    if (v !== null) values.push(v);
  }
  return finish(estimate, values, o);
}

/**
 * Paired-by-task bootstrap interval for statistic(A) - statistic(B), where a[i] and
 * b[i] are the runs of the SAME task i under two treatments. Each replicate draws one
 * set of task indices used for both arms (keeping the pairing), then resamples runs
 * within each arm of each task independently. An interval that excludes 0 is evidence
 * of a real difference at that level. a and b must have the same number of tasks.
 */
export function bootstrapPairedDifference(
  a: PerTaskOutcomes,
  b: PerTaskOutcomes,
  statistic: TaskStatistic,
  options?: BootstrapOptions,
): BootstrapResult | null {
  if (a.length !== b.length) {
    throw new RangeError(
      `paired bootstrap needs the same tasks in both arms (${a.length} vs ${b.length})`,
    );
  }
  const o = resolve(options);
  const sa = statistic(a);
  const sb = statistic(b);
  if (sa === null || sb === null || a.length === 0) return finish(null, [], o);
  if (statistic.counts !== undefined) {
    const pa = pack(a);
    const pb = pack(b);
    // The reports ask for the same paired interval more than once (the verdict's Δ and the
    // lift's intent-to-treat Δ are the same data): a pure function, so remember the last few.
    const key = `${o.seed}:${o.replicates}:${o.level}:${fingerprint(pa)}/${fingerprint(pb)}`;
    let memo = pairedMemo.get(statistic);
    const hit = memo?.get(key);
    if (hit !== undefined) return hit === null ? null : { ...hit };
    const out = new Float64Array(o.replicates);
    const accs: [CountAccumulator, CountAccumulator] = [
      new CountAccumulator(statistic.counts, pa),
      new CountAccumulator(statistic.counts, pb),
    ];
    const m = pairedReplicates([pa, pb], accs, o.replicates, o.seed, out);
    const result = finish(sa - sb, out.subarray(0, m), o);
    if (!memo) pairedMemo.set(statistic, (memo = new Map<string, BootstrapResult | null>()));
    if (memo.size >= PAIRED_MEMO_SIZE) memo.delete(memo.keys().next().value as string);
    memo.set(key, result === null ? null : { ...result });
    return result;
  }
  const rng = mulberry32(o.seed);
  const t = a.length;
  const values: number[] = [];
  for (let r = 0; r < o.replicates; r++) {
    const ra: PerTaskOutcomes = new Array<boolean[]>(t);
    const rb: PerTaskOutcomes = new Array<boolean[]>(t);
    for (let i = 0; i < t; i++) {
      const j = Math.floor(rng() * t);
      ra[i] = resampleRuns(a[j] ?? [], rng);
      rb[i] = resampleRuns(b[j] ?? [], rng);
    }
    const va = statistic(ra);
    const vb = statistic(rb);
    if (va !== null && vb !== null) values.push(va - vb);
  }
  return finish(sa - sb, values, o);
}
