/**
 * The medians loop (series-medians.ts) on a series larger than one block of rows, with runs of
 * equal values that cross block boundaries, against the literal count of docs/methodology.md in plain
 * JavaScript: every distinct group row expanded to each provider of its group, identical
 * (provider, row) pairs once, then the median, count and distinct providers per selection (valid
 * rows; every row; valid rows at the providers of a filter, which only providers of several groups
 * can pass) and state.
 */
import { describe, expect, it } from 'vitest';
import { SeriesMedians } from '../../scripts/convert/build/stats/series-medians';
import { SELECTION_COUNT, SERIES_BLOCK_ROWS, type Membership, type SeriesRows } from '../../scripts/convert/build/stats/series-rows';
import { SeriesBuffer } from '../../scripts/convert/build/stats/price-stats-input';
import { Rng } from '../../scripts/sample/rng';

const STATES = 4; // st 1..3 and 0 for the whole market
const CLASSES = [[0, 1, 2], [1]]; // cls -> selections: a valid row all three, a failed one only 'validation off'

/** Groups of explicit providers (id, state 0 = unknown), and the Membership build-price-stats.ts derives from them. */
function groupsOf(rng: Rng, groupCount: number, providerCount: number): { members: number[][]; state: number[]; pidOf: Map<number, number>; m: Membership } {
  const state = Array.from({ length: providerCount }, () => rng.int(0, STATES - 1));
  const members = Array.from({ length: groupCount }, () => [...new Set(Array.from({ length: rng.int(1, 6) }, () => rng.int(0, providerCount - 1)))]);
  const groupsOfProvider = new Map<number, number>();
  for (const ps of members) for (const p of ps) groupsOfProvider.set(p, (groupsOfProvider.get(p) ?? 0) + 1);
  const pidOf = new Map<number, number>();
  for (const [p, n] of groupsOfProvider) if (n > 1) pidOf.set(p, pidOf.size + 1);
  const weights: Array<Array<[number, number]>> = [];
  const shared: Array<Array<[number, number]>> = [];
  for (const ps of members) {
    const single = ps.filter((p) => !pidOf.has(p));
    const w: Array<[number, number]> = single.length ? [[0, single.length]] : [];
    for (let st = 1; st < STATES; st++) {
      const n = single.filter((p) => state[p] === st).length;
      if (n) w.push([st, n]);
    }
    weights.push(w);
    shared.push(ps.filter((p) => pidOf.has(p)).map((p) => [pidOf.get(p)!, state[p]!]));
  }
  const csr = (rows: Array<Array<[number, number]>>): [Int32Array, Int32Array, Float64Array] => {
    const start = new Int32Array(rows.length + 1);
    rows.forEach((r, g) => { start[g + 1] = start[g]! + r.length; });
    const flat = rows.flat();
    return [start, Int32Array.from(flat.map((e) => e[0])), Float64Array.from(flat.map((e) => e[1]))];
  };
  const [weightStart, weightSt, weightN] = csr(weights);
  const [sharedStart, sharedPid, sharedSt] = csr(shared);
  return {
    members, state, pidOf,
    m: { weightStart, weightSt, weightN, sharedStart, sharedPid, sharedSt: Int32Array.from(sharedSt), stateCount: STATES, pidCount: pidOf.size + 1 },
  };
}

