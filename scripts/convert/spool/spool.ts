/**
 * The converter's working database: an in-memory DuckDB (native client) capped at
 * DUCKDB_MEMORY_LIMIT that spills to a temp directory in the work dir, into which the streaming
 * reader's rows are loaded in bulk from CSV files (spool-rows.ts), to be joined and aggregated in SQL at the end
 * (docs/architecture.md: provider groups stored apart from rates, never rates x NPIs while streaming).
 *
 * Raw tables:
 * - `raw_prices(source_id, item_id, rate_index, price_index, provider_group_ids, <the price columns of
 *   contract/files/price-columns.ts, in its order>)`, a VIEW: one row per negotiated
 *   price, `rate_index`/`price_index` its place in the item (the last keys of the rates sort, which
 *   make the dataset's files the same from run to run), `provider_group_ids` the ids of the groups its rate names, escaped and joined by
 *   group-ids.ts's GROUP_ID_SEPARATOR (`chr(31)`; GROUP_ID_LIST_SQL gives them back whole), NULL when it
 *   names none: a third of the rows of the expanded form on the benchmark file, which
 *   the parser threads would otherwise format, encode and write, and DuckDB load. The columns of
 *   price-values.ts PRICE_VALUE_COLUMNS hold BIGINT codes of `raw_values` (NULL for NULL):
 *   valueJoins decodes them. It joins the two tables the prices are stored in:
 *   - `raw_price_rows(source_id, item_id, rate_index, price_index, provider_group_ids, shape, <the
 *     price columns outside the shape: price-values.ts PRICE_ROW_COLUMNS>)`, as spooled;
 *   - `raw_shapes(shape, <price-values.ts PRICE_SHAPE_COLUMNS>)`, the value codes of each shape: a
 *     few dozen rows where the prices would hold six columns: a smaller price CSV and a cheaper load
 *     (docs/benchmarks.md).
 *   Statements that need no shape column read `raw_price_rows`: the view joins every price.
 * - `raw_values(code, value)` the text of every code of `raw_prices`, each code once.
 * - `raw_rates` a VIEW of `raw_prices` with the same columns but `provider_group_id`: one row per
 *   price x group it names (`unnest`), `provider_group_id` NULL when it names none. Never stored.
 * - `raw_items(source_id, item_id, billing_code_type, billing_code, name, description, negotiation_arrangement)`.
 * - `raw_groups(source_id, provider_group_id, provider_id, npi, tin_type, tin_value, remote_location, network_name, ref_index)`
 *   one row per provider (provider_id by docs/methodology.md: the NPI, else `TIN:<tin>`, NULL when neither);
 *   a remote (`location`) group not fetched has one row with `remote_location` set and no provider;
 *   `network_name` its networks (JSON array); `ref_index` its `provider_references[]` element (NULL if inline): not in a partition.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { PRICE_COLUMN_NAMES, PRICE_COLUMNS, priceColumn } from '../../../contract/files/price-columns';
import { sqlList, sqlString } from '../../../contract/sql/sql-text';
import { PRICE_ROW_COLUMNS, PRICE_SHAPE_COLUMNS, PRICE_VALUE_COLUMNS, SHAPE_SEPARATOR } from './price-values';
import { GROUP_ID_LIST_SQL, GROUP_ID_UNNEST_SQL, RATE_ROWS_PER_PRICE_SQL } from './group-ids';
import type { RAW_TABLES } from './spool-rows';
import { openSpoolHost, type SpoolHost } from './spool-host';

/** The SQL of a price's provider group ids (group-ids.ts), for the modules that import it from here. */
export { GROUP_ID_LIST_SQL, GROUP_ID_UNNEST_SQL, RATE_ROWS_PER_PRICE_SQL };

/** SQL string literals (contract/sql/sql-text.ts), for the converter's modules that build SQL on the working database. */
export { sqlList, sqlString };

