/**
 * The distribution of a series' prices over its providers (docs/methodology.md, Confidence and
 * distribution), beside its medians (series-medians.ts): for the valid rates (selection 0) and the
 * valid rates at a filter's shared providers (selection 2), per state, p10, p25, p75 and p90 of the
 * provider medians (each provider once, by DuckDB's `median` of its distinct valid rows of the
 * series) and whether any of those rows is `derived`, without expanding the rows to one per NPI:
 * - a provider found in one group only has exactly its group's distinct rows, so the group's median
 *   stands for its single providers of each state (the Membership's weights);
 * - a provider of several groups (a pid) has its own median, over the distinct (vid, v) rows it is
 *   reached by through any of its groups.
 * SeriesMedians' pass 1 meets each group and pid with valid rows, counts them and keeps the
 * lowest few (the median of nearly all is known then, settle()); its pass 2, in value order, hands
 * over the middle rows of the others (middle()), so no row is sorted. The medians are then sorted (nearly in order
 * already) and each key's quantiles read at the positions of DuckDB's `quantile_cont` over the
 * weighted multiset: the value at 0-based position k is the first median, ascending, whose running
 * weight passes k; p10 and p25 walking up, p75 and p90 walking down.
 */
import type { MedianSink } from './market-bands';
import { SHARED_SELECTION, type Membership, type SharedFilter } from './series-rows';
import { sortByValue } from './sort-by-value';

/** The quantiles of a distribution, in the order of EmitStat's p10, p25, p75, p90. */
const QUANTILES = [0.1, 0.25, 0.75, 0.9] as const;

/** Positions of the multiset read per key: each quantile's floor((N - 1) q) and the next one. */
const POSITIONS = 2 * QUANTILES.length;

/** The positions of p10 and p25, read walking up; those of p75 and p90 walking down. */
const HALF = POSITIONS / 2;

/** The selections with a distribution, as a mask of cs (series-medians.ts): 0 the valid rates, 2 those at a filter's providers. */
export const DISTRIBUTION_MASK = 0b101;

/** The bit of selection 2 in DISTRIBUTION_MASK. */
const SHARED_BIT = 1 << SHARED_SELECTION;

/** Integers per pid in `pids`: the series that last met it, its index among those met, its valid rows pass 2 has to rank yet. */
const PID_FIELDS = 3;

/**
 * The lowest valid values of a group or pid that pass 1 keeps: its median is known from them up to
 * 2 EARLY - 1 rows (all but 0.1 % of the benchmark file's groups), so that pass 2 ranks the rows of
 * the few others only and stops about where the series' own medians are found, not near its end.
 */
const EARLY = 4;

/**
 * DuckDB's `quantile_cont` between neighbours `lo` and `hi` at fraction `d` of the way: DuckDB 1.5's
 * InterpolateOperator for DOUBLE, lo (1 - d) + hi d (the form lo + d (hi - lo) differs in the last
 * bit for a few % of prices in cents). `median` is the same at d = 0.5.
 */
export function interpolate(lo: number, hi: number, d: number): number {
  return lo * (1 - d) + hi * d;
}

/** Groups and pids a series meets that the arrays of a SeriesDistribution hold at first: they grow with the largest series. */
const FIRST_CAPACITY = 1024;

/**
 * The provider medians of one series at a time and their quantiles, for SeriesMedians (not
 * re-entrant). Its arrays hold the keys, the pids, and the groups and pids the largest series so far
 * met (each at most once a series, so never more than the Membership's).
 */
