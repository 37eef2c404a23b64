/**
 * Opens DuckDB-WASM in the browser worker with its synchronous (blocking) bindings
 * (docs/architecture.md). The wasm files are Vite `?url` imports: bundled and served by our origin.
 */
import * as duckdb from '@duckdb/duckdb-wasm/blocking';
import type { DuckDBRuntime } from '@duckdb/duckdb-wasm/blocking';
import mvpWasm from '@duckdb/duckdb-wasm/dist/duckdb-mvp.wasm?url';
import ehWasm from '@duckdb/duckdb-wasm/dist/duckdb-eh.wasm?url';
import { databaseOf, type Database } from './database';
import { applyOfflineSettings } from './boot-sql';

// vite.config.ts aliases this import to dist/duckdb-browser-blocking.mjs, but TypeScript reads
// the package's types for the Node build, which lack BROWSER_RUNTIME: name it here, once.
const { BROWSER_RUNTIME } = duckdb as unknown as { BROWSER_RUNTIME: DuckDBRuntime };

/** Boots DuckDB (MVP or EH build, whichever the browser supports). @throws Error when the wasm cannot load. */
export async function openBrowserDatabase(): Promise<Database> {
  const bindings = await duckdb.createDuckDB(
    { mvp: { mainModule: mvpWasm, mainWorker: '' }, eh: { mainModule: ehWasm, mainWorker: '' } },
    new duckdb.VoidLogger(),
    BROWSER_RUNTIME,
  );
  await bindings.instantiate(() => {});
  bindings.open({});
  const db = databaseOf(bindings.connect());
  applyOfflineSettings(db);
  return db;
}
