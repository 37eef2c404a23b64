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
 * (0 valid, 1 failed validation) enters the selections of SELECTION_MASKS.
 */

import { SERIES_BLOCK_ROWS, type EmitStat, type Membership, type SeriesRows, type SharedFilter } from './series-rows';

/** Selections a row of flag `cls` enters, as a bit mask of cs: a valid row all three, a failed one only "validation off". */
const SELECTION_MASKS = [0b111, 0b010] as const;

/** Selections: 0 the valid rates (docs/methodology.md, Validation), 1 every dollar rate (the headline with validation off), 2 valid rates at a filter's providers. */
export const SELECTION_COUNT = 3;

/** The selection of the valid rates at the providers of a SharedFilter. */
export const SHARED_SELECTION = 2;

/** The selection of every dollar rate, validation off: the only one a row of flag 1 enters. */
export const EVERY_RATE_SELECTION = 1;

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
  /** 1 when it has shared providers (sharedStart[gid] < sharedStart[gid + 1]), else 0. */
  Shared = 2,
  /** Its one weight entry's state and count, when it has exactly one of at most 2^31 - 1; OnlyN -1 otherwise. */
  OnlySt = 3,
  OnlyN = 4,
  /** A stamp per selection: the series that last counted its providers. */
  Seen = 5,
}

