/** What every /api handler receives: the open DuckDB, the dataset manifest and its helpers. */
import type { DatasetManifest, DerivedTableName, TableName } from '../contract/files/dataset';
import type { Database } from './db/database';
import type { ProviderGroupsLoader } from './db/provider-groups';
import type { RatesLoader } from './db/rates';
import type { StatsLoader } from './db/stats';
import type { AckStore } from './acks/ack-store';
import type { ResultMemo } from './memo';

/** Where the open dataset came from, for `GET /api/dataset`. */
export interface DatasetOrigin {
  origin: 'server' | 'local';
  /** Data URL (server) or directory name (local). */
  name: string;
  /** Bytes read from the dataset since it was opened. */
  bytesRead(): number;
  /**
   * Reads a file of the dataset directory by its relative name (`report.json`), on demand.
   * Absent where the opener gives none. @throws SourceError
   */
  readFile?(name: string): Promise<Uint8Array>;
}

export interface ApiContext {
  db: Database;
  manifest: DatasetManifest;
  /** Loads rate rows by billing code on demand (docs/architecture.md). */
  rates: RatesLoader;
  /**
   * `price_stats` by month (db/stats.ts): dispatch loads the months an endpoint declares
   * (endpoint.ts `stats`) before it runs; pricing-core.ts reads only rows it holds.
   */
  stats: StatsLoader;
  /**
   * `provider_groups` by source (db/provider-groups.ts): an endpoint joining the table loads the
   * months it reads first (`ensureMonths`).
   */
  providerGroups: ProviderGroupsLoader;
  /** Alert acknowledgements (IndexedDB in the browser). */
  acks: AckStore;
  dataset: DatasetOrigin;
  /**
   * Settles when the boot tables beyond the first ones (workers/data-service.ts LATER_TABLES) are
   * loaded; rejects with the reason when one cannot be. Endpoints that do not declare
   * `reads: 'first-tables'` (endpoint.ts) run only after it.
   */
  laterTables: Promise<void>;
  /**
   * Settles when later table `name` is loaded (at once for a first table, or a table this service
   * does not load: DataServiceOptions.laterTables); rejects as `laterTables` does. An endpoint
   * declaring the tables it reads (endpoint.ts `reads`) waits for these only.
   */
  tableLoaded(name: TableName): Promise<void>;
  /**
   * Loads the table `billing_providers` (docs/methodology.md, Where we bill it) on first call, for
   * the SQL that matches rate rows to billing providers (rate-rows.ts, provider-prices.ts); settles
   * once it is in. @throws SourceError, DatabaseError naming the file
   */
  billingProviders(): Promise<void>;
  /** Answers and pricing passes kept for this dataset (memo.ts). */
  memo: ResultMemo;
  /**
   * The rows [offset, offset + limit) (all from `offset` without `limit`) of the derived table
   * `name` (contract/files/dataset.ts DERIVED_TABLE_NAMES) that the manifest lists, as one Arrow IPC
   * stream, outside DuckDB. The file's bytes are read once (a failed read is tried again); only its
   * row groups holding those rows are decoded.
   * @throws SourceError or DatabaseError naming the file; Error when the manifest does not list it
   */
  readDerived(name: DerivedTableName, offset: number, limit?: number): Promise<Uint8Array>;
}