/** Rows sorted by (v, gid, vid) (unless `sort` is false: already in series order) in blocks, as build-price-stats.ts streams them in. */
function rowsOf(list: Array<[number, number, number]>, clsOfVid: number[], sort = true, derivedOfVid = clsOfVid.map(() => 0)): SeriesRows {
  if (sort) list.sort((a, b) => a[2] - b[2] || a[0] - b[0] || a[1] - b[1]);
  const blocks = Math.ceil(list.length / SERIES_BLOCK_ROWS);
  const rows: SeriesRows = {
    gid: Array.from({ length: blocks }, () => new Int32Array(SERIES_BLOCK_ROWS)),
    vid: Array.from({ length: blocks }, () => new Int32Array(SERIES_BLOCK_ROWS)),
    v: Array.from({ length: blocks }, () => new Float64Array(SERIES_BLOCK_ROWS)),
    n: list.length, clsOfVid: Uint8Array.from(clsOfVid), derivedOfVid: Uint8Array.from(derivedOfVid), vids: clsOfVid.length,
  };
  list.forEach(([g, x, v], r) => {
    const b = Math.floor(r / SERIES_BLOCK_ROWS);
    const o = r % SERIES_BLOCK_ROWS;
    rows.gid[b]![o] = g;
    rows.vid[b]![o] = x;
    rows.v[b]![o] = v;
  });
  return rows;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const a = s[Math.floor((s.length - 1) / 2)]!;
  return a + (s[Math.ceil((s.length - 1) / 2)]! - a) / 2;
};

/** DuckDB 1.5's quantile_cont of `xs` at `q` (QuantileInterpolator, InterpolateOperator for DOUBLE); `median` is q = 0.5. */
const quantileCont = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  const h = (s.length - 1) * q;
  const f = Math.floor(h);
  return h === f ? s[f]! : s[f]! * (1 - (h - f)) + s[f + 1]! * (h - f);
};

/** What SeriesMedians emits for one (selection, state): median, rows, providers, p10, p25, p75, p90, derived. */
type Emitted = [number, number, number, number, number, number, number, boolean];

/** The distribution of rows `sel` (docs/methodology.md, Confidence and distribution): quantiles of each provider's DuckDB median, and any derived row. */
function distributionOf(sel: Array<{ v: number; p: number; d: boolean }>): [number, number, number, number, boolean] {
  const byProvider = new Map<number, number[]>();
  for (const r of sel) byProvider.set(r.p, [...(byProvider.get(r.p) ?? []), r.v]);
  const medians = [...byProvider.values()].map((xs) => quantileCont(xs, 0.5));
  const [p10, p25, p75, p90] = [0.1, 0.25, 0.75, 0.9].map((q) => quantileCont(medians, q)) as [number, number, number, number];
  return [p10, p25, p75, p90, sel.some((r) => r.d)];
}

/**
 * What docs/methodology.md says SeriesMedians emits for the group rows `list` ([gid, vid, v]) taken
 * literally: each expanded to every provider of its group (`members`, of states `state`), identical
 * (provider, row) pairs once, then per selection of `selections` and state the median, rows,
 * providers and distribution; selection 2 at the providers `passes`.
 */
function literal(list: Array<[number, number, number]>, members: number[][], state: number[], clsOfVid: number[], derivedOfVid: number[],
  passes: Set<number>, selections: number[]): Map<string, Emitted> {
  const expanded = new Map<string, { v: number; p: number; cls: number; d: boolean }>();
  for (const [g, x, v] of list) for (const p of members[g]!) expanded.set(`${p}|${x}|${v}`, { v, p, cls: clsOfVid[x]!, d: derivedOfVid[x] === 1 });
  const want = new Map<string, Emitted>();
  for (const cs of selections) {
    for (let st = 0; st < STATES; st++) {
      const sel = [...expanded.values()].filter((r) => CLASSES[r.cls]!.includes(cs) && (st === 0 || state[r.p] === st) && (cs < 2 || passes.has(r.p)));
      // validation off (selection 1) has no distribution
      const dist = cs === 1 ? [NaN, NaN, NaN, NaN, false] as const : distributionOf(sel);
      if (sel.length) want.set(`${cs}/${st}`, [median(sel.map((r) => r.v)), sel.length, new Set(sel.map((r) => r.p)).size, ...dist]);
    }
  }
  return want;
}

/** Sorts rows into series order: by v, gid, vid. */
const bySeriesOrder = (a: [number, number, number], b: [number, number, number]): number => a[2] - b[2] || a[0] - b[0] || a[1] - b[1];