/** Integers per group in SeriesMedians' `groups`: GroupField's 5 + SELECTION_COUNT stamps, 8 (half a cache line). */
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
    out[at + GroupField.Shared] = m.sharedStart[g + 1]! > m.sharedStart[g]! ? 1 : 0;
    const n = w1 - w0 === 1 ? m.weightN[w0]! : -1;
    const one = Number.isInteger(n) && n >= 0 && n < 2 ** 31;
    out[at + GroupField.OnlySt] = one ? m.weightSt[w0]! : 0;
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
  }

  /**
   * Emits the statistics of one series from its group rows `from` .. `to` of `rows` (sorted by v,
   * gid, vid; repeated rows are skipped). The median is the middle value of the weighted multiset,
   * the midpoint a + (b - a) / 2 of the two middle ones when its size is even (DuckDB's `median`).
   * Without `filter`, selections 0 and 1; with it, selection 2 too (or alone: `filter.only`).
   */
  series(rows: SeriesRows, from: number, to: number, emit: EmitStat, filter: SharedFilter | null = null): void {
    this.stamp++;
    this.touchedCount = 0;
    this.filter = filter;
    this.enabled = filter === null ? SINGLE_MASK : filter.only ? 1 << SHARED_SELECTION : SINGLE_MASK | (1 << SHARED_SELECTION);
    this.pass(rows, from, to, true);
    for (let t = 0; t < this.touchedCount; t++) {
      const k = this.touched[t]!;
      this.cum[k] = 0;
      this.lo[k] = NaN;
      this.hi[k] = NaN;
    }
    this.unresolved = this.touchedCount;
    this.pass(rows, from, to, false);
    const s = this.m.stateCount;
    for (let t = 0; t < this.touchedCount; t++) {
      const k = this.touched[t]!;
      const a = this.lo[k]!;
      emit(Math.floor(k / s), k % s, a + (this.hi[k]! - a) / 2, this.total[k]!, this.providers[k]!);
    }
    this.filter = null;
  }

  /**
   * One walk over the rows, run of equal values after run: pass 1 (`first`) sums the weights and
   * counts the providers per key; pass 2 keeps running sums and, at the end of each run, notes the
   * value at which they pass the middle positions, and stops once every key has both (about half
   * way through a series: 0.3-0.4 s of the main thread less on the 1 GB benchmark file).
   * A group's single providers are added here, with the arrays in locals (V8 reloads a field's
   * typed array at every access otherwise); its shared providers, where it has any, by shared().
   */
  private pass(rows: SeriesRows, from: number, to: number, first: boolean): void {
    let open = false;
    let value = 0;
    let lastG = -1;
    let lastX = -1;
    const { clsOfVid, vids } = rows;
    const { weightSt, weightN, stateCount: s } = this.m;
    const { keyStamp, touched, total, providers, groups, runStamp, runTouched, cum } = this;
    const stamp = this.stamp;
    // the run's number and its touched keys, in locals; this.run and this.runTouchedCount for shared()
    let run = this.run;
    let runTouchedCount = 0;
    let touchedCount = this.touchedCount;
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
          if (open && !first) {
            this.endRun(value, runTouchedCount);
            if (this.unresolved === 0) {
              this.run = run;
              return; // every median found: the rest of pass 2 would change none
            }
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
        const st1 = groups[at + GroupField.OnlySt]!;
        const n1 = groups[at + GroupField.OnlyN]!;
        if (w1 > w0 && mask !== 0) {
          if (first) {
            for (let cs = 0; cs < SELECTION_COUNT; cs++) {
              if ((mask & (1 << cs)) === 0) continue;
              const base = cs * s;
              const seen = groups[at + GroupField.Seen + cs] === stamp;
              if (!seen) groups[at + GroupField.Seen + cs] = stamp;
              if (n1 >= 0) {
                const key = base + st1;
                if (keyStamp[key] !== stamp) {
                  keyStamp[key] = stamp;
                  touched[touchedCount++] = key;
                  total[key] = 0;
                  providers[key] = 0;
                }
                total[key] = total[key]! + n1;
                if (!seen) providers[key] = providers[key]! + n1;
                continue;
              }
              for (let k = w0; k < w1; k++) {
                const key = base + weightSt[k]!;
                if (keyStamp[key] !== stamp) {
                  keyStamp[key] = stamp;
                  touched[touchedCount++] = key;
                  total[key] = 0;
                  providers[key] = 0;
                }
                total[key] = total[key]! + weightN[k]!;
                if (!seen) providers[key] = providers[key]! + weightN[k]!;
              }
            }
          } else {
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
        if (groups[at + GroupField.Shared] !== 0) {
          this.run = run;
          this.runTouchedCount = runTouchedCount;
          this.touchedCount = touchedCount;
          this.shared(g, x, all, vids, first);
          runTouchedCount = this.runTouchedCount;
          touchedCount = this.touchedCount;
        }
      }
    }
    this.run = run;
    this.runTouchedCount = runTouchedCount;
    this.touchedCount = touchedCount;
    if (open && !first) this.endRun(value, runTouchedCount);
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

  /** Adds weight `w` at key `k`: to the totals in pass 1, to the running sums in pass 2. */
  private add(k: number, w: number, first: boolean): void {
    if (first) {
      if (this.keyStamp[k] !== this.stamp) {
        this.keyStamp[k] = this.stamp;
        this.touched[this.touchedCount++] = k;
        this.total[k] = 0;
        this.providers[k] = 0;
      }
      this.total[k] = this.total[k]! + w;
    } else {
      if (this.runStamp[k] !== this.run) {
        this.runStamp[k] = this.run;
        this.runTouched[this.runTouchedCount++] = k;
      }
      this.cum[k] = this.cum[k]! + w;
    }
  }

  /**
   * The shared providers of one distinct (gid, vid) row of the current run (pass() adds the single
   * ones), in the class selections `mask`: each counts once per distinct (pid, vid) among the run's
   * groups. Pass 1 (`first`) also counts them as the series' providers per key.
   */
  private shared(g: number, x: number, mask: number, vids: number, first: boolean): void {
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
      for (let cs = 0; cs < SELECTION_COUNT; cs++) {
        if ((m & (1 << cs)) === 0) continue;
        const base = cs * s;
        this.add(base, 1, first);
        if (st > 0) this.add(base + st, 1, first);
        if (first && this.seenShared[cs * pidCount + p] !== this.stamp) {
          this.seenShared[cs * pidCount + p] = this.stamp;
          this.providers[base] = this.providers[base]! + 1;
          if (st > 0) this.providers[base + st] = this.providers[base + st]! + 1;
        }
      }
    }
  }
}
