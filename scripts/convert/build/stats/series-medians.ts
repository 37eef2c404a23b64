/**
 * The loop at the heart of `price_stats` (docs/methodology.md, Rows that count and Per comparison unit):
 * for one series (snapshot, insurer, comparison unit), the weighted median, row count and provider
 * count of its dollar rows per selection and state, from its distinct provider-group rows, without
 * expanding them to one row per NPI (build-price-stats.ts says why the weights give the same
 * multiset). It replaces DuckDB's hash aggregates, sort and window over the expanded weights
 * (~1.2 s of one thread per 750k rate rows on the benchmark file) by two passes over the sorted
 * rows with dense typed arrays.
 *
 * Keys: a selection `cs` (0 the valid rates, 1 every dollar rate: validation off, 2 the valid rates
 * at the providers of a filter: docs/methodology.md, Per comparison unit) and a state `st` (0 the whole
 * market, 1.. the states of `ps_states`) make the key `cs * stateCount + st`. A row's flag `cls`
 * (0 valid, 1 failed validation) enters the selections of SELECTION_MASKS. The same passes find
 * the medians of each group and provider of several groups for the distributions of selections 0
 * and 2 (series-distribution.ts): pass 1 counts their valid rows, pass 2 ranks them in value order.
 */
import { SELECTION_COUNT, SERIES_BLOCK_ROWS, SHARED_SELECTION, type EmitStat, type Membership, type SeriesRows, type SharedFilter } from './series-rows';
import { DISTRIBUTION_MASK, interpolate, SeriesDistribution } from './series-distribution';
import type { MedianSink } from './market-bands';

/** Selections a row of flag `cls` enters, as a bit mask of cs: a valid row all three, a failed one only "validation off". */
const SELECTION_MASKS = [0b111, 0b010] as const;

/**
 * Selections a group's single providers (in no other group) may enter: never the shared one, since
 * a provider of one group belongs to one source, hence one insurer, and is shared with none.
 */
const SINGLE_MASK = 0b011;

/** The fields of a group's record in SeriesMedians' `groups` (GROUP_FIELDS integers per gid). */
const enum GroupField {
  /** Its entries weightStart[gid] .. weightStart[gid + 1] of the Membership. */
  WeightStart = 0,
  WeightEnd = 1,
  /**
   * Its one weight entry's state times 2 (when it has exactly one, of a count of at most 2^31 - 1),
   * plus 1 when it has shared providers (sharedStart[gid] < sharedStart[gid + 1]).
   */
  OnlyStShared = 2,
  /** That weight entry's count; -1 when it has not exactly one. */
  OnlyN = 3,
  /** A stamp per selection its single providers enter (SINGLE_MASK): the series that last counted them. */
  Seen = 4,
  /** Its index among the groups and pids met in the series (series-distribution.ts), and its valid rows pass 2 has to rank yet. */
  Met = 6,
  RowsLeft = 7,
}

/** Integers per group in SeriesMedians' `groups`: GroupField's 4, 2 stamps, Met and RowsLeft: 8 (half a cache line). */
const GROUP_FIELDS = 8;

/** SeriesMedians' per-group records of membership `m` (GroupField), stamps 0. */
function packGroups(m: Membership): Int32Array {
  const count = m.weightStart.length - 1;
  const out = new Int32Array(count * GROUP_FIELDS);
  for (let g = 0; g < count; g++) {
    const at = g * GROUP_FIELDS;
    const w0 = m.weightStart[g]!;
    const w1 = m.weightStart[g + 1]!;
    out[at + GroupField.WeightStart] = w0;
    out[at + GroupField.WeightEnd] = w1;
    const n = w1 - w0 === 1 ? m.weightN[w0]! : -1;
    const one = Number.isInteger(n) && n >= 0 && n < 2 ** 31;
    out[at + GroupField.OnlyStShared] = 2 * (one ? m.weightSt[w0]! : 0) + (m.sharedStart[g + 1]! > m.sharedStart[g]! ? 1 : 0);
    out[at + GroupField.OnlyN] = one ? n : -1;
  }
  return out;
}

/**
 * Computes series after series with the working arrays of one membership (not re-entrant: a
 * series is done in one synchronous call).
 */