describe('SeriesMedians', () => {
  it('agrees with the literal expansion on a series of 2.5 blocks with runs across blocks, with and without a filter', () => {
    const rng = new Rng(11);
    // more groups than a SeriesDistribution holds at first (1024): its arrays grow
    const { members, state, pidOf, m } = groupsOf(rng, 2000, 4000);
    const clsOfVid = Array.from({ length: 12 }, (_, x) => x % 2);
    // vid 10 (valid) and 11 (not) are derived; vid 10 only at a group of providers of state 1, so that the other states have no derived row
    const derivedOfVid = Array.from({ length: 12 }, (_, x) => (x >= 10 ? 1 : 0));
    const derivedGroup = members.findIndex((ps) => ps.every((p) => state[p] === 1));
    // few values: long runs of one value, some crossing the block boundaries; repeated rows too
    const values = Array.from({ length: 40 }, () => Math.round(rng.range(5, 500) * 100) / 100);
    const row = (): [number, number, number] => {
      const [g, x] = [rng.int(0, 1999), rng.int(0, 11)];
      return [g, x === 10 && g !== derivedGroup ? 8 : x, rng.pick(values)];
    };
    const list = Array.from({ length: Math.floor(2.5 * SERIES_BLOCK_ROWS) }, row);
    // the series sits after another one in the buffer, as a code's series do (build-price-stats.ts)
    const before = Array.from({ length: 1000 }, row);
    const rows = rowsOf([...before.sort(bySeriesOrder), ...list.sort(bySeriesOrder)], clsOfVid, false, derivedOfVid);
    // the filter: every third provider of several groups, and a provider of one group (never counted: shared with no one)
    const stamp = new Int32Array(m.pidCount);
    const passes = new Set<number>();
    for (const [p, pid] of pidOf) if (pid % 3 === 0) { stamp[pid] = 7; passes.add(p); }
    const filter = { stamp, id: 7 };
    const loop = new SeriesMedians(m);
    const run = (f: typeof filter & { only: boolean } | null): Map<string, Emitted> => {
      const out = new Map<string, Emitted>();
      loop.series(rows, before.length, before.length + list.length, (cs, st, ...stats) => out.set(`${cs}/${st}`, stats), f);
      return out;
    };
    const got = run({ ...filter, only: false });
    const only = run({ ...filter, only: true });
    const none = run(null);

    const want = literal(list, members, state, clsOfVid, derivedOfVid, passes, [0, 1, 2]);
    expect(want.size).toBe(SELECTION_COUNT * STATES);
    // derived in some keys of the valid rows, not in all
    expect(new Set([...want].filter(([k]) => !k.startsWith('1/')).map(([, w]) => w[7]))).toEqual(new Set([true, false]));
    expect([...got.entries()].sort()).toEqual([...want.entries()].sort());
    expect([...only.entries()].sort()).toEqual([...want.entries()].filter(([k]) => k.startsWith('2/')).sort());
    expect([...none.entries()].sort()).toEqual([...want.entries()].filter(([k]) => !k.startsWith('2/')).sort());
  });

  it('agrees with the literal expansion on many small series in a row, with each kind of filter', () => {
    // few providers: the positions of p10 .. p90 close together (with 2 providers, f10 + 1 passes f25)
    for (let seed = 1; seed <= 500; seed++) {
      const rng = new Rng(seed);
      const groupCount = rng.int(2, 12);
      const { members, state, pidOf, m } = groupsOf(rng, groupCount, rng.int(2, 20));
      const loop = new SeriesMedians(m);
      const clsOfVid = [0, 1, 0, 0];
      const derivedOfVid = [0, 0, 1, 0];
      for (let series = 0; series < 4; series++) {
        const list = Array.from({ length: rng.int(1, 30) }, (): [number, number, number] =>
          [rng.int(0, groupCount - 1), rng.int(0, 3), rng.pick([10, 20, 25.5, 30, 40, 100, 3000])]);
        const rows = rowsOf(list, clsOfVid, true, derivedOfVid);
        const stamp = new Int32Array(m.pidCount);
        const passes = new Set<number>();
        for (const [p, pid] of pidOf) if (rng.next() < 0.5) { stamp[pid] = 7; passes.add(p); }
        // no filter (selections 0 and 1), a first match (0 to 2), a later month's (2 alone)
        const mode = rng.int(0, 2);
        const got = new Map<string, Emitted>();
        loop.series(rows, 0, rows.n, (cs, st, ...stats) => got.set(`${cs}/${st}`, stats), mode === 0 ? null : { stamp, id: 7, only: mode === 2 });
        const want = literal(list, members, state, clsOfVid, derivedOfVid, passes, [[0, 1], [0, 1, 2], [2]][mode]!);
        expect([...got.entries()].sort(), `seed ${seed}, series ${series}`).toEqual([...want.entries()].sort());
      }
    }
  });

  it('keeps no state from one series to the next', () => {
    const rng = new Rng(5);
    const { m } = groupsOf(rng, 50, 80);
    const loop = new SeriesMedians(m);
    const a = rowsOf([[1, 0, 10], [2, 1, 20], [3, 2, 30]], [1, 0, 1]);
    const first: string[] = [];
    const again: string[] = [];
    loop.series(a, 0, a.n, (...s) => first.push(s.join(',')));
    const b = rowsOf([[4, 0, 99]], [0]);
    loop.series(b, 0, b.n, () => undefined);
    loop.series(a, 0, a.n, (...s) => again.push(s.join(',')));
    expect(again).toEqual(first);
  });
});