export class SeriesDistribution {
  /** Per key (series-medians.ts): 1 when a valid `derived` row enters it; SeriesMedians' pass 1 writes it. */
  readonly derived: Uint8Array;
  /** Per key, its p10, p25, p75, p90 from finish() (NaN for a selection without a distribution). */
  readonly quantiles: Float64Array;
  /** Groups and pids of 2 EARLY valid rows or more whose median pass 2 has not met yet. */
  left = 0;
  private readonly m: Membership;
  /** Per pid its state (0 none), from the Membership's shared entries. */
  private readonly pidSt: Int32Array;
  /** Per pid, PID_FIELDS integers. */
  private readonly pids: Int32Array;
  /**
   * The groups and pids with valid rows, in the order pass 1 meets them (ascending first value):
   * a gid or ~pid, its EARLY lowest values (`early`, EARLY a group), its valid rows and, of more,
   * its lower middle value (pass 2), in dense arrays that a row of the group reaches through its
   * record (arrays per gid would be a cache miss each, and as large as the Membership).
   */
  private met: Int32Array;
  private early: Float64Array;
  rows: Int32Array;
  private lower: Float64Array;
  private metCount = 0;
  /**
   * The medians of the series and whose they are (a gid, or ~pid): from the back (value.length - 1
   * down) those of one row, in ascending order (that of `met`); from the front the others, in the
   * order found (nearly ascending: of fewer than 2 EARLY rows in the order of their first value,
   * then of more in the order of their upper middle value, which the median is at or below), sorted
   * by finish().
   */
  private value: Float64Array;
  private owner: Int32Array;
  private ones = 0;
  private others = 0;
  /** Scratch of the sort of the others. */
  private scratchValue: Float64Array;
  private scratchOwner: Int32Array;
  /**
   * Per key: its POSITIONS positions, each half in ascending order (f10 + 1 may pass f25), the upper
   * half's counted from the top; the slot of each (2 j for quantile j's floor, 2 j + 1 for the
   * next) and the medians at them by slot; per key and half (2 key + 0 up, + 1 down), the running
   * weight and the next position to reach.
   */
  private readonly cum: Float64Array;
  private readonly next: Int32Array;
  private readonly pos: Float64Array;
  private readonly slot: Int32Array;
  private readonly at: Float64Array;
  private stamp = 0;

  /** `keys`: SeriesMedians' keys (selections x states). @throws RangeError when the arrays cannot be allocated. */
  constructor(m: Membership, keys: number) {
    this.m = m;
    this.derived = new Uint8Array(keys);
    this.quantiles = new Float64Array(keys * QUANTILES.length);
    this.pidSt = new Int32Array(m.pidCount);
    for (let k = 0; k < m.sharedPid.length; k++) this.pidSt[m.sharedPid[k]!] = m.sharedSt[k]!;
    this.pids = new Int32Array(PID_FIELDS * m.pidCount);
    const n = Math.min(FIRST_CAPACITY, m.weightStart.length - 1 + m.pidCount);
    this.met = new Int32Array(n);
    this.early = new Float64Array(EARLY * n);
    this.rows = new Int32Array(n);
    this.lower = new Float64Array(n);
    this.value = new Float64Array(n);
    this.owner = new Int32Array(n);
    this.scratchValue = new Float64Array(n);
    this.scratchOwner = new Int32Array(n);
    this.cum = new Float64Array(2 * keys);
    this.next = new Int32Array(2 * keys);
    this.pos = new Float64Array(keys * POSITIONS);
    this.slot = new Int32Array(keys * POSITIONS);
    this.at = new Float64Array(keys * POSITIONS);
  }

  /** Starts a series. */
  begin(): void {
    this.stamp++;
    this.left = 0;
    this.metCount = 0;
    this.ones = 0;
    this.others = 0;
  }

  /** Pass 1: the first valid row, of value `v`, of group `who` or pid ~`who`; returns its index among those met. */
  meet(who: number, v: number): number {
    if (this.metCount === this.met.length) this.grow();
    const t = this.metCount++;
    this.met[t] = who;
    this.early[EARLY * t] = v;
    this.rows[t] = 1;
    return t;
  }

  /** Pass 1: another valid row, of value `v`, of the group or pid met `t`-th. */
  again(t: number, v: number): void {
    const c = this.rows[t]! + 1;
    this.rows[t] = c;
    if (c <= EARLY) this.early[EARLY * t + c - 1] = v;
  }

  /** Pass 1: a valid row of pid `p`, of value `v`. */
  countPid(p: number, v: number): void {
    const { pids } = this;
    const at = PID_FIELDS * p;
    if (pids[at] !== this.stamp) {
      pids[at] = this.stamp;
      pids[at + 1] = this.meet(~p, v);
      pids[at + 2] = 0;
    } else this.again(pids[at + 1]!, v);
  }

  /**
   * Between the passes: the medians of the groups and pids of fewer than 2 EARLY valid rows, from
   * their lowest values; those of more rows are left to pass 2, which counts them down from their
   * rows (in `groups`, SeriesMedians' group records of `stride` integers, the rows left at `leftAt`).
   */
  settle(groups: Int32Array, stride: number, leftAt: number): void {
    const { met, pids, early, rows, value, owner } = this;
    const end = value.length;
    for (let t = 0; t < this.metCount; t++) {
      const who = met[t]!;
      const c = rows[t]!;
      if (c === 1) {
        value[end - ++this.ones] = early[EARLY * t]!;
        owner[end - this.ones] = who;
      } else if (c < 2 * EARLY) {
        // DuckDB's median: the middle value, or the two middle ones interpolated half way
        const lo = early[EARLY * t + ((c - 1) >> 1)]!;
        value[this.others] = (c & 1) === 1 ? lo : interpolate(lo, early[EARLY * t + (c >> 1)]!, 0.5);
        owner[this.others++] = who;
      } else {
        if (who >= 0) groups[stride * who + leftAt] = c;
        else pids[PID_FIELDS * ~who + 2] = c;
        this.left++;
      }
    }
  }