export class SeriesMedians {
  private readonly m: Membership;
  private readonly keys: number;
  /** Per key: total weight (pass 1), running weight (pass 2), providers, median values. */
  private readonly total: Float64Array;
  private readonly cum: Float64Array;
  private readonly providers: Float64Array;
  private readonly lo: Float64Array;
  private readonly hi: Float64Array;
  private readonly keyStamp: Int32Array;
  private readonly touched: Int32Array;
  private touchedCount = 0;
  private readonly runStamp: Int32Array;
  private readonly runTouched: Int32Array;
  private runTouchedCount = 0;
  /**
   * Per gid, GROUP_FIELDS integers (GroupField) in one cache line's half: what a row of the group
   * reads and the stamps it writes, where the Membership's arrays and a stamp array per class
   * selection cost a cache miss each (rows come in value order, their groups at random: 1,800
   * series of 5,000 rows in isolation, ~550 ms with 50,000 groups, ~400 ms with 1,000).
   */
  private readonly groups: Int32Array;
  /** Per (cs, pid): the series that last counted it as a provider unit. */
  private readonly seenShared: Int32Array;
  /** Per pid: the run of equal values that last reached it, and by which vid first. */
  private readonly runPid: Int32Array;
  private readonly runPidVid: Int32Array;
  /** (pid, vid) pairs of the current run, for the pids it reaches through several groups. */
  private readonly runPairs = new Set<number>();
  /** The run whose pairs runPairs holds (emptied when another run first needs it). */
  private pairsRun = -1;
  private stamp = 0;
  /** The current series' filter of selection 2, and the selections it computes (a mask of cs). */
  private filter: SharedFilter | null = null;
  private enabled = SINGLE_MASK;
  private run = 0;
  /** Keys of the series whose upper middle value pass 2 has not reached yet (hi NaN). */
  private unresolved = 0;
  /** Pass 2 has found every key's median: it only ranks the rows of the groups and pids (series-distribution.ts). */
  private keysDone = false;
  /** The provider medians and their quantiles. */
  private readonly dist: SeriesDistribution;

  /** @throws RangeError when the arrays cannot be allocated. */
  constructor(m: Membership) {
    this.m = m;
    this.keys = SELECTION_COUNT * m.stateCount;
    this.total = new Float64Array(this.keys);
    this.cum = new Float64Array(this.keys);
    this.providers = new Float64Array(this.keys);
    this.lo = new Float64Array(this.keys);
    this.hi = new Float64Array(this.keys);
    this.keyStamp = new Int32Array(this.keys);
    this.touched = new Int32Array(this.keys);
    this.runStamp = new Int32Array(this.keys);
    this.runTouched = new Int32Array(this.keys);
    this.groups = packGroups(m);
    this.seenShared = new Int32Array(SELECTION_COUNT * m.pidCount);
    this.runPid = new Int32Array(m.pidCount);
    this.runPidVid = new Int32Array(m.pidCount);
    this.dist = new SeriesDistribution(m, this.keys);
  }

  /**
   * Emits the statistics of one series from its group rows `from` .. `to` of `rows` (sorted by v,
   * gid, vid; repeated rows are skipped). The median is the middle value of the weighted multiset,
   * the two middle ones interpolated half way when its size is even (DuckDB's `median`: a 0.5 + b 0.5).
   * Without `filter`, selections 0 and 1; with it, selection 2 too (or alone: `filter.only`).
   * Selections 0 and 2 come with their distribution (series-distribution.ts).
   */
  series(rows: SeriesRows, from: number, to: number, emit: EmitStat, filter: SharedFilter | null = null): void {
    this.stamp++;
    this.touchedCount = 0;
    this.filter = filter;
    this.enabled = filter === null ? SINGLE_MASK : filter.only ? 1 << SHARED_SELECTION : SINGLE_MASK | (1 << SHARED_SELECTION);
    this.dist.begin();
    this.keysDone = false;
    this.pass(rows, from, to, true);
    for (let t = 0; t < this.touchedCount; t++) {
      const k = this.touched[t]!;
      this.cum[k] = 0;
      this.lo[k] = NaN;
      this.hi[k] = NaN;
    }
    this.unresolved = this.touchedCount;
    this.dist.settle(this.groups, GROUP_FIELDS, GroupField.RowsLeft);
    this.pass(rows, from, to, false);
    const { touched, touchedCount, providers, dist, m: { stateCount: s } } = this;
    dist.finish(touched, touchedCount, providers, this.enabled, this.filter);
    const { quantiles: q, derived } = dist;
    for (let t = 0; t < touchedCount; t++) {
      const k = touched[t]!;
      const a = this.lo[k]!;
      emit(Math.floor(k / s), k % s, interpolate(a, this.hi[k]!, 0.5), this.total[k]!, providers[k]!, q[4 * k]!, q[4 * k + 1]!, q[4 * k + 2]!,
        q[4 * k + 3]!, derived[k] === 1);
    }
    this.filter = null;
  }

  /** Hands the provider medians of the series last computed with selection 0 to `sink` (market-bands.ts). */
  exportMarket(sink: MedianSink): void {
    this.dist.exportMedians(sink, this.touched, this.touchedCount);
  }