/**
 * CSV bytes from which a load is compressed at once (Spool): below, the rows fit in DuckDB's memory
 * limit anyway, and the checkpoint would cost time for nothing. Smaller loads are compressed
 * once together they pass it: many loads each below it (a file whose every price has its own note)
 * would otherwise stay uncompressed into the last phase and crowd out its buckets (docs/benchmarks.md).
 */
const CHECKPOINT_CSV_BYTES = 64 << 20;

/**
 * Spool CSV bytes of a price row (the 1 GB benchmark file's 193 MB for 4.9 M rows, docs/benchmarks.md):
 * a partition's price rows count against CHECKPOINT_CSV_BYTES as their CSV would.
 */
const CSV_BYTES_PER_PRICE_ROW = 40;

/** read_csv's buffer per thread (its default, 32 MB, counts outside memory_limit); spool lines are short. */
const CSV_BUFFER_BYTES = 4 << 20;

/**
 * The buffer and line limit of a load read again after a line too long for CSV_BUFFER_BYTES: an
 * item whose five text fields each hold a string at the reader's limit (long-strings.ts
 * MAX_STRING_BYTES, 1 MiB) makes a `raw_items` line of ~5 MiB; a rate naming ~1M provider groups a
 * `raw_prices` line of similar size.
 */
const LONG_LINE_BYTES = 64 << 20;

/** DuckDB's errors for a CSV line longer than the buffer or max_line_size. */
const LINE_TOO_LONG = /maximum line size|full read on this file|CSV Error on Line/i;

const isValueColumn = (c: string): boolean => (PRICE_VALUE_COLUMNS as readonly string[]).includes(c);

/** Column types of the spooled tables, in CSV order (spool-rows.ts writes them). */
/**
 * The columns of a `raw_prices` row before its price columns (the price's place and its groups),
 * with their types.
 */
const PRICE_KEY_COLUMNS: ReadonlyArray<readonly [string, string]> = [['source_id', 'INTEGER'], ['item_id', 'INTEGER'], ['rate_index', 'INTEGER'],
  ['price_index', 'INTEGER'], ['provider_group_ids', 'VARCHAR']];

/** The spooled type of price column `c`: the number's own, a value column's BIGINT code (price-values.ts). */
const codedType = (c: string): string => (isValueColumn(c) ? 'BIGINT' : priceColumn(c).sqlType);

/** A read_csv `columns` struct of (name, type) pairs, in CSV order: `{'a': 'INTEGER', ...}`. */
const csvColumns = (columns: ReadonlyArray<readonly [string, string]>): string => `{${columns.map(([c, t]) => `${sqlString(c)}: ${sqlString(t)}`).join(', ')}}`;

const RAW_COLUMNS: Record<(typeof RAW_TABLES)[number], string> = {
  raw_prices: csvColumns([...PRICE_KEY_COLUMNS, ['shape', 'BIGINT'], ...PRICE_ROW_COLUMNS.map((c) => [c, codedType(c)] as const)]),
  raw_values: `{'code': 'BIGINT', 'value': 'VARCHAR'}`,
  raw_shapes: `{'code': 'BIGINT', 'value': 'VARCHAR'}`,
  raw_items: `{'source_id': 'INTEGER', 'item_id': 'INTEGER', 'billing_code_type': 'VARCHAR', 'billing_code': 'VARCHAR',
    'name': 'VARCHAR', 'description': 'VARCHAR', 'negotiation_arrangement': 'VARCHAR'}`,
  raw_groups: `{'source_id': 'INTEGER', 'provider_group_id': 'VARCHAR', 'provider_id': 'VARCHAR', 'npi': 'VARCHAR',
    'tin_type': 'VARCHAR', 'tin_value': 'VARCHAR', 'remote_location': 'VARCHAR', 'network_name': 'VARCHAR', 'ref_index': 'INTEGER'}`,
};

