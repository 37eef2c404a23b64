/**
 * Writes the dataset tables to Parquet with DuckDB's native writer and describes each file for
 * the manifest: size, SHA-256, and for `rates` the billing-code range of every row group
 * (docs/architecture.md: parquet-wasm exposes no column statistics, so the manifest carries them).
 * A conversion runs these writers as tasks of its last phase (write-dataset.ts).
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { COLUMNS, MARKET_SCOPE, type ManifestTable, type PriceScope, type PeriodIndexEntry, type RowGroupIndexEntry, type SourceIndexEntry, type StatsPart, type StatsSnapshot, type TableName } from '../../../../contract/files/dataset';
import { GROUP_ID_LIST_SQL, sqlString } from '../../spool/spool';
import { BUCKET_PRICES_ORDER } from '../stats/code-buckets';

/**
 * Rows (prices) per Parquet row group of `rates`: small enough that one billing code reads little
 * (the worker reads whole row groups, by the manifest's index). A row is a price with its list of
 * groups: 20,000 of them are ~60,000 rate rows, ~200 KB on the 1 GB benchmark file.
 */
export const RATES_ROW_GROUP_SIZE = 20_000;

/**
 * The codec of every Parquet file of the dataset: zstd at level 1 (DuckDB's default is 3), faster
 * to write for files 2.5 % larger; snappy's are 40 % larger (docs/benchmarks.md).
 */
const PARQUET_CODEC = 'COMPRESSION zstd, COMPRESSION_LEVEL 1';

/**
 * Rows per Parquet row group of the tables but `rates` (read whole by the worker): DuckDB's own
 * default. Their writer holds a row group uncompressed outside its memory limit; at 1,000,000 rows
 * the two largest (provider_groups and providers, ~520k rows each on the 1 GB benchmark file),
 * written at once (write-dataset.ts), would take the RSS near 600 MB.
 */
const TABLE_ROW_GROUP_SIZE = 122_880;

/**
 * Sort order of each table but `rates` (writeRatesPart) in its file; a total order, so that the same
 * inputs give the same files (SHA-256 in the manifest) from run to run.
 */
export const TABLE_ORDER: Record<Exclude<TableName, 'rates'>, string> = {
  // after its sources' snapshot (GROUPS_FIRST_ORDER): the worker reads the row groups of one month's sources (sourceIndex)
  provider_groups: 'source_id, provider_group_key, provider_id, npi, tin_type, tin_value',
  providers: 'provider_id',
  services: 'billing_code',
  claims_volume: 'billing_code, state, billing_class',
  // by period (a month scope's month, another row's snapshot), scope, national rows first, then
  // state: the worker reads a month's row groups of one scope, national, per state or of one state,
  // alone (periodIndex)
  price_stats: `coalesce(month, snapshot), scope, state <> 'ALL', state, billing_code, snapshot, insurer_id, billing_class, component, setting, month`,
  medicare_benchmarks: 'billing_code, billing_class, component, setting',
  billing_providers: 'billing_code, billing_class, provider_id',
};

/**
 * What `provider_groups` is sorted by before TABLE_ORDER: its sources' snapshot, from the table
 * `sources(source_id, snapshot, ...)` that the converter and the generator hold, so that the groups
 * of one month's files are a few consecutive row groups (sourceIndex). The snapshot follows from
 * source_id, so the order stays the total order of TABLE_ORDER.
 */
const GROUPS_FROM = 'provider_groups LEFT JOIN (SELECT source_id, snapshot AS source_snapshot FROM sources) USING (source_id)';
const GROUPS_FIRST_ORDER = 'source_snapshot NULLS LAST';

/** SHA-256 of a file, hex, streamed. */
export async function sha256File(file: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(file)) h.update(chunk as Buffer);
  return h.digest('hex');
}

async function rowGroups(con: DuckDBConnection, file: string, fileIndex = 0): Promise<RowGroupIndexEntry[]> {
  const r = await con.runAndReadAll(
    `SELECT row_group_id, row_group_num_rows, stats_min_value, stats_max_value
     FROM parquet_metadata($1) WHERE path_in_schema = 'billing_code' ORDER BY row_group_id`,
    [file],
  );
  return r.getRowObjects().map((o) => ({
    file: fileIndex,
    row_group: Number(o.row_group_id),
    rows: Number(o.row_group_num_rows),
    min_billing_code: String(o.stats_min_value ?? ''),
    max_billing_code: String(o.stats_max_value ?? ''),
  }));
}