  /**
   * One walk over the rows, run of equal values after run: pass 1 (`first`) sums the weights and
   * counts the providers per key; pass 2 keeps running sums and, at the end of each run, notes the
   * value at which they pass the middle positions. Once every key has both, pass 2 only ranks the
   * rows of the groups and pids of many valid rows whose own median it has not met, and stops when
   * none is left: the rest of the series would change nothing.
   * A group's single providers are added here, with the arrays in locals (V8 reloads a field's
   * typed array at every access otherwise); its shared providers, where it has any, by shared().
   */
  private pass(rows: SeriesRows, from: number, to: number, first: boolean): void {
    let open = false;
    let value = 0;
    let lastG = -1;
    let lastX = -1;
    const { clsOfVid, derivedOfVid, vids } = rows;
    const { weightSt, weightN, stateCount: s } = this.m;
    const { keyStamp, touched, total, providers, groups, runStamp, runTouched, cum, dist } = this;
    const keyDerived = dist.derived;
    const stamp = this.stamp;
    // the run's number and its touched keys, in locals; this.run and this.runTouchedCount for shared()
    let run = this.run;
    let runTouchedCount = 0;
    let touchedCount = this.touchedCount;
    let keysDone = false;
    const enabled = this.enabled;
    for (let i = from; i < to;) {
      const b = Math.floor(i / SERIES_BLOCK_ROWS);
      const start = i % SERIES_BLOCK_ROWS;
      const end = Math.min(SERIES_BLOCK_ROWS, start + to - i);
      i += end - start;
      const gid = rows.gid[b]!;
      const vid = rows.vid[b]!;
      const v = rows.v[b]!;
      for (let o = start; o < end; o++) {
        if (!open || v[o] !== value) {
          if (open && !first && !keysDone) {
            this.endRun(value, runTouchedCount);
            if (this.unresolved === 0) this.keysDone = keysDone = true;
          }
          if (keysDone && dist.left === 0) {
            this.run = run;
            return; // every median found: the rest of pass 2 would change none
          }
          open = true;
          value = v[o]!;
          run++;
          runTouchedCount = 0;
          lastG = -1;
          lastX = -1;
        }
        const g = gid[o]!;
        const x = vid[o]!;
        if (g === lastG && x === lastX) continue; // an identical row counts once
        lastG = g;
        lastX = x;
        const all = SELECTION_MASKS[clsOfVid[x]!]! & enabled;
        const mask = all & SINGLE_MASK;
        const at = g * GROUP_FIELDS;
        const w0 = groups[at + GroupField.WeightStart]!;
        const w1 = groups[at + GroupField.WeightEnd]!;
        // a group of one weight (the common case: its single providers, of one state or none) holds it itself
        const stShared = groups[at + GroupField.OnlyStShared]!;
        const st1 = stShared >> 1;
        const n1 = groups[at + GroupField.OnlyN]!;
        // the group's own median stands for its single providers in the market (selection 0)
        const ranked = (mask & 1) !== 0 && w1 > w0;
        if (first) {
          if (ranked && groups[at + GroupField.Seen] !== stamp) {
            groups[at + GroupField.Met] = dist.meet(g, value);
            groups[at + GroupField.RowsLeft] = 0;
          } else if (ranked) dist.again(groups[at + GroupField.Met]!, value);
          const d = derivedOfVid[x]!;
          if (w1 > w0 && mask !== 0) {
            for (let cs = 0; cs < SELECTION_COUNT; cs++) {
              if ((mask & (1 << cs)) === 0) continue;
              const base = cs * s;
              const seen = groups[at + GroupField.Seen + cs] === stamp;
              if (!seen) groups[at + GroupField.Seen + cs] = stamp;
              for (let k = w0; k < w1; k++) {
                const key = base + (n1 >= 0 ? st1 : weightSt[k]!);
                const n = n1 >= 0 ? n1 : weightN[k]!;
                if (keyStamp[key] !== stamp) {
                  keyStamp[key] = stamp;
                  touched[touchedCount++] = key;
                  total[key] = 0;
                  providers[key] = 0;
                  keyDerived[key] = 0;
                }
                total[key] = total[key]! + n;
                if (!seen) providers[key] = providers[key]! + n;
                if (d !== 0) keyDerived[key] = 1;
              }
            }
          }
        } else {
          // rows left only where pass 1 did not find the median (SeriesDistribution.settle)
          const left = ranked ? groups[at + GroupField.RowsLeft]! : 0;
          if (left > 0) {
            const t = groups[at + GroupField.Met]!;
            const c = dist.rows[t]!;
            groups[at + GroupField.RowsLeft] = left - 1;
            if (c - left >= (c - 1) >> 1 && c - left <= c >> 1) dist.middle(t, c - left, c, value);
          }
          if (!keysDone && w1 > w0 && mask !== 0) {
            for (let cs = 0; cs < SELECTION_COUNT; cs++) {
              if ((mask & (1 << cs)) === 0) continue;
              const base = cs * s;
              for (let k = w0; k < w1; k++) {
                const key = base + (n1 >= 0 ? st1 : weightSt[k]!);
                if (runStamp[key] !== run) {
                  runStamp[key] = run;
                  runTouched[runTouchedCount++] = key;
                }
                cum[key] = cum[key]! + (n1 >= 0 ? n1 : weightN[k]!);
              }
            }
          }
        }
        if ((stShared & 1) !== 0) {
          this.run = run;
          this.runTouchedCount = runTouchedCount;
          this.touchedCount = touchedCount;
          this.shared(g, x, all, vids, first, value, derivedOfVid[x]!);
          runTouchedCount = this.runTouchedCount;
          touchedCount = this.touchedCount;
        }
      }
    }
    this.run = run;
    this.runTouchedCount = runTouchedCount;
    this.touchedCount = touchedCount;
    if (open && !first && !keysDone) this.endRun(value, runTouchedCount);
  }

