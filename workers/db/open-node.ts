/**
 * Opens DuckDB-WASM's own Node build (`duckdb-node-blocking`) for tests and benchmarks, so the SQL
 * that ships is the SQL that is tested (docs/architecture.md). Node only: never imported by the
 * browser entry.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { databaseOf, type Database, type DuckConnectionLike } from './database';
import { applyOfflineSettings } from './boot-sql';

type NodeBlocking = typeof import('@duckdb/duckdb-wasm/blocking');

const require = createRequire(import.meta.url);

/** Boots DuckDB-WASM in Node from the installed package's wasm files. @throws Error when they cannot load. */
export async function openNodeDatabase(): Promise<Database> {
  const db = databaseOf(await openNodeConnection());
  applyOfflineSettings(db);
  return db;
}

/** A connection to a DuckDB-WASM booted in Node, not yet wrapped by databaseOf. @throws Error when the wasm files cannot load. */
export async function openNodeConnection(): Promise<DuckConnectionLike> {
  const duckdb = require('@duckdb/duckdb-wasm/dist/duckdb-node-blocking.cjs') as NodeBlocking;
  const dist = dirname(require.resolve('@duckdb/duckdb-wasm/dist/duckdb-node-blocking.cjs'));
  const bindings = await duckdb.createDuckDB(
    {
      mvp: { mainModule: join(dist, 'duckdb-mvp.wasm'), mainWorker: '' },
      eh: { mainModule: join(dist, 'duckdb-eh.wasm'), mainWorker: '' },
    },
    new duckdb.VoidLogger(),
    duckdb.NODE_RUNTIME,
  );
  await bindings.instantiate(() => {});
  bindings.open({});
  return bindings.connect();
}
