/**
 * The medians loop (series-medians.ts) on a series larger than one block of rows, with runs of
 * equal values that cross block boundaries, against the literal count of docs/methodology.md in plain
 * JavaScript: every distinct group row expanded to each provider of its group, identical
 * (provider, row) pairs once, then the median, count and distinct providers per selection (valid
 * rows; every row; valid rows at the providers of a filter, which only providers of several groups
 * can pass) and state.
 */
import { describe, expect, it } from 'vitest';
import { SELECTION_COUNT, SeriesMedians } from '../../scripts/convert/series-medians';
import { SERIES_BLOCK_ROWS, type Membership, type SeriesRows } from '../../scripts/convert/series-rows';
import { SeriesBuffer } from '../../scripts/convert/price-stats-input';
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
function rowsOf(list: Array<[number, number, number]>, clsOfVid: number[], sort = true): SeriesRows {
  if (sort) list.sort((a, b) => a[2] - b[2] || a[0] - b[0] || a[1] - b[1]);
  const blocks = Math.ceil(list.length / SERIES_BLOCK_ROWS);
  const rows: SeriesRows = {
    gid: Array.from({ length: blocks }, () => new Int32Array(SERIES_BLOCK_ROWS)),
    vid: Array.from({ length: blocks }, () => new Int32Array(SERIES_BLOCK_ROWS)),
    v: Array.from({ length: blocks }, () => new Float64Array(SERIES_BLOCK_ROWS)),
    n: list.length, clsOfVid: Uint8Array.from(clsOfVid), vids: clsOfVid.length,
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

describe('SeriesMedians', () => {
  it('agrees with the literal expansion on a series of 2.5 blocks with runs across blocks, with and without a filter', () => {
    const rng = new Rng(11);
    const { members, state, pidOf, m } = groupsOf(rng, 400, 900);
    const clsOfVid = Array.from({ length: 12 }, (_, x) => x % 2);
    // few values: long runs of one value, some crossing the block boundaries; repeated rows too
    const values = Array.from({ length: 40 }, () => Math.round(rng.range(5, 500) * 100) / 100);
    const list: Array<[number, number, number]> = Array.from({ length: Math.floor(2.5 * SERIES_BLOCK_ROWS) },
      () => [rng.int(0, 399), rng.int(0, 11), rng.pick(values)]);
    // the series sits after another one in the buffer, as a code's series do (build-price-stats.ts)
    const before: Array<[number, number, number]> = Array.from({ length: 1000 }, () => [rng.int(0, 399), rng.int(0, 11), rng.pick(values)]);
    const rows = rowsOf([...before.sort((a, b) => a[2] - b[2] || a[0] - b[0] || a[1] - b[1]), ...list.sort((a, b) => a[2] - b[2] || a[0] - b[0] || a[1] - b[1])], clsOfVid, false);
    // the filter: every third provider of several groups, and a provider of one group (never counted: shared with no one)
    const stamp = new Int32Array(m.pidCount);
    const passes = new Set<number>();
    for (const [p, pid] of pidOf) if (pid % 3 === 0) { stamp[pid] = 7; passes.add(p); }
    const filter = { stamp, id: 7 };
    const loop = new SeriesMedians(m);
    const got = new Map<string, [number, number, number]>();
    loop.series(rows, before.length, before.length + list.length, (cs, st, med, n, p) => got.set(`${cs}/${st}`, [med, n, p]), { ...filter, only: false });
    const only = new Map<string, [number, number, number]>();
    loop.series(rows, before.length, before.length + list.length, (cs, st, med, n, p) => only.set(`${cs}/${st}`, [med, n, p]), { ...filter, only: true });
    const none = new Map<string, [number, number, number]>();
    loop.series(rows, before.length, before.length + list.length, (cs, st, med, n, p) => none.set(`${cs}/${st}`, [med, n, p]));

    const expanded = new Map<string, { v: number; p: number; cls: number }>();
    for (const [g, x, v] of list) for (const p of members[g]!) expanded.set(`${p}|${x}|${v}`, { v, p, cls: clsOfVid[x]! });
    const want = new Map<string, [number, number, number]>();
    for (let cs = 0; cs < SELECTION_COUNT; cs++) {
      for (let st = 0; st < STATES; st++) {
        const sel = [...expanded.values()].filter((r) => CLASSES[r.cls]!.includes(cs) && (st === 0 || state[r.p] === st) && (cs < 2 || passes.has(r.p)));
        if (sel.length) want.set(`${cs}/${st}`, [median(sel.map((r) => r.v)), sel.length, new Set(sel.map((r) => r.p)).size]);
      }
    }
    expect(want.size).toBe(SELECTION_COUNT * STATES);
    expect([...got.entries()].sort()).toEqual([...want.entries()].sort());
    expect([...only.entries()].sort()).toEqual([...want.entries()].filter(([k]) => k.startsWith('2/')).sort());
    expect([...none.entries()].sort()).toEqual([...want.entries()].filter(([k]) => !k.startsWith('2/')).sort());
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
  it('holds the rows appended run by run, across chunks and block boundaries, and the class of every vid', () => {
    const rng = new Rng(3);
    const total = Math.floor(2.3 * SERIES_BLOCK_ROWS);
    const gid = Int32Array.from({ length: total }, () => rng.int(0, 1000));
    const vid = Int32Array.from({ length: total }, () => rng.int(0, 700)); // past the 256 vids the buffer starts with
    const cls = Uint8Array.from(vid, (x) => x % 4);
    const v = Float64Array.from({ length: total }, (_, r) => r / 100);
    const rows = new SeriesBuffer();
    rows.append(Int32Array.of(9), Int32Array.of(900), Uint8Array.of(1), Float64Array.of(1), 0, 1);
    rows.clear(); // the next series starts empty, and keeps no vid of the last
    // chunks of up to DuckDB's 2048 rows, each appended in runs of random lengths (a series' runs
    // within a chunk): some runs cross a block boundary
    for (let at = 0, n = 0; at < total; at += n) {
      n = Math.min(rng.int(1, 2048), total - at);
      for (let i = 0; i < n;) {
        const j = Math.min(n, i + rng.int(1, 700));
        rows.append(gid.subarray(at, at + n), vid.subarray(at, at + n), cls.subarray(at, at + n), v.subarray(at, at + n), i, j);
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
    for (const x of new Set(vid)) expect(rows.clsOfVid[x]).toBe(x % 4);
  });
});