/** Writes table `name` as one Parquet file, sorted (TABLE_ORDER); returns its row count (COPY's answer). */
async function copySorted(con: DuckDBConnection, name: Exclude<TableName, 'rates'>, file: string, rowGroupSize = TABLE_ROW_GROUP_SIZE): Promise<number> {
  const [from, order] = name === 'provider_groups' ? [GROUPS_FROM, `${GROUPS_FIRST_ORDER}, ${TABLE_ORDER[name]}`] : [name, TABLE_ORDER[name]];
  const copied = await con.runAndReadAll(
    `COPY (SELECT ${COLUMNS[name].join(', ')} FROM ${from} ORDER BY ${order})
     TO ${sqlString(file)} (FORMAT parquet, ${PARQUET_CODEC}, ROW_GROUP_SIZE ${rowGroupSize})`,
  );
  return Number(copied.getRows()[0]![0]);
}

/** The rows of each row group of Parquet `file`, in order (its footer). */
async function rowGroupRows(con: DuckDBConnection, file: string): Promise<number[]> {
  const groups = await con.runAndReadAll(
    `SELECT row_group_id, any_value(row_group_num_rows) AS num_rows FROM parquet_metadata($1) GROUP BY row_group_id ORDER BY row_group_id`,
    [file],
  );
  return groups.getRowObjects().map((g) => Number(g.num_rows));
}

/**
 * The runs of a file written in an order whose first keys are a run's (each run's rows consecutive)
 * cut by its row groups: for each row group (`groupRows[g]` rows), the keys of the runs it holds rows
 * of, in order. `runs` are the runs' keys and row counts in file order.
 * @throws naming `file` when the row groups do not hold exactly the runs' rows.
 */
function runsByRowGroup<K>(runs: ReadonlyArray<{ key: K; n: number }>, groupRows: readonly number[], file: string): K[][] {
  const out: K[][] = [];
  let run = 0;
  let runEnd = runs[0]?.n ?? 0;
  let at = 0;
  for (const rows of groupRows) {
    const keys: K[] = [];
    const end = at + rows;
    while (run < runs.length && at < end) {
      keys.push(runs[run]!.key);
      at = Math.min(end, runEnd);
      if (at === runEnd) {
        run += 1;
        runEnd += runs[run]?.n ?? 0;
      }
    }
    at = end;
    out.push(keys);
  }
  if (run !== runs.length || at !== runEnd) throw new Error(`the row groups of ${file} do not hold the table's ${runEnd} rows`);
  return out;
}

/**
 * The period index of a written `price_stats` file: per row group, the runs of (period, scope,
 * national) its rows belong to, each per-state run with the first and last state of its rows there.
 * The file holds the table in TABLE_ORDER, a total order whose first keys are those of a run, then
 * the state.
 */
async function periodIndex(con: DuckDBConnection, file: string): Promise<PeriodIndexEntry[]> {
  const runs = (await con.runAndReadAll(
    `SELECT coalesce(month, snapshot) AS period, scope, state = 'ALL' AS national, state, count(*) AS n
     FROM price_stats GROUP BY ALL ORDER BY period, scope, national DESC, state`,
  )).getRowObjects().map((o) => ({
    key: { period: String(o.period), scope: String(o.scope) as PriceScope, national: o.national === true, state: String(o.state) },
    n: Number(o.n),
  }));
  const groupRows = await rowGroupRows(con, file);
  return runsByRowGroup(runs, groupRows, file).map((keys, g) => {
    const parts: StatsPart[] = [];
    for (const { state, ...key } of keys) {
      const last = parts.at(-1);
      if (last && last.period === key.period && last.scope === key.scope && last.national === key.national) last.states![1] = state;
      else parts.push(key.national ? key : { ...key, states: [state, state] });
    }
    return { row_group: g, rows: groupRows[g]!, parts };
  });
}

/**
 * The source index of a written `provider_groups` file: per row group, the sources its rows belong
 * to (the file holds the table by its sources' snapshot, then source_id: GROUPS_FIRST_ORDER).
 */