/** The read_csv columns of `raw_prices` in the text layout (Spool.loadTextPrices): the value columns as text. */
const TEXT_PRICE_COLUMNS = csvColumns([...PRICE_KEY_COLUMNS, ...PRICE_COLUMNS.map((c) => [c.name, c.sqlType] as const)]);

/** The table each kind of spool file is loaded into (the parser threads' `raw_prices` rows hold shape codes). */
const TABLE_OF: Record<(typeof RAW_TABLES)[number], string> = {
  raw_prices: 'raw_price_rows', raw_values: 'raw_values', raw_shapes: 'raw_shapes', raw_items: 'raw_items', raw_groups: 'raw_groups',
};

/** The columns of `raw_prices`, in order: its keys, then the price columns (contract/files/price-columns.ts). */
const RAW_PRICE_COLUMNS = [...PRICE_KEY_COLUMNS.map(([c]) => c), ...PRICE_COLUMN_NAMES];

/**
 * SQL that decodes the value columns (PRICE_VALUE_COLUMNS, or those of `columns`) of a relation
 * `alias` of `raw_prices` or `raw_rates`: `joins` (LEFT JOINs, one per column, of `table(column)`
 * — `raw_values` unless told — aliased `v_<column>`) and the expression of each column's text.
 */
export function valueJoins(alias: string, table: (column: string) => string = () => 'raw_values',
  columns: readonly string[] = PRICE_VALUE_COLUMNS): { joins: string; value: (column: string) => string } {
  return {
    joins: columns.map((c) => `LEFT JOIN ${table(c)} v_${c} ON v_${c}.code = ${alias}.${c}`).join(' '),
    value: (c) => `v_${c}.value`,
  };
}

/**
 * The stored table that holds value column `column` of the `raw_prices` view (PRICE_VALUE_COLUMNS):
 * `raw_shapes` for a column of a price's shape, `raw_price_rows` for the others. A shape's codes
 * are its prices' codes: the distinct codes of a column, or whether it has any, read there without
 * the view's join of every price.
 */
export const valueColumnTable = (column: string): string =>
  (PRICE_SHAPE_COLUMNS as readonly string[]).includes(column) ? 'raw_shapes' : 'raw_price_rows';

/**
 * An open working database. Its tables live in an in-memory database attached to a DuckDB
 * instance (spool-host.ts) under a name of its own, with DuckDB's COMPRESS option, and a load of
 * more than CHECKPOINT_CSV_BYTES of CSV is read a part file at a time, each followed by a CHECKPOINT, which stores the loaded rows compressed
 * (dictionaries for the repeated text of the group id lists, bit-packed integers for ids and value
 * codes). Uncompressed, the 4.9M price rows of the 1 GB benchmark file take ~0.9 GB and live in
 * spill files that every bucket of the last phase scans again (code-buckets.ts bucketPricesSql);
 * compressed, ~50 MB. Loaded part by part, DuckDB never holds more than a part uncompressed, which
 * is also faster than a load in one piece (docs/benchmarks.md).
 */
