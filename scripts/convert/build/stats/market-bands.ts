/**
 * The market band of each comparison unit over the comparison's default selection
 * (docs/methodology.md, Confidence and distribution: "p25-p75 of the provider medians of every
 * selected competitor pooled"), for build-price-stats.ts: at each month M, every competitor of the
 * dataset (each insurer but the reference, by its latest snapshot at or before M: docs/methodology.md,
 * Rows that count), over every provider, whole market and per state. The screens ask for it beside
 * every page of prices (workers/api/market-band.ts); stored, it costs a read of `price_stats` rows
 * instead of the page's rate rows joined to their providers.
 *
 * The provider medians come from the loop that computes each series' own distribution
 * (series-distribution.ts): a group's single providers by the group's median with their count per
 * state, a provider of several groups by its own. Those of one billing code are pooled here, per
 * (month, unit, state), and read as DuckDB's `quantile_cont` reads them: the multiset of N medians
 * (a weight n standing for n equal medians), the value at 0-based position k the first median,
 * ascending, whose running weight passes k, interpolated between floor((N - 1) q) and the next.
 */
import { interpolate } from './series-distribution';
import type { CodeSeries, SeriesIndex } from './shared-providers';
import { sortByValue } from './sort-by-value';

/** The quantiles of a band row, in the order of BandStat's arguments: p10, p25, the median, p75, p90. */
const BAND_QUANTILES = [0.1, 0.25, 0.5, 0.75, 0.9] as const;

/**
 * Called once per (month, unit, state) with provider medians: the series key of one of the unit's
 * series (`ps_series * units + unit`, for its billing code and unit), the state `st` (0 the whole
 * market), the month's index, the quantiles of BAND_QUANTILES (USD), the number of provider medians
 * pooled, and whether a valid `derived` row enters them.
 */
export type BandStat = (sid: number, st: number, month: number, q: Float64Array, providers: number, derived: boolean) => void;

/** Where SeriesMedians hands over one series' provider medians (series-medians.ts exportMarket). */
export interface MedianSink {
  /** A median `value` (USD) standing for `weight` providers of state `st` (0: the whole market). */
  median(value: number, st: number, weight: number): void;
  /** A valid `derived` row enters the series' prices in state `st`. */
  derived(st: number): void;
}

/** Pools the provider medians of one billing code's competitor series at a time (not re-entrant). */
export class MarketBands implements MedianSink {
  private readonly index: SeriesIndex;
  private readonly stateCount: number;
  private readonly units: number;
  /** The current code's medians: value (USD), state, weight; series j's are from[j] .. to[j]. */
  private value = new Float64Array(1024);
  private st = new Int32Array(1024);
  private weight = new Float64Array(1024);
  private n = 0;
  private from: number[] = [];
  private to: number[] = [];
  /** Per series of the code, the states (as a set of st) where a derived row enters it. */
  private derivedSt: Array<Set<number> | null> = [];
  private current = -1;
  /** Scratch of a pool: by state, then by value, with the entry each came from. */
  private poolValue = new Float64Array(1024);
  private poolOwner = new Int32Array(1024);
  private scratchValue = new Float64Array(1024);
  private scratchOwner = new Int32Array(1024);
  private readonly stateStart: Int32Array;
  private readonly q = new Float64Array(BAND_QUANTILES.length);
  /** Per quantile: the whole and fractional parts of its position, and the values at the position and the next. */
  private readonly pos = new Float64Array(BAND_QUANTILES.length);
  private readonly frac = new Float64Array(BAND_QUANTILES.length);
  private readonly below = new Float64Array(BAND_QUANTILES.length);
  private readonly above = new Float64Array(BAND_QUANTILES.length);

  /** `stateCount`: states including 0 (the Membership's); `units`: units per billing code (a series key's radix). */
  constructor(index: SeriesIndex, stateCount: number, units: number) {
    this.index = index;
    this.stateCount = stateCount;
    this.units = units;
    this.stateStart = new Int32Array(stateCount + 1);
  }

  /** Starts a billing code. */
  beginCode(): void {
    this.n = 0;
    this.from = [];
    this.to = [];
    this.derivedSt = [];
    this.current = -1;
  }

  /** Whether the code's series of `ps` enters a band: a competitor's (every snapshot is some month's latest). */
  wants(ps: number): boolean {
    return this.index.insurerOf[ps] !== this.index.reference;
  }

  /** The medians handed over next are series `j`'s (its index in the code's list). */
  beginSeries(j: number): void {
    this.current = j;
    this.from[j] = this.n;
    this.to[j] = this.n;
    this.derivedSt[j] = null;
  }

  median(value: number, st: number, weight: number): void {
    if (this.n === this.value.length) this.grow();
    this.value[this.n] = value;
    this.st[this.n] = st;
    this.weight[this.n++] = weight;
    this.to[this.current] = this.n;
  }

  derived(st: number): void {
    (this.derivedSt[this.current] ??= new Set()).add(st);
  }

