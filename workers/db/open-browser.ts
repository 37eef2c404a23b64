/**
 * Opens DuckDB-WASM in the browser worker with its synchronous (blocking) bindings
 * (docs/architecture.md). The wasm files are Vite `?url` imports: bundled and served by our origin.
 * The page compiles the wasm while this worker's script loads (src/api/duckdb-wasm.ts) and hands
 * the module over (`takeCompiledWasm`); the bindings then only instantiate it.
 */
import * as duckdb from '@duckdb/duckdb-wasm/blocking';
import type { DuckDBRuntime } from '@duckdb/duckdb-wasm/blocking';
import mvpWasm from '@duckdb/duckdb-wasm/dist/duckdb-mvp.wasm?url';
import ehWasm from '@duckdb/duckdb-wasm/dist/duckdb-eh.wasm?url';
import type { CompiledWasm } from '../../contract/worker';
import { databaseOf, type Database } from './database';
import { applyOfflineSettings } from './boot-sql';

// vite.config.ts aliases this import to dist/duckdb-browser-blocking.mjs, but TypeScript reads
// the package's types for the Node build, which lack BROWSER_RUNTIME: name it here, once.
const { BROWSER_RUNTIME } = duckdb as unknown as { BROWSER_RUNTIME: DuckDBRuntime };

/** What the bindings' emscripten module calls to instantiate the wasm (DuckDB-WASM's `instantiateWasm`). */
type InstantiateWasm = (imports: WebAssembly.Imports, done: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) => object;

let received: (compiled: CompiledWasm | null) => void = () => undefined;
/** The page's compiled module (null: the page could not compile it); settles once, on `takeCompiledWasm`. */
const fromPage = new Promise<CompiledWasm | null>((resolve) => {
  received = resolve;
});
/** The module of the first boot, reused by every later one (a local snapshot opens a new DuckDB). */
let booted: CompiledWasm | null = null;

/** Takes the page's compile of the wasm (contract/worker.ts `useWasm`); the first call counts. */
export function takeCompiledWasm(compiled: CompiledWasm | null): void {
  received(compiled);
}

/**
 * Instantiates `compiled` when it is the bundle the bindings ask for, else fetches and compiles
 * that bundle with `instantiateStreaming` on the server's response (so the browser may cache the
 * compiled code, which DuckDB's own loader forgoes). Rejects `failed` on an error, which the
 * emscripten module would otherwise wait on forever.
 */
function instantiator(url: string, compiled: CompiledWasm | null, failed: (e: unknown) => void): InstantiateWasm {
  return (imports, done) => {
    // what DuckDB's own instantiateWasm sets first: its file system calls reach the runtime by it
    (globalThis as { DUCKDB_RUNTIME?: DuckDBRuntime }).DUCKDB_RUNTIME = BROWSER_RUNTIME;
    const module = compiled?.url === url ? compiled.module : null;
    const instantiated = module
      ? WebAssembly.instantiate(module, imports).then((instance) => ({ instance, module }))
      : WebAssembly.instantiateStreaming(fetch(url, { credentials: 'same-origin' }), imports);
    instantiated.then((r) => {
      booted = { url, module: r.module };
      done(r.instance, r.module);
    }, failed);
    return {};
  };
}

/** Boots DuckDB (MVP or EH build, whichever the browser supports). @throws Error when the wasm cannot load. */
export async function openBrowserDatabase(): Promise<Database> {
  const bindings = await duckdb.createDuckDB(
    { mvp: { mainModule: mvpWasm, mainWorker: '' }, eh: { mainModule: ehWasm, mainWorker: '' } },
    new duckdb.VoidLogger(),
    BROWSER_RUNTIME,
  );
  const slot = bindings as unknown as { mainModuleURL: string; instantiateWasm: InstantiateWasm };
  const url = new URL(slot.mainModuleURL, self.location.href).href;
  let fail: (e: unknown) => void = () => undefined;
  const failed = new Promise<never>((_, reject) => {
    fail = reject;
  });
  slot.instantiateWasm = instantiator(url, booted ?? (await fromPage), fail);
  await Promise.race([bindings.instantiate(() => {}), failed]);
  bindings.open({});
  const db = databaseOf(bindings.connect());
  applyOfflineSettings(db);
  return db;
}