export interface Spool {
  con: DuckDBConnection;
  /**
   * A further connection to this database, its tables found without a qualifier (the build's
   * parallel writers). @throws when DuckDB cannot connect.
   */
  connect(): Promise<DuckDBConnection>;
  /**
   * Loads spooled CSV files (spool-rows.ts) into a raw table: in one bulk read when they are
   * small (CHECKPOINT_CSV_BYTES), stored compressed (CHECKPOINT) once the small loads since the
   * last one pass that size together, else one file (a part of at most about spool-rows.ts
   * SPOOL_PART_BYTES) at a time, each stored compressed before the next is read, so that DuckDB
   * never holds more than about CHECKPOINT_CSV_BYTES of rows uncompressed.
   * @throws when DuckDB cannot read them.
   */
  load(table: 'raw_items' | 'raw_groups', files: string[]): Promise<void>;
  /**
   * Loads one writer's prices (SpoolRows: `prices` its `raw_prices` files, `values` its
   * `raw_values` files, `valueCodes` the codes it gave), its codes offset past those of the writers
   * loaded before, as `load` does (a part at a time when large).
   * @throws when DuckDB cannot read them.
   */
  loadPrices(spooled: { prices: string[]; values: string[]; shapes: string[]; valueCodes: number; shapeCodes: number }): Promise<void>;
  /**
   * Loads `raw_prices` files in the text layout (the value columns as text, not codes: tests and
   * tools write them by hand); their values get codes in SQL.
   * @throws when DuckDB cannot read them.
   */
  loadTextPrices(files: string[]): Promise<void>;
  /**
   * Writes the raw tables as a source partition's Parquet files into directory `dir` (which must
   * exist): PARTITION_TABLES, `raw_price_rows` as a directory of part files of at most about
   * PARTITION_PART_ROWS rows; `source_id` renumbered to its index in `sourceIds` (the working ids
   * of the partition's sources, in order), so a partition numbers its sources from 0.
   * @throws when DuckDB cannot write them.
   */
  exportPartition(dir: string, sourceIds: readonly number[]): Promise<void>;
  /**
   * Appends a partition written by exportPartition: its sources numbered from `sourceBase`, its
   * value and shape codes offset past those loaded before, as loadPrices does; the price parts
   * are stored compressed as the CSV loads are (a CHECKPOINT once past CHECKPOINT_CSV_BYTES' rows).
   * @throws when a file is missing or not the partition's Parquet (DuckDB's error names it).
   */
  loadPartition(dir: string, sourceBase: number): Promise<void>;
  /**
   * Closes the database: detached from its host, its memory with it, or, opened without a host
   * (openSpool), with the instance it opened for itself, whole.
   */
  close(): Promise<void>;
}

/**
 * The files of a source partition (exportPartition), by raw table: one Parquet file each, but the
 * price rows, a directory of parts.
 */
export const PARTITION_TABLES = ['raw_items', 'raw_groups', 'raw_values', 'raw_shapes', 'raw_price_rows'] as const;

/**
 * Rows of a partition's price part (about: DuckDB's writer threads round it): loaded one part at a
 * time, each stored compressed before the next, so a build never holds more than about this many
 * price rows uncompressed (~100 MB), as spool-rows.ts SPOOL_PART_BYTES does for the CSV loads.
 */
export const PARTITION_PART_ROWS = 500_000;

/** A partition file's path: `<dir>/<table>.parquet`, the price parts `<dir>/raw_price_rows/*.parquet`. */
const partitionFile = (dir: string, table: (typeof PARTITION_TABLES)[number]): string =>
  table === 'raw_price_rows' ? path.join(dir, table) : path.join(dir, `${table}.parquet`);

/**
 * Opens a fresh working database: an in-memory database attached to `host` (an ingest run's
 * instance, spool-host.ts), or without one to an instance of its own that spills to `workDir`
 * (which must exist; the build's); `checkpointCsvBytes` (tests) replaces CHECKPOINT_CSV_BYTES.
 * @throws when DuckDB cannot start or attach the database.
 */
