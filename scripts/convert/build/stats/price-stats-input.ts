/**
 * Reading DuckDB results into the typed arrays of the price_stats loops (build-price-stats.ts):
 * chunks as views of DuckDB's vectors, the provider membership (series-rows.ts Membership), the
 * series' insurers, snapshots and codes (shared-providers.ts SeriesIndex), and the buffer a
 * billing code's rows stream into.
 */
import type { DuckDBConnection, DuckDBDataChunk } from '@duckdb/node-api';
import duckdb from '@duckdb/node-bindings';
import { SERIES_BLOCK_ROWS, type Membership, type SeriesRows } from './series-rows';
import type { SeriesIndex } from './shared-providers';

/**
 * Runs `sql` and hands its result chunk after chunk to `each` with the chunk's row count (the rows
 * never all in memory at once). The count is read once: `rowCount` is a call into the native
 * binding, which in a loop's condition costs ~0.7 s of the main thread on the 1 GB benchmark file.
 */
export async function forEachChunk(con: DuckDBConnection, sql: string, each: (chunk: DuckDBDataChunk, rows: number) => void): Promise<void> {
  const result = await con.stream(sql);
  for (;;) {
    const chunk = await result.fetchChunk();
    const rows = chunk ? chunk.rowCount : 0;
    if (!chunk || rows === 0) return;
    each(chunk, rows);
  }
}

/**
 * Streams the rows of `sql` into `rows`: columns (key INTEGER, gid INTEGER, vid INTEGER, cls
 * UTINYINT, derived UTINYINT, v DOUBLE), never NULL (column()), in key order; `enter(key)` is called
 * before the first row of each key. A chunk mostly lies within one key (a series of up to millions of rows), so its
 * rows go in by runs of one key.
 */
export async function streamSeriesRows(con: DuckDBConnection, sql: string, rows: SeriesBuffer, enter: (key: number) => void): Promise<void> {
  let key = NaN;
  await forEachChunk(con, sql, (chunk, n) => {
    const k = column(chunk, 0, n, Int32Array);
    const gid = column(chunk, 1, n, Int32Array);
    const vid = column(chunk, 2, n, Int32Array);
    const cls = column(chunk, 3, n, Uint8Array);
    const derived = column(chunk, 4, n, Uint8Array);
    const v = column(chunk, 5, n, Float64Array);
    for (let i = 0; i < n;) {
      if (k[i] !== key) {
        key = k[i]!;
        enter(key);
      }
      let j = i + 1;
      if (k[n - 1] === key) j = n;
      else while (k[j] === key) j++;
      rows.append(gid, vid, cls, derived, v, i, j);
      i = j;
    }
  });
}

/** A typed-array type of a fixed-width DuckDB column: Int32Array for INTEGER, Uint8Array for UTINYINT, Float64Array for DOUBLE. */
export interface ColumnArray<T> {
  new (buffer: ArrayBufferLike, byteOffset: number, length: number): T;
  readonly BYTES_PER_ELEMENT: number;
}

/**
 * Column `column` of `chunk` (`rows` rows) as a typed array of `type` over DuckDB's vector data,
 * for a column of that DuckDB type that is never NULL (a NULL's slot holds no value). The
 * node-api's per-value accessor checks validity and is called through one site for several
 * vector classes: reading the medians' rows that way costs ~0.4 s of the main thread on the 1 GB
 * benchmark file.
 */
export function column<T>(chunk: DuckDBDataChunk, column: number, rows: number, type: ColumnArray<T>): T {
  const data = duckdb.vector_get_data(duckdb.data_chunk_get_vector(chunk.chunk, column), rows * type.BYTES_PER_ELEMENT);
  return new type(data.buffer, data.byteOffset, rows);
}

/** One integer of a one-row query. */
export async function scalar(con: DuckDBConnection, sql: string): Promise<number> {
  return Number((await con.runAndReadAll(sql)).getRows()[0]![0] ?? 0);
}

/**
 * Reads ps_weights and ps_shared_members into the compressed rows of series-medians.ts Membership;
 * `wholeMarket`: without the states (stateCount 1, each provider at st 0), for medians of the
 * whole market only (outlier-medians.ts).
 */