async function sourceIndex(con: DuckDBConnection, file: string): Promise<SourceIndexEntry[]> {
  const runs = (await con.runAndReadAll(
    `SELECT source_id, count(*) AS n FROM ${GROUPS_FROM} GROUP BY source_snapshot, source_id ORDER BY ${GROUPS_FIRST_ORDER}, source_id`,
  )).getRowObjects().map((o) => ({ key: Number(o.source_id), n: Number(o.n) }));
  const groupRows = await rowGroupRows(con, file);
  return runsByRowGroup(runs, groupRows, file).map((ids, g) => ({ row_group: g, rows: groupRows[g]!, source_ids: ids }));
}

/** The distinct (insurer, snapshot) pairs of `market` rows of table `price_stats`, ascending. */
async function statsSnapshots(con: DuckDBConnection): Promise<StatsSnapshot[]> {
  const r = await con.runAndReadAll(`SELECT DISTINCT insurer_id, snapshot FROM price_stats WHERE scope = '${MARKET_SCOPE}' ORDER BY insurer_id, snapshot`);
  return r.getRowObjects().map((o) => ({ insurer_id: String(o.insurer_id), snapshot: String(o.snapshot) }));
}

/** The SELECT over `bucket_prices` (code-buckets.ts bucketPricesSql) that writeRatesPart copies into a part (ratesPartSql). */
export interface RatesPartSql {
  select: string;
}

/**
 * Whether the states filter emptied some provider group a price names (`named_refs.kept` false,
 * build-tables.ts): its id then leaves the price's list, and a price left with none leaves `rates`
 * (docs/converter.md, The catalog: filters.states; its rows are filtered out, not unresolved).
 * @throws when SQL fails.
 */
export async function hasDroppedGroups(con: DuckDBConnection): Promise<boolean> {
  const r = await con.runAndReadAll('SELECT count(*) FROM named_refs WHERE NOT kept');
  return Number(r.getRows()[0]![0]) > 0;
}

/**
 * The SQL every rates part shares (contract/files/dataset.ts COLUMNS.rates): each price of the bucket
 * with its list of group ids, in the prices' order. An id whose group no provider_groups row
 * resolves stays in the list (rateRowsSql: the empty provider). Only when `dropped`
 * (hasDroppedGroups), the ids of emptied groups leave the lists, by an unnest, an anti join and the
 * list again. Either way sorted by the prices' place in the file (BUCKET_PRICES_ORDER).
 */
export function ratesPartSql(dropped: boolean): RatesPartSql {
  if (!dropped) {
    const cols = COLUMNS.rates.map((c) => (c === 'provider_group_ids' ? `${GROUP_ID_LIST_SQL} AS provider_group_ids` : c));
    return { select: `SELECT ${cols.join(', ')} FROM bucket_prices ORDER BY ${BUCKET_PRICES_ORDER}` };
  }
  const place = BUCKET_PRICES_ORDER;
  const cols = COLUMNS.rates.map((c) => (c === 'provider_group_ids' ? 'k.ids AS provider_group_ids' : `p.${c}`));
  return {
    select: `
      SELECT ${cols.join(', ')}
      FROM bucket_prices p
      LEFT JOIN (
        SELECT ${place}, list(provider_group_id ORDER BY pos) AS ids
        FROM (SELECT ${place}, source_id, unnest(l) AS provider_group_id, generate_subscripts(l, 1) AS pos
              FROM (SELECT *, ${GROUP_ID_LIST_SQL} AS l FROM bucket_prices WHERE provider_group_ids IS NOT NULL)) u
        ANTI JOIN (SELECT source_id, provider_group_id FROM named_refs WHERE NOT kept) d USING (source_id, provider_group_id)
        GROUP BY ALL) k USING (${place})
      WHERE p.provider_group_ids IS NULL OR k.ids IS NOT NULL
      ORDER BY ${place.split(', ').map((c) => `p.${c}`).join(', ')}`,
  };
}

/**
 * Runs `work` with the database on one thread and every connection of `cons` without caching
 * operators (writeRatesPart: what keeps the parts' rows in order), then restores both settings.
 * `threads` is the database's setting, set through the first connection; `enable_caching_operators`
 * is each connection's own (DuckDB scope LOCAL): a connection left with it on reordered the rows of
 * the parts it copied whenever a join fed the copy (an unresolved provider group), so that the same
 * inputs gave different `rates` files from run to run.
 * @throws what `work` throws.
 */