export async function openSpool(workDir: string, { checkpointCsvBytes = CHECKPOINT_CSV_BYTES, host }: { checkpointCsvBytes?: number; host?: SpoolHost } = {}): Promise<Spool> {
  const owner = host ?? (await openSpoolHost(workDir));
  const own = owner !== host;
  const { db } = owner;
  const name = owner.nextName();
  const con = await db.connect();
  await con.run(`ATTACH ':memory:' AS ${name} (COMPRESS)`);
  await con.run(`USE ${name}`);
  await con.run(`
    CREATE TABLE raw_price_rows (
      ${PRICE_KEY_COLUMNS.map(([c, t]) => `${c} ${t}`).join(', ')}, shape BIGINT,
      ${PRICE_ROW_COLUMNS.map((c) => `${c} ${codedType(c)}`).join(', ')});
    CREATE TABLE raw_shapes (shape BIGINT, ${PRICE_SHAPE_COLUMNS.map((c) => `${c} BIGINT`).join(', ')});
    CREATE VIEW raw_prices AS
    SELECT ${RAW_PRICE_COLUMNS.map((c) => `${(PRICE_SHAPE_COLUMNS as readonly string[]).includes(c) ? 's' : 'p'}.${c}`).join(', ')}
    FROM raw_price_rows p JOIN raw_shapes s ON s.shape = p.shape;
    CREATE TABLE raw_values (code BIGINT, value VARCHAR);
    CREATE VIEW raw_rates AS
    SELECT source_id, item_id, rate_index, price_index,
           ${GROUP_ID_UNNEST_SQL} AS provider_group_id, ${PRICE_COLUMN_NAMES.join(', ')}
    FROM raw_prices;
    CREATE TABLE raw_items (
      source_id INTEGER, item_id INTEGER, billing_code_type VARCHAR, billing_code VARCHAR,
      name VARCHAR, description VARCHAR, negotiation_arrangement VARCHAR);
    CREATE TABLE raw_groups (
      source_id INTEGER, provider_group_id VARCHAR, provider_id VARCHAR, npi VARCHAR, tin_type VARCHAR,
      tin_value VARCHAR, remote_location VARCHAR, network_name VARCHAR, ref_index INTEGER);
  `);
  /** Codes given so far: the next writer's codes start here. */
  let codeBase = 0;
  /** Shape codes given so far. */
  let shapeBase = 0;
  const readCsv = (list: string[], columns: string, long = false): string => `read_csv([${sqlList(list)}], header = false, delim = ',', quote = '"',
    escape = '"', allow_quoted_nulls = false, auto_detect = false, columns = ${columns},
    ${long ? `buffer_size = ${LONG_LINE_BYTES}, max_line_size = ${LONG_LINE_BYTES}` : `buffer_size = ${CSV_BUFFER_BYTES}`})`;
  /**
   * Runs the statement `sql(long)` over spool CSV files; once more with LONG_LINE_BYTES when a line
   * is too long for the usual buffer (the failed statement wrote nothing: DuckDB rolls it back).
   */
  const runCsv = async (sql: (long: boolean) => string): Promise<void> => {
    try {
      await con.run(sql(false));
    } catch (e) {
      if (!LINE_TOO_LONG.test((e as Error).message)) throw e;
      await con.run(sql(true));
    }
  };
  /** CSV bytes loaded since the last CHECKPOINT: stored as loaded, uncompressed. */
  let loaded = 0;
  const checkpoint = async (): Promise<void> => {
    await con.run(`CHECKPOINT ${name}`);
    loaded = 0;
  };
  /** Loads `files` into `table`, each row through `select` (SQL over the CSV's columns). */
  const load = async (table: (typeof RAW_TABLES)[number], files: string[], select = '*'): Promise<void> => {
    if (files.length === 0) return;
    let bytes = 0;
    for (const f of files) bytes += (await stat(f)).size;
    const read = async (list: string[]): Promise<void> => {
      await runCsv((long) => `INSERT INTO ${TABLE_OF[table]} SELECT ${select} FROM ${readCsv(list, RAW_COLUMNS[table], long)}`);
    };
    if (bytes <= checkpointCsvBytes) {
      await read(files);
      // small loads add up: past CHECKPOINT_CSV_BYTES together, they are stored compressed too
      loaded += bytes;
      if (loaded > checkpointCsvBytes) await checkpoint();
      return;
    }
    for (const f of files) {
      await read([f]);
      await checkpoint();
    }
  };
  return {
    con,
    async connect() {
      const more = await db.connect();
      await more.run(`USE ${name}`);
      return more;
    },
    load,
    async loadPrices({ prices, values, shapes, valueCodes, shapeCodes }) {
      const base = codeBase;
      const sBase = shapeBase;
      codeBase += valueCodes;
      shapeBase += shapeCodes;
      const shift = (c: string): string => (base === 0 ? c : `${c} + ${base}`);
      await load('raw_values', values, `${shift('code')}, value`);
      // a shape's text: its columns' value codes joined by SHAPE_SEPARATOR, empty for NULL (price-values.ts)
      const sep = String.fromCharCode(SHAPE_SEPARATOR);
      const parts = PRICE_SHAPE_COLUMNS.map((_, k) => shift(`CAST(nullif(split_part(value, '${sep}', ${k + 1}), '') AS BIGINT)`));
      await load('raw_shapes', shapes, `code + ${sBase}, ${parts.join(', ')}`);
      await load('raw_prices', prices, `${PRICE_KEY_COLUMNS.map(([c]) => c).join(', ')}, shape + ${sBase},
        ${PRICE_ROW_COLUMNS.map((c) => (isValueColumn(c) ? shift(c) : c)).join(', ')}`);
    },
    async loadTextPrices(files) {
      if (files.length === 0) return;
      await runCsv((long) => `CREATE TEMP TABLE text_prices AS SELECT * FROM ${readCsv(files, TEXT_PRICE_COLUMNS, long)}`);
      try {
        await con.run(`CREATE TEMP TABLE text_values AS
          SELECT CAST(${codeBase} + row_number() OVER (ORDER BY v) - 1 AS BIGINT) AS code, v AS value
          FROM (SELECT DISTINCT unnest([${PRICE_VALUE_COLUMNS.join(', ')}]) AS v FROM text_prices) WHERE v IS NOT NULL`);
        const n = await con.runAndReadAll('SELECT count(*) FROM text_values');
        codeBase += Number(n.getRows()[0]![0]);
        await con.run('INSERT INTO raw_values SELECT * FROM text_values');
        const joins = PRICE_VALUE_COLUMNS.map((c) => `LEFT JOIN text_values v_${c} ON v_${c}.value = t.${c}`).join(' ');
        await con.run(`CREATE TEMP TABLE coded_prices AS SELECT ${RAW_PRICE_COLUMNS.map((c) => (isValueColumn(c) ? `v_${c}.code AS ${c}` : `t.${c}`)).join(', ')}
          FROM text_prices t ${joins}`);
        // each distinct shape its code, as the parser threads give them
        const shape = PRICE_SHAPE_COLUMNS.join(', ');
        await con.run(`CREATE TEMP TABLE text_shapes AS
          SELECT CAST(${shapeBase} + row_number() OVER (ORDER BY ${shape}) - 1 AS BIGINT) AS shape, ${shape}
          FROM (SELECT DISTINCT ${shape} FROM coded_prices)`);
        const k = await con.runAndReadAll('SELECT count(*) FROM text_shapes');
        shapeBase += Number(k.getRows()[0]![0]);
        await con.run('INSERT INTO raw_shapes SELECT * FROM text_shapes');
        await con.run(`INSERT INTO raw_price_rows
          SELECT ${PRICE_KEY_COLUMNS.map(([c]) => `c.${c}`).join(', ')}, s.shape, ${PRICE_ROW_COLUMNS.map((c) => `c.${c}`).join(', ')}
          FROM coded_prices c JOIN text_shapes s ON ${PRICE_SHAPE_COLUMNS.map((x) => `s.${x} IS NOT DISTINCT FROM c.${x}`).join(' AND ')}`);
      } finally {
        await con.run('DROP TABLE IF EXISTS text_prices; DROP TABLE IF EXISTS text_values; DROP TABLE IF EXISTS coded_prices; DROP TABLE IF EXISTS text_shapes');
      }
    },
    async exportPartition(dir, sourceIds) {
      const ids = `[${sourceIds.map((id) => String(Math.trunc(id))).join(', ')}]::INTEGER[]`;
      const rebased = (table: string): string => `SELECT * REPLACE (CAST(list_position(${ids}, source_id) - 1 AS INTEGER) AS source_id) FROM ${table}`;
      const copy = async (select: string, to: string, options = ''): Promise<void> => {
        await con.run(`COPY (${select}) TO ${sqlString(to)} (FORMAT parquet, COMPRESSION zstd${options})`);
      };
      await copy(rebased('raw_items'), partitionFile(dir, 'raw_items'));
      await copy(rebased('(SELECT * EXCLUDE (ref_index) FROM raw_groups)'), partitionFile(dir, 'raw_groups'));
      await copy('SELECT * FROM raw_values', partitionFile(dir, 'raw_values'));
      await copy('SELECT * FROM raw_shapes', partitionFile(dir, 'raw_shapes'));
      // half the target per row group: the writer's threads each fill their own
      await copy(rebased('raw_price_rows'), partitionFile(dir, 'raw_price_rows'),
        `, ROW_GROUP_SIZE ${PARTITION_PART_ROWS / 2}, ROW_GROUPS_PER_FILE 1`);
    },
    async loadPartition(dir, sourceBase) {
      // the store's `insurer=`/`snapshot=` directories are not columns
      const parquet = (file: string): string => `read_parquet(${sqlString(file)}, hive_partitioning = false)`;
      const read = (table: (typeof PARTITION_TABLES)[number]): string => parquet(partitionFile(dir, table));
      const max = async (sql: string): Promise<number> => {
        const r = await con.runAndReadAll(sql);
        const v = r.getRows()[0]?.[0];
        return v === null || v === undefined ? 0 : Number(v) + 1;
      };
      const base = codeBase;
      const sBase = shapeBase;
      codeBase += await max(`SELECT max(code) FROM ${read('raw_values')}`);
      shapeBase += await max(`SELECT max(shape) FROM ${read('raw_shapes')}`);
      const shift = (c: string): string => `${c} + ${base}`;
      const moved = (table: string): string => `SELECT * REPLACE (source_id + ${sourceBase} AS source_id) FROM ${table}`;
      await con.run(`INSERT INTO raw_items ${moved(read('raw_items'))}`);
      await con.run(`INSERT INTO raw_groups BY NAME ${moved(read('raw_groups'))}`);
      await con.run(`INSERT INTO raw_values SELECT ${shift('code')}, value FROM ${read('raw_values')}`);
      await con.run(`INSERT INTO raw_shapes SELECT shape + ${sBase}, ${PRICE_SHAPE_COLUMNS.map((c) => shift(c)).join(', ')} FROM ${read('raw_shapes')}`);
      const parts = (await readdir(partitionFile(dir, 'raw_price_rows'))).filter((f) => f.endsWith('.parquet')).sort();
      for (const part of parts) {
        const from = parquet(path.join(partitionFile(dir, 'raw_price_rows'), part));
        const r = await con.run(`INSERT INTO raw_price_rows SELECT ${PRICE_KEY_COLUMNS.map(([c]) => (c === 'source_id' ? `source_id + ${sourceBase}` : c)).join(', ')},
          shape + ${sBase}, ${PRICE_ROW_COLUMNS.map((c) => (isValueColumn(c) ? shift(c) : c)).join(', ')} FROM ${from}`);
        loaded += r.rowsChanged * CSV_BYTES_PER_PRICE_ROW;
        if (loaded > checkpointCsvBytes) await checkpoint();
      }
    },
    async close() {
      try {
        // a host's instance stays, without this database and its memory; an instance of its own goes whole
        if (!own) await con.run(`USE memory; DETACH ${name}`);
      } finally {
        con.closeSync();
        if (own) owner.close();
      }
    },
  };
}