  /**
   * Emits the bands of the code whose series are `series` (those handed over: beginSeries), month
   * after month, unit after unit, state after state.
   */
  finishCode(series: readonly CodeSeries[], emit: BandStat): void {
    const { insurerOf, snapshotOf, snapshotAt, months } = this.index;
    // per (month, unit), the series handed over whose snapshot is their insurer's latest at that
    // month: a snapshot serves its own month and the following ones until the insurer's next
    const chosen = new Map<number, number[]>();
    series.forEach((s, j) => {
      if (this.from[j] === undefined) return;
      const snapshot = snapshotOf[s.ps]!;
      const latest = snapshotAt[insurerOf[s.ps]!]!;
      for (let month = snapshot; month < months.length && latest[month] === snapshot; month++) {
        const key = month * this.units + s.unit;
        const list = chosen.get(key);
        if (list) list.push(j);
        else chosen.set(key, [j]);
      }
    });
    for (const key of [...chosen.keys()].sort((a, b) => a - b)) {
      const js = chosen.get(key)!;
      this.pool(js, series[js[0]!]!.ps * this.units + (key % this.units), Math.floor(key / this.units), emit);
    }
  }

  /** The bands of the medians of series `chosen` (one unit, one month): sorted by state, then value. */
  private pool(chosen: readonly number[], sid: number, month: number, emit: BandStat): void {
    const s = this.stateCount;
    const start = this.stateStart;
    start.fill(0);
    let total = 0;
    for (const j of chosen) {
      for (let e = this.from[j]!; e < this.to[j]!; e++) start[this.st[e]! + 1]!++;
      total += this.to[j]! - this.from[j]!;
    }
    if (total === 0) return;
    if (total > this.poolValue.length) this.growPool(total);
    for (let k = 0; k < s; k++) start[k + 1] = start[k + 1]! + start[k]!;
    // counting sort by state: `start` ends as each state's end, the previous one's as its start
    for (const j of chosen) {
      for (let e = this.from[j]!; e < this.to[j]!; e++) {
        const at = start[this.st[e]!]!++;
        this.poolValue[at] = this.value[e]!;
        this.poolOwner[at] = e;
      }
    }
    for (let st = 0, lo = 0; st < s; lo = start[st++]!) {
      const hi = start[st]!;
      if (hi === lo) continue;
      sortByValue(this.poolValue, this.poolOwner, lo, hi, this.scratchValue, this.scratchOwner);
      let n = 0;
      for (let i = lo; i < hi; i++) n += this.weight[this.poolOwner[i]!]!;
      this.quantiles(lo, hi, n);
      const derived = chosen.some((j) => this.derivedSt[j]?.has(st) === true);
      emit(sid, st, month, this.q, n, derived);
    }
  }

  /**
   * `q` of the pool's entries lo .. hi (sorted by value) of total weight `n`: DuckDB's quantile_cont
   * of each of BAND_QUANTILES. The positions rise with the quantiles, so two walks of the pool read
   * every value: one at each position, one at the position after it.
   */
  private quantiles(lo: number, hi: number, n: number): void {
    BAND_QUANTILES.forEach((quantile, j) => {
      const h = (n - 1) * quantile;
      this.pos[j] = Math.floor(h);
      this.frac[j] = h - this.pos[j]!;
    });
    this.valuesAt(lo, hi, 0, this.below);
    this.valuesAt(lo, hi, 1, this.above);
    for (let j = 0; j < BAND_QUANTILES.length; j++) {
      this.q[j] = this.frac[j] === 0 ? this.below[j]! : interpolate(this.below[j]!, this.above[j]!, this.frac[j]!);
    }
  }

  /**
   * Into `out[j]`, the value at 0-based position `pos[j] + shift` of the weighted multiset of entries
   * lo .. hi: the first entry whose running weight passes it (the last entry past the end).
   * The positions do not fall, so one walk serves them all.
   */
  private valuesAt(lo: number, hi: number, shift: number, out: Float64Array): void {
    let i = lo;
    let c = this.weight[this.poolOwner[lo]!]!;
    for (let j = 0; j < BAND_QUANTILES.length; j++) {
      const k = this.pos[j]! + shift;
      while (c <= k && i < hi - 1) c += this.weight[this.poolOwner[++i]!]!;
      out[j] = this.poolValue[i]!;
    }
  }

  private grow(): void {
    const n = 2 * this.value.length;
    const value = new Float64Array(n);
    value.set(this.value);
    const st = new Int32Array(n);
    st.set(this.st);
    const weight = new Float64Array(n);
    weight.set(this.weight);
    this.value = value;
    this.st = st;
    this.weight = weight;
  }

  private growPool(total: number): void {
    let n = this.poolValue.length;
    while (n < total) n *= 2;
    this.poolValue = new Float64Array(n);
    this.poolOwner = new Int32Array(n);
    this.scratchValue = new Float64Array(n);
    this.scratchOwner = new Int32Array(n);
  }
}