export async function onOneThread(cons: readonly DuckDBConnection[], work: () => Promise<void>): Promise<void> {
  const first = cons[0]!;
  const threads = await first.runAndReadAll(`SELECT current_setting('threads')`);
  await first.run('SET threads = 1');
  for (const c of cons) await c.run('SET enable_caching_operators = false');
  try {
    await work();
  } finally {
    await first.run(`SET threads = ${Number(threads.getRows()[0]![0])}`);
    for (const c of cons) await c.run('RESET enable_caching_operators');
  }
}

/**
 * Writes `rates/part-<k>.parquet` of billing-code bucket `k` (code-buckets.ts; the parts in code
 * order make the table) from its prices (`prices`, code-buckets.ts bucketPricesSql) inside
 * onOneThread, and returns its row count: one row per price, with the list of its group ids
 * (ratesPartSql), in the prices' order, each list in the order of the ids in the file: a total
 * order, so that the same inputs give the same files. The copy runs on ONE DuckDB thread without
 * caching operators, which writes the rows in their order; two threads with PRESERVE_ORDER
 * (DuckDB's batch copy) take twice the time of one thread and run out of memory on a 1M-price
 * bucket, two threads without it interleave the two threads' row groups. A row per price with a
 * list of group ids, not per price x group, is a third of the rows to encode (docs/benchmarks.md).
 * @throws when DuckDB cannot write the file.
 */
export async function writeRatesPart(con: DuckDBConnection, sql: RatesPartSql, prices: string, k: number, outDir: string): Promise<number> {
  const copied = await con.runAndReadAll(`
    COPY (${prices} ${sql.select})
    TO ${sqlString(path.join(outDir, ratesPart(k)))}
    (FORMAT parquet, ${PARQUET_CODEC}, ROW_GROUP_SIZE ${RATES_ROW_GROUP_SIZE}, PRESERVE_ORDER false)`);
  return Number(copied.getRows()[0]![0]);
}

const ratesPart = (k: number): string => `rates/part-${k}.parquet`;

/**
 * The manifest entry of the rates parts written, `rows[k]` the rows of part k: sizes, SHA-256 and
 * the row-group index.
 * @throws when a part cannot be read.
 */
export async function describeRates(con: DuckDBConnection, outDir: string, rows: number[]): Promise<ManifestTable> {
  const entry: ManifestTable = { files: [], rows: 0, bytes: [], sha256: [], row_groups: [] };
  for (const [k, n] of rows.entries()) {
    const rel = ratesPart(k);
    const file = path.join(outDir, rel);
    entry.row_groups!.push(...await rowGroups(con, file, k));
    entry.files.push(rel);
    entry.rows += n;
    entry.bytes.push((await stat(file)).size);
    entry.sha256.push(await sha256File(file));
  }
  return entry;
}

/**
 * Writes table `name` (any but `rates`) as `<name>.parquet` into `outDir`, sorted by TABLE_ORDER
 * (`provider_groups` first by its sources' snapshot, from table `sources`: GROUPS_FROM), and
 * returns its manifest entry; `price_stats`'s has its period index and its market snapshots,
 * `provider_groups`' its source index.
 * `rowGroupSize`: rows per row group (default TABLE_ROW_GROUP_SIZE; tests set it small).
 * @throws when DuckDB cannot write the file.
 */
export async function writeTable(con: DuckDBConnection, name: Exclude<TableName, 'rates'>, outDir: string, rowGroupSize?: number): Promise<ManifestTable> {
  const rel = `${name}.parquet`;
  const file = path.join(outDir, rel);
  const rows = await copySorted(con, name, file, rowGroupSize);
  const entry: ManifestTable = { files: [rel], rows, bytes: [(await stat(file)).size], sha256: [await sha256File(file)] };
  if (name === 'provider_groups') entry.source_index = await sourceIndex(con, file);
  if (name === 'price_stats') {
    entry.period_index = await periodIndex(con, file);
    entry.stats_snapshots = await statsSnapshots(con);
  }
  return entry;
}
