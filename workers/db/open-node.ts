/**
 * Opens DuckDB-WASM's own Node build (`duckdb-node-blocking`) for tests and benchmarks, so the SQL
 * that ships is the SQL that is tested (docs/architecture.md). Node only: never imported by the
 * browser entry.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { databaseOf, type Database } from './database';
import { applyOfflineSettings } from './boot-sql';
import { DatabaseError } from './errors';
import { sql } from './sql';

type NodeBlocking = typeof import('@duckdb/duckdb-wasm/blocking');

const require = createRequire(import.meta.url);

/** The Emscripten hook of DuckDB-WASM's Node bindings that instantiates the wasm file (protected in its types). */
interface InstantiateHook {
  mainModulePath: string;
  instantiateWasm(imports: WebAssembly.Imports, done: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void): unknown;
}

/**
 * The compiled wasm modules of this process, by file. The bindings compile their file on every
 * boot (about 0.3 CPU s for its 34 MB); a test process boots DuckDB dozens of times.
 */
const compiled = new Map<string, WebAssembly.Module>();

/**
 * Makes `bindings` instantiate from the module compiled by an earlier boot of this process, when
 * there is one. The bindings' own hook runs the first time: it also sets the DuckDB runtime
 * (`globalThis.DUCKDB_RUNTIME`) that every later instance of the Node build shares.
 */
function reuseCompiledModule(bindings: unknown): void {
  const hook = bindings as InstantiateHook;
  const own = hook.instantiateWasm.bind(hook);
  hook.instantiateWasm = (imports, done) => {
    const module = compiled.get(hook.mainModulePath);
    if (!module) {
      return own(imports, (instance, m) => {
        compiled.set(hook.mainModulePath, m);
        done(instance, m);
      });
    }
    void WebAssembly.instantiate(module, imports).then((instance) => done(instance, module));
    return [];
  };
}

/** How openNodeDatabase boots. */
export interface NodeOpenOptions {
  /**
   * Compile the wasm file anew, as a browser's first visit does: for a benchmark that times a cold
   * start (bench/api.bench.ts). Otherwise a boot after the first of this process instantiates the
   * module that boot compiled.
   */
  compileAgain?: boolean;
}

/** The bindings of DuckDB-WASM's Node build, as openNodeDatabase uses them. */
type NodeBindings = Awaited<ReturnType<NodeBlocking['createDuckDB']>>;

/**
 * Bindings whose database was closed, at most MAX_IDLE_BINDINGS: a boot opens a fresh database in
 * one of them (about 0.05 CPU s) where instantiating the module again costs about 1 CPU s of
 * Emscripten's dynamic linking and DuckDB's start. A test process boots DuckDB dozens of times.
 */
const idle: NodeBindings[] = [];

/** Idle bindings kept: each keeps the wasm memory its largest database grew it to. */
const MAX_IDLE_BINDINGS = 2;

async function instantiateBindings(options: NodeOpenOptions): Promise<NodeBindings> {
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
  if (!options.compileAgain) reuseCompiledModule(bindings);
  await bindings.instantiate(() => {});
  return bindings;
}

/**
 * Boots DuckDB-WASM in Node from the installed package's wasm files: a fresh, empty database,
 * in the bindings of a closed one when there are any (not with `compileAgain`, which times a
 * whole cold start). @throws Error when they cannot load.
 */
export async function openNodeDatabase(options: NodeOpenOptions = {}): Promise<Database> {
  const bindings = (options.compileAgain ? undefined : idle.pop()) ?? (await instantiateBindings(options));
  // open() drops the bindings' previous database, if any, and starts an empty one
  bindings.open({});
  const db = databaseOf(bindings.connect());
  applyOfflineSettings(db);
  let closed = false;
  // a closed database's connection id may be given again in these bindings' next database: a call
  // after close must not reach it
  const open = (): void => {
    if (closed) throw new DatabaseError('the database is closed');
  };
  return {
    all: (query) => (open(), db.all(query)),
    exec: (query) => (open(), db.exec(query)),
    insertArrowIpc: (name, ipc, append) => (open(), db.insertArrowIpc(name, ipc, append)),
    close(): void {
      if (closed) return;
      closed = true;
      // bindings that no longer answer (an aborted wasm instance throws on every call) are not kept
      let answers = true;
      try {
        db.all(sql`SELECT 1 AS ok`);
      } catch {
        answers = false;
      }
      db.close();
      if (answers && !options.compileAgain && idle.length < MAX_IDLE_BINDINGS) idle.push(bindings);
    },
  };
}