export async function readMembership(con: DuckDBConnection, { wholeMarket = false } = {}): Promise<Membership> {
  const groupCount = (await scalar(con, 'SELECT coalesce(max(gid), 0) + 1 FROM resolved_groups'));
  const byGroup = async (table: string, columns: string, order: string): Promise<{ start: Int32Array; a: Int32Array; b: Float64Array }> => {
    const rows = await scalar(con, `SELECT count(*) FROM ${table}`);
    const start = new Int32Array(groupCount + 1);
    const a = new Int32Array(rows);
    const b = new Float64Array(rows);
    let at = 0;
    // never NULL: gid and the columns' values are keys, counts or coalesced (column())
    await forEachChunk(con, `SELECT CAST(gid AS INTEGER), ${columns} FROM ${table} ORDER BY gid, ${order}`, (chunk, n) => {
      const gid = column(chunk, 0, n, Int32Array);
      const x = column(chunk, 1, n, Int32Array);
      const y = column(chunk, 2, n, Float64Array);
      for (let i = 0; i < n; i++, at++) {
        const g = gid[i]! + 1;
        start[g] = start[g]! + 1;
        a[at] = x[i]!;
        b[at] = y[i]!;
      }
    });
    for (let g = 0; g < groupCount; g++) start[g + 1] = start[g + 1]! + start[g]!;
    return { start, a, b };
  };
  const weights = await byGroup(wholeMarket ? '(SELECT * FROM ps_weights WHERE st = 0)' : 'ps_weights', 'CAST(st AS INTEGER), CAST(n AS DOUBLE)', 'st');
  const shared = await byGroup('ps_shared_members', `CAST(pid AS INTEGER), CAST(${wholeMarket ? '0' : 'coalesce(st, 0)'} AS DOUBLE)`, 'pid');
  return {
    weightStart: weights.start, weightSt: weights.a, weightN: weights.b,
    sharedStart: shared.start, sharedPid: shared.a, sharedSt: Int32Array.from(shared.b),
    stateCount: wholeMarket ? 1 : await scalar(con, 'SELECT max(st) + 1 FROM ps_states'),
    pidCount: await scalar(con, 'SELECT coalesce(max(pid), 0) + 1 FROM ps_shared'),
  };
}

/**
 * The series' insurers, snapshots and codes as integers (shared-providers.ts SeriesIndex), and the
 * table `ps_months(mo, month)` of the dataset's months: the months are the snapshots of `sources`,
 * each insurer's snapshots those of its sources, the reference insurer that of `reference_insurer`
 * (build-tables.ts).
 */
export async function readSeriesIndex(con: DuckDBConnection): Promise<{ index: SeriesIndex; codeOf: Int32Array }> {
  await con.run(`CREATE TABLE ps_months AS
    SELECT CAST(row_number() OVER (ORDER BY snapshot) - 1 AS USMALLINT) AS mo, snapshot AS month FROM (SELECT DISTINCT snapshot FROM sources)`);
  const rows = async (sql: string): Promise<unknown[][]> => (await con.runAndReadAll(sql)).getRows();
  const months = (await rows('SELECT month FROM ps_months ORDER BY mo')).map((r) => String(r[0]));
  const insurers = (await rows('SELECT DISTINCT insurer_id FROM sources ORDER BY 1')).map((r) => String(r[0]));
  const insurerIndex = new Map(insurers.map((id, k) => [id, k]));
  const monthIndex = new Map(months.map((m, k) => [m, k]));
  const has = insurers.map(() => new Uint8Array(months.length));
  for (const [id, snapshot] of await rows('SELECT DISTINCT insurer_id, snapshot FROM sources')) {
    has[insurerIndex.get(String(id))!]![monthIndex.get(String(snapshot))!] = 1;
  }
  const snapshotAt = has.map((h) => {
    const at = new Int32Array(months.length).fill(-1);
    for (let k = 0, last = -1; k < months.length; k++) at[k] = last = h[k] ? k : last;
    return at;
  });
  const size = (await scalar(con, 'SELECT coalesce(max(ps_series), 0) + 1 FROM ps_series'));
  const insurerOf = new Int32Array(size);
  const snapshotOf = new Int32Array(size);
  const codeOf = new Int32Array(size).fill(-1);
  await forEachChunk(con, `SELECT ps_series, i.k, m.mo, CAST(dense_rank() OVER (ORDER BY billing_code) AS INTEGER)
      FROM ps_series s JOIN (SELECT insurer_id, CAST(row_number() OVER (ORDER BY insurer_id) - 1 AS INTEGER) AS k
        FROM (SELECT DISTINCT insurer_id FROM sources)) i USING (insurer_id)
      JOIN ps_months m ON m.month = s.snapshot`, (chunk, n) => {
    const ps = column(chunk, 0, n, Int32Array);
    const k = column(chunk, 1, n, Int32Array);
    const mo = column(chunk, 2, n, Uint16Array);
    const code = column(chunk, 3, n, Int32Array);
    for (let i = 0; i < n; i++) {
      insurerOf[ps[i]!] = k[i]!;
      snapshotOf[ps[i]!] = mo[i]!;
      codeOf[ps[i]!] = code[i]!;
    }
  });
  const reference = await rows('SELECT insurer_id FROM reference_insurer');
  const ref = reference.length === 0 ? undefined : insurerIndex.get(String(reference[0]![0]));
  return { index: { insurerOf, snapshotOf, months, snapshotAt, reference: ref ?? -1 }, codeOf };
}

