/**
 * Prices at shared providers (docs/methodology.md, Per comparison unit), for build-price-stats.ts: which providers each series of one
 * billing code is matched against, month by month.
 *
 * For a month M, each insurer contributes its latest snapshot at or before M (docs/methodology.md, Rows
 * that count). For a comparison unit, a competitor's price is taken at the
 * providers where the reference insurer has a valid rate of the unit, and the reference's price at
 * the providers where any competitor of the dataset has one. A provider found in one provider group
 * only belongs to one source, hence one insurer, so it is never shared: only the providers found in
 * several groups (the Membership's pids, series-medians.ts) can be, and presence is counted over
 * them alone. A series of several months (an insurer whose snapshot stays the latest for a later
 * month) is matched once per month.
 */
import { SERIES_BLOCK_ROWS, type Membership, type SeriesRows, type SharedFilter } from './series-rows';

/** The series of the dataset (`ps_series`) and its months, as integers. */
export interface SeriesIndex {
  /** Per ps_series: its insurer (0 .. insurers - 1). */
  insurerOf: Int32Array;
  /** Per ps_series: its snapshot, as an index into `months`. */
  snapshotOf: Int32Array;
  /** The dataset's snapshot months `YYYY-MM`, ascending. */
  months: readonly string[];
  /** Per insurer, per month index: the index of the insurer's latest snapshot at or before it, -1 when none. */
  snapshotAt: ReadonlyArray<Int32Array>;
  /** The reference insurer's index; -1 when it has no rates (then nothing is shared). */
  reference: number;
}

/** A series of the current code: its key (`ps_series * units + unit`) and its rows `from` .. `to` of the code's SeriesRows. */
export interface CodeSeries {
  ps: number;
  unit: number;
  from: number;
  to: number;
}

/** One match of a series: the month (an index into SeriesIndex.months) and the providers it is taken at. */
export interface SharedMatch {
  month: number;
  /** Series (indexes into the code's list) whose valid providers make the filter. */
  against: number[];
}

/** Plans and materialises the shared-provider filters of one code at a time (not re-entrant). */
export class SharedProviders {
  private readonly index: SeriesIndex;
  private readonly sharedStart: Int32Array;
  private readonly sharedPid: Int32Array;
  private readonly groupStamp: Int32Array;
  private readonly pidStamp: Int32Array;
  private stamp = 0;
  /** The current code's groups with a valid rate, series after series: series j's are present[start[j] .. start[j + 1]]. */
  private present = new Int32Array(1 << 16);
  private start: number[] = [];

  /** @throws RangeError when the arrays cannot be allocated. */
  constructor(m: Membership, index: SeriesIndex) {
    this.index = index;
    this.sharedStart = m.sharedStart;
    this.sharedPid = m.sharedPid;
    this.groupStamp = new Int32Array(m.sharedStart.length - 1);
    this.pidStamp = new Int32Array(m.pidCount);
  }

  /**
   * The matches of each series of one code (`series`, rows in `rows`), in the order of `series`:
   * none for a series that no month matches (a unit the other side lacks). Reads the groups where
   * each series has a valid row (a row whose vid has flag 0).
   */
  plan(rows: SeriesRows, series: readonly CodeSeries[]): SharedMatch[][] {
    const out: SharedMatch[][] = series.map(() => []);
    const { reference, months, snapshotAt, insurerOf, snapshotOf } = this.index;
    if (reference < 0 || series.length < 2) return out;
    // (insurer, snapshot, unit) -> the series' index in `series`
    const at = new Map<number, number>();
    const key = (insurer: number, snapshot: number, unit: number): number => (insurer * months.length + snapshot) * 64 + unit;
    series.forEach((s, j) => at.set(key(insurerOf[s.ps]!, snapshotOf[s.ps]!, s.unit), j));
    const units = [...new Set(series.map((s) => s.unit))];
    for (let month = 0; month < months.length; month++) {
      const refSnapshot = snapshotAt[reference]![month]!;
      if (refSnapshot < 0) continue;
      for (const unit of units) {
        const r = at.get(key(reference, refSnapshot, unit));
        if (r === undefined) continue;
        const competitors: number[] = [];
        for (let insurer = 0; insurer < snapshotAt.length; insurer++) {
          const snapshot = snapshotAt[insurer]![month]!;
          if (insurer === reference || snapshot < 0) continue;
          const c = at.get(key(insurer, snapshot, unit));
          if (c !== undefined) competitors.push(c);
        }
        if (competitors.length === 0) continue;
        out[r]!.push({ month, against: competitors });
        for (const c of competitors) out[c]!.push({ month, against: [r] });
      }
    }
    if (out.some((m) => m.length > 0)) this.readPresent(rows, series);
    return out;
  }

  /** The filter of a match: the providers of the groups where its `against` series have a valid rate (`only`: selection 2 alone). */
  filter(match: SharedMatch, only: boolean): SharedFilter {
    const id = ++this.stamp;
    const { pidStamp, sharedStart, sharedPid, present } = this;
    for (const j of match.against) {
      for (let k = this.start[j]!, end = this.start[j + 1]!; k < end; k++) {
        const g = present[k]!;
        for (let x = sharedStart[g]!, e = sharedStart[g + 1]!; x < e; x++) pidStamp[sharedPid[x]!] = id;
      }
    }
    return { stamp: pidStamp, id, only };
  }

  /** Fills present/start: per series, its distinct groups with a valid row that have providers of several groups. */
  private readPresent(rows: SeriesRows, series: readonly CodeSeries[]): void {
    const { groupStamp, sharedStart } = this;
    const { clsOfVid } = rows;
    let n = 0;
    this.start = [0];
    for (const s of series) {
      const stamp = ++this.stamp;
      for (let i = s.from; i < s.to;) {
        const b = Math.floor(i / SERIES_BLOCK_ROWS);
        const first = i % SERIES_BLOCK_ROWS;
        const end = Math.min(SERIES_BLOCK_ROWS, first + s.to - i);
        i += end - first;
        const gid = rows.gid[b]!;
        const vid = rows.vid[b]!;
        for (let o = first; o < end; o++) {
          const g = gid[o]!;
          if (groupStamp[g] === stamp || clsOfVid[vid[o]!] !== 0) continue;
          groupStamp[g] = stamp;
          if (sharedStart[g] === sharedStart[g + 1]) continue; // no provider of another group: none to share
          if (n === this.present.length) {
            const grown = new Int32Array(2 * n);
            grown.set(this.present);
            this.present = grown;
          }
          this.present[n++] = g;
        }
      }
      this.start.push(n);
    }
  }
}