describe('SeriesBuffer', () => {
  it('holds the rows appended run by run, across chunks and block boundaries, and the class and derived flag of every vid', () => {
    const rng = new Rng(3);
    const total = Math.floor(2.3 * SERIES_BLOCK_ROWS);
    const gid = Int32Array.from({ length: total }, () => rng.int(0, 1000));
    const vid = Int32Array.from({ length: total }, () => rng.int(0, 700)); // past the 256 vids the buffer starts with
    const cls = Uint8Array.from(vid, (x) => x % 4);
    const derived = Uint8Array.from(vid, (x) => (x >> 2) & 1);
    const v = Float64Array.from({ length: total }, (_, r) => r / 100);
    const rows = new SeriesBuffer();
    rows.append(Int32Array.of(9), Int32Array.of(900), Uint8Array.of(1), Uint8Array.of(1), Float64Array.of(1), 0, 1);
    rows.clear(); // the next series starts empty, and keeps no vid of the last
    // chunks of up to DuckDB's 2048 rows, each appended in runs of random lengths (a series' runs
    // within a chunk): some runs cross a block boundary
    for (let at = 0, n = 0; at < total; at += n) {
      n = Math.min(rng.int(1, 2048), total - at);
      for (let i = 0; i < n;) {
        const j = Math.min(n, i + rng.int(1, 700));
        rows.append(gid.subarray(at, at + n), vid.subarray(at, at + n), cls.subarray(at, at + n), derived.subarray(at, at + n), v.subarray(at, at + n), i, j);
        i = j;
      }
    }
    expect(rows.n).toBe(total);
    expect(rows.gid.length).toBe(3);
    const flat = <T extends Int32Array | Float64Array>(blocks: T[], make: (n: number) => T): T => {
      const out = make(total);
      blocks.forEach((b, k) => out.set(b.subarray(0, Math.min(SERIES_BLOCK_ROWS, total - k * SERIES_BLOCK_ROWS)), k * SERIES_BLOCK_ROWS));
      return out;
    };
    const firstDiff = (a: ArrayLike<number>, b: ArrayLike<number>): number => Array.from(a).findIndex((x, r) => x !== b[r]);
    expect(firstDiff(flat(rows.gid, (n) => new Int32Array(n)), gid)).toBe(-1);
    expect(firstDiff(flat(rows.vid, (n) => new Int32Array(n)), vid)).toBe(-1);
    expect(firstDiff(flat(rows.v, (n) => new Float64Array(n)), v)).toBe(-1);
    expect(rows.vids).toBe(vid.reduce((a, x) => Math.max(a, x), 0) + 1);
    for (const x of new Set(vid)) expect([rows.clsOfVid[x], rows.derivedOfVid[x]]).toEqual([x % 4, (x >> 2) & 1]);
  });
});