/** Blocks kept by a SeriesBuffer between buckets: 1M rows (16 MB); a larger series' blocks are let go. */
const KEPT_BLOCKS = 16;

/** One series' rows as they stream in (series-medians.ts SeriesRows), reusable from series to series. */
export class SeriesBuffer implements SeriesRows {
  gid: Int32Array[] = [];
  vid: Int32Array[] = [];
  v: Float64Array[] = [];
  n = 0;
  clsOfVid = new Uint8Array(256);
  derivedOfVid = new Uint8Array(256);
  vids = 0;

  /**
   * Appends rows `from` .. `to` of a result chunk's columns (views of DuckDB's vectors, copied):
   * whole runs by TypedArray#set, block by block: on the 1 GB benchmark file, 0.07 s of the main
   * thread against 0.25 s with a call per row. `cls` and `derived` are properties of the row's vid.
   */
  append(gid: Int32Array, vid: Int32Array, cls: Uint8Array, derived: Uint8Array, v: Float64Array, from: number, to: number): void {
    for (let i = from; i < to;) {
      const b = Math.floor(this.n / SERIES_BLOCK_ROWS);
      const o = this.n % SERIES_BLOCK_ROWS;
      if (b === this.v.length) {
        this.gid.push(new Int32Array(SERIES_BLOCK_ROWS));
        this.vid.push(new Int32Array(SERIES_BLOCK_ROWS));
        this.v.push(new Float64Array(SERIES_BLOCK_ROWS));
      }
      const end = Math.min(to, i + SERIES_BLOCK_ROWS - o);
      this.gid[b]!.set(gid.subarray(i, end), o);
      this.vid[b]!.set(vid.subarray(i, end), o);
      this.v[b]!.set(v.subarray(i, end), o);
      this.n += end - i;
      i = end;
    }
    let top = this.vids - 1;
    for (let i = from; i < to; i++) if (vid[i]! > top) top = vid[i]!;
    if (top >= this.clsOfVid.length) {
      const grow = (a: Uint8Array): Uint8Array<ArrayBuffer> => {
        const grown = new Uint8Array(2 * top);
        grown.set(a);
        return grown;
      };
      this.clsOfVid = grow(this.clsOfVid);
      this.derivedOfVid = grow(this.derivedOfVid);
    }
    this.vids = top + 1;
    const classes = this.clsOfVid;
    const derivedOf = this.derivedOfVid;
    for (let i = from; i < to; i++) {
      classes[vid[i]!] = cls[i]!;
      derivedOf[vid[i]!] = derived[i]!;
    }
  }

  /** Empties the buffer for the next series. */
  clear(): void {
    this.n = 0;
    this.vids = 0;
  }

  /** Lets go of the blocks beyond KEPT_BLOCKS. */
  trim(): void {
    for (const blocks of [this.gid, this.vid, this.v]) blocks.length = Math.min(blocks.length, KEPT_BLOCKS);
  }
}