  /** The end of a run of `value` in pass 2, which touched `touchedKeys` keys: the first value whose running weight passes floor/ceil((total - 1) / 2). */
  private endRun(value: number, touchedKeys: number): void {
    const { runTouched, cum, total, lo, hi } = this;
    for (let t = 0; t < touchedKeys; t++) {
      const k = runTouched[t]!;
      const c = cum[k]!;
      const half = (total[k]! - 1) / 2;
      if (Number.isNaN(lo[k]!) && c > Math.floor(half)) lo[k] = value;
      if (Number.isNaN(hi[k]!) && c > Math.ceil(half)) {
        hi[k] = value;
        this.unresolved--;
      }
    }
  }

  /** Adds weight `w` at key `k`: to the totals in pass 1 (with the row's derived flag `d`), to the running sums in pass 2. */
  private add(k: number, w: number, first: boolean, d: number): void {
    if (first) {
      const derived = this.dist.derived;
      if (this.keyStamp[k] !== this.stamp) {
        this.keyStamp[k] = this.stamp;
        this.touched[this.touchedCount++] = k;
        this.total[k] = 0;
        this.providers[k] = 0;
        derived[k] = 0;
      }
      this.total[k] = this.total[k]! + w;
      if (d !== 0) derived[k] = 1;
    } else {
      if (this.runStamp[k] !== this.run) {
        this.runStamp[k] = this.run;
        this.runTouched[this.runTouchedCount++] = k;
      }
      this.cum[k] = this.cum[k]! + w;
    }
  }

  /**
   * The shared providers of one distinct (gid, vid) row of value `value` and derived flag `d` of
   * the current run (pass() adds the single ones), in the class selections `mask`: each counts once
   * per distinct (pid, vid) among the run's groups. Pass 1 (`first`) also counts them as the
   * series' providers per key; both passes count and rank a valid row for its pid's own median.
   */
  private shared(g: number, x: number, mask: number, vids: number, first: boolean, value: number, d: number): void {
    const { sharedStart, sharedPid, sharedSt, stateCount: s, pidCount } = this.m;
    const filter = this.filter;
    for (let k = sharedStart[g]!, end = sharedStart[g + 1]!; k < end; k++) {
      const p = sharedPid[k]!;
      if (this.runPid[p] !== this.run) {
        this.runPid[p] = this.run;
        this.runPidVid[p] = x;
      } else {
        // reached again in this run through another group: count each (pid, vid) once
        if (this.pairsRun !== this.run) {
          this.runPairs.clear();
          this.pairsRun = this.run;
        }
        this.runPairs.add(p * vids + this.runPidVid[p]!);
        const pair = p * vids + x;
        if (this.runPairs.has(pair)) continue;
        this.runPairs.add(pair);
      }
      const st = sharedSt[k]!;
      // selection 2 counts only the filter's providers
      const m = filter !== null && filter.stamp[p] !== filter.id ? mask & ~(1 << SHARED_SELECTION) : mask;
      if ((m & DISTRIBUTION_MASK) !== 0) {
        if (first) this.dist.countPid(p, value);
        else this.dist.rankPid(p, value);
      }
      if (this.keysDone) continue;
      for (let cs = 0; cs < SELECTION_COUNT; cs++) {
        if ((m & (1 << cs)) === 0) continue;
        const base = cs * s;
        this.add(base, 1, first, d);
        if (st > 0) this.add(base + st, 1, first, d);
        if (first && this.seenShared[cs * pidCount + p] !== this.stamp) {
          this.seenShared[cs * pidCount + p] = this.stamp;
          this.providers[base] = this.providers[base]! + 1;
          if (st > 0) this.providers[base + st] = this.providers[base + st]! + 1;
        }
      }
    }
  }
}