  /** Pass 2: the next valid row of pid `p`, of value `v`. */
  rankPid(p: number, v: number): void {
    const at = PID_FIELDS * p;
    const { pids } = this;
    const left = pids[at + 2]!;
    if (left === 0) return;
    const t = pids[at + 1]!;
    const c = this.rows[t]!;
    const r = c - left;
    pids[at + 2] = left - 1;
    if (r >= (c - 1) >> 1 && r <= c >> 1) this.middle(t, r, c, v);
  }

  /**
   * Pass 2: row `r` (0-based, in value order) of value `v` of the `c` valid rows of the group or pid
   * met `t`-th, one of its middle rows (r between (c - 1) >> 1 and c >> 1).
   */
  middle(t: number, r: number, c: number, v: number): void {
    if (r === (c - 1) >> 1) this.lower[t] = v;
    if (r !== c >> 1) return;
    // DuckDB's median: the middle value, or the two middle ones interpolated half way
    this.value[this.others] = (c & 1) === 1 ? v : interpolate(this.lower[t]!, v, 0.5);
    this.owner[this.others++] = this.met[t]!;
    this.left--;
  }

  /**
   * Computes `quantiles` of the keys `touched[0 .. count - 1]` of the selections of DISTRIBUTION_MASK
   * in `enabled` from the medians found, each key of `providers[key]` medians (the single providers
   * of the groups and the pids: those SeriesMedians counted); `filter`: selection 2's.
   */
  finish(touched: Int32Array, count: number, providers: Float64Array, enabled: number, filter: SharedFilter | null): void {
    const s = this.m.stateCount;
    const { cum, next, pos, slot, quantiles, derived, at } = this;
    let keys = 0;
    for (let t = 0; t < count; t++) {
      const k = touched[t]!;
      if (((1 << Math.floor(k / s)) & DISTRIBUTION_MASK) === 0) {
        quantiles.fill(NaN, QUANTILES.length * k, QUANTILES.length * (k + 1));
        derived[k] = 0;
        continue;
      }
      const n = providers[k]!;
      const base = POSITIONS * k;
      for (let i = 0; i < POSITIONS; i++) {
        const f = Math.floor((n - 1) * QUANTILES[i >> 1]!);
        const bottom = (i & 1) === 0 ? f : Math.min(f + 1, n - 1);
        // the upper half's positions counted from the top
        const p = i < HALF ? bottom : n - 1 - bottom;
        // insertion into the half's ascending positions so far
        let j = i;
        for (; j > (i < HALF ? 0 : HALF) && pos[base + j - 1]! > p; j--) {
          pos[base + j] = pos[base + j - 1]!;
          slot[base + j] = slot[base + j - 1]!;
        }
        pos[base + j] = p;
        slot[base + j] = i;
      }
      cum[2 * k] = cum[2 * k + 1] = 0;
      next[2 * k] = 0;
      next[2 * k + 1] = HALF;
      keys++;
    }
    if (keys === 0) return;
    sortByValue(this.value, this.owner, 0, this.others, this.scratchValue, this.scratchOwner);
    const market = (enabled & 1) !== 0;
    const atShared = (enabled & SHARED_BIT) !== 0 ? filter : null;
    this.walk(true, keys, market, atShared);
    this.walk(false, keys, market, atShared);
    for (let t = 0; t < count; t++) {
      const k = touched[t]!;
      if (((1 << Math.floor(k / s)) & DISTRIBUTION_MASK) === 0) continue;
      const n = providers[k]!;
      for (let j = 0; j < QUANTILES.length; j++) {
        // DuckDB's QuantileInterpolator: RN = (N - 1) q, the values at its floor and ceiling
        const h = (n - 1) * QUANTILES[j]!;
        const f = Math.floor(h);
        const lo = at[POSITIONS * k + 2 * j]!;
        quantiles[QUANTILES.length * k + j] = h === f ? lo : interpolate(lo, at[POSITIONS * k + 2 * j + 1]!, h - f);
      }
    }
  }

