/**
 * The converter's working database: a disk-backed DuckDB (native client) into which the streaming
 * reader's events are appended as raw rows, to be joined and aggregated in SQL at the end
 * (architecture.md §5: provider groups stored apart from rates, never rates x NPIs while streaming).
 *
 * Raw tables:
 * - `raw_rates(source_id, item_id, provider_group_id, billing_class, negotiated_type, negotiated_rate,
 *   service_codes, modifiers, expiration_date, setting, additional_information)` one row per price x
 *   referenced group; `provider_group_id` NULL when the rate names no group.
 * - `raw_items(source_id, item_id, billing_code_type, billing_code, name, description, negotiation_arrangement)`.
 * - `raw_groups(source_id, provider_group_id, provider_id, npi, tin_type, tin_value, remote_location)` one row
 *   per provider (provider_id by metrics.md: the NPI, else `TIN:<tin>`, NULL when neither);
 *   a remote (`location`) group not fetched has one row with `remote_location` set and no provider.
 */
import { DuckDBInstance, type DuckDBAppender, type DuckDBConnection } from '@duckdb/node-api';
import path from 'node:path';

/** DuckDB's memory cap for the conversion; its default would take 80 % of RAM (architecture.md §5). */
export const DUCKDB_MEMORY_LIMIT = '1GB';

/** An open working database with one appender per raw table, open while a file streams in. */
export interface Spool {
  db: DuckDBInstance;
  con: DuckDBConnection;
  rates: DuckDBAppender;
  items: DuckDBAppender;
  groups: DuckDBAppender;
  /** Opens fresh appenders for the next file. */
  openAppenders(): Promise<void>;
  /** Flushes and closes the appenders (call before running SQL on the raw tables). */
  closeAppenders(): void;
  /** Deletes every raw row of one source (a file that failed half-way). */
  discardSource(sourceId: number): Promise<void>;
  close(): void;
}

/**
 * Opens a fresh working database in `workDir` (which must exist and be empty of `work.duckdb`).
 * @throws when DuckDB cannot create the database file.
 */
export async function openSpool(workDir: string): Promise<Spool> {
  const db = await DuckDBInstance.create(path.join(workDir, 'work.duckdb'), {
    memory_limit: DUCKDB_MEMORY_LIMIT,
    temp_directory: path.join(workDir, 'duckdb-tmp'),
    threads: '2',
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
  });
  const con = await db.connect();
  await con.run(`
    CREATE TABLE raw_rates (
      source_id INTEGER, item_id INTEGER, provider_group_id VARCHAR, billing_class VARCHAR,
      negotiated_type VARCHAR, negotiated_rate DOUBLE, service_codes VARCHAR, modifiers VARCHAR,
      expiration_date VARCHAR, setting VARCHAR, additional_information VARCHAR);
    CREATE TABLE raw_items (
      source_id INTEGER, item_id INTEGER, billing_code_type VARCHAR, billing_code VARCHAR,
      name VARCHAR, description VARCHAR, negotiation_arrangement VARCHAR);
    CREATE TABLE raw_groups (
      source_id INTEGER, provider_group_id VARCHAR, provider_id VARCHAR, npi VARCHAR, tin_type VARCHAR,
      tin_value VARCHAR, remote_location VARCHAR);
  `);
  let open = false;
  const spool: Spool = {
    db,
    con,
    rates: undefined as unknown as DuckDBAppender,
    items: undefined as unknown as DuckDBAppender,
    groups: undefined as unknown as DuckDBAppender,
    async openAppenders() {
      if (open) return;
      spool.rates = await con.createAppender('raw_rates');
      spool.items = await con.createAppender('raw_items');
      spool.groups = await con.createAppender('raw_groups');
      open = true;
    },
    closeAppenders() {
      if (!open) return;
      open = false;
      for (const a of [spool.rates, spool.items, spool.groups]) a.closeSync();
    },
    async discardSource(sourceId: number) {
      spool.closeAppenders();
      for (const t of ['raw_rates', 'raw_items', 'raw_groups']) await con.run(`DELETE FROM ${t} WHERE source_id = $1`, [sourceId]);
    },
    close() {
      spool.closeAppenders();
      con.closeSync();
      db.closeSync();
    },
  };
  return spool;
}

/** Appends a VARCHAR that may be absent ('' or null are stored as NULL). */
export function appendText(a: DuckDBAppender, v: string | null | undefined): void {
  if (v == null || v === '') a.appendNull();
  else a.appendVarchar(v);
}