  /**
   * Hands the provider medians of the series last finished to `sink`, each with its weight per
   * state as the market (selection 0) counts it: a group's median for its single providers of each
   * state (its weights, st 0 counting all of them), a pid's for itself, at st 0 and at its state;
   * then the states of the market keys among `touched[0 .. count - 1]` that a `derived` row enters.
   * Meaningful after finish() of a series whose selection 0 was computed.
   */
  exportMedians(sink: MedianSink, touched: Int32Array, count: number): void {
    const { value, owner, pidSt } = this;
    const { weightStart, weightSt, weightN } = this.m;
    const hand = (x: number, o: number): void => {
      if (o >= 0) {
        for (let w = weightStart[o]!, end = weightStart[o + 1]!; w < end; w++) sink.median(x, weightSt[w]!, weightN[w]!);
        return;
      }
      sink.median(x, 0, 1);
      const st = pidSt[~o]!;
      if (st > 0) sink.median(x, st, 1);
    };
    for (let i = 0; i < this.others; i++) hand(value[i]!, owner[i]!);
    for (let j = value.length - this.ones; j < value.length; j++) hand(value[j]!, owner[j]!);
    for (let t = 0; t < count; t++) {
      const k = touched[t]!;
      if (k < this.m.stateCount && this.derived[k] === 1) sink.derived(k);
    }
  }

  /**
   * Walks the medians in ascending order (`up`) until each of `keys` keys has the medians at the
   * positions of its lower half, or in descending order until it has those of its upper half:
   * about a quarter of the medians each way, not nine tenths of them. The ascending order merges
   * the others (0 up) and those of one row (from the end down), `market`: selection 0 is computed,
   * `atShared`: selection 2's filter when it is.
   */
  private walk(up: boolean, keys: number, market: boolean, atShared: SharedFilter | null): void {
    const { value, owner, pidSt } = this;
    const { weightStart, weightSt, weightN } = this.m;
    const s2 = SHARED_SELECTION * this.m.stateCount;
    const half = up ? 0 : 1;
    const others = this.others;
    const ones = value.length - this.ones;
    let open = keys;
    for (let i = up ? 0 : others - 1, j = up ? value.length - 1 : ones; open > 0;) {
      const hasOther = up ? i < others : i >= 0;
      const hasOne = up ? j >= ones : j < value.length;
      if (!hasOther && !hasOne) break;
      let e: number;
      if (hasOther && (!hasOne || (up ? value[i]! <= value[j]! : value[i]! >= value[j]!))) e = up ? i++ : i--;
      else e = up ? j-- : j++;
      const x = value[e]!;
      const o = owner[e]!;
      if (o >= 0) {
        for (let w = weightStart[o]!, end = weightStart[o + 1]!; w < end; w++) open -= this.step(weightSt[w]!, weightN[w]!, x, half);
        continue;
      }
      const p = ~o;
      const st = pidSt[p]!;
      if (market) {
        open -= this.step(0, 1, x, half);
        if (st > 0) open -= this.step(st, 1, x, half);
      }
      if (atShared !== null && atShared.stamp[p] === atShared.id) {
        open -= this.step(s2, 1, x, half);
        if (st > 0) open -= this.step(s2 + st, 1, x, half);
      }
    }
  }

  /** Adds median `x` of weight `w` at key `k` in the walk of half `half` (0 up, 1 down); 1 when that completes the half's positions, else 0. */
  private step(k: number, w: number, x: number, half: number): number {
    const h = 2 * k + half;
    const end = HALF * (half + 1);
    let j = this.next[h]!;
    if (j === end) return 0;
    const c = (this.cum[h] = this.cum[h]! + w);
    const base = POSITIONS * k;
    while (j < end && c > this.pos[base + j]!) this.at[base + this.slot[base + j++]!] = x;
    this.next[h] = j;
    return j === end ? 1 : 0;
  }

  /** Doubles the arrays of the groups and pids met and of their medians. */
  private grow(): void {
    const n = 2 * this.met.length;
    const more = <T extends Int32Array | Float64Array>(a: T, make: (n: number) => T): T => {
      const b = make(n);
      b.set(a);
      return b;
    };
    const ints = (k: number): Int32Array => new Int32Array(k);
    const doubles = (k: number): Float64Array => new Float64Array(k);
    this.met = more(this.met, ints);
    const early = doubles(EARLY * n);
    early.set(this.early);
    this.early = early;
    this.rows = more(this.rows, ints);
    this.lower = more(this.lower, doubles);
    // the medians are written from settle() on, after every group and pid is met
    this.value = doubles(n);
    this.owner = ints(n);
    this.scratchValue = doubles(n);
    this.scratchOwner = ints(n);
  }
}
