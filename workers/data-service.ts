/**
 * The data worker's logic, independent of where it runs: `init(config)` boots once behind one
 * promise (`ready ??= open()`), `handle(request)` answers /api requests through the registry
 * (architecture.md §2-3). data-worker.ts exposes it with comlink in the browser; tests call it
 * directly on the Node platform.
 */
import type { ApiRequest, ApiResponse } from '../contract/api';
import { DATASET_FORMAT, DATASET_FORMAT_VERSION, TABLE_NAMES, type DatasetManifest, type TableName } from '../contract/dataset';
import type { BootState, DataWorkerApi, WorkerConfig } from '../contract/worker';
import type { Database } from './db/database';
import { SourceError } from './db/errors';
import { fetchTable, insertTable } from './db/load';
import type { ApiContext } from './api/context';
import { errorResponse } from './api/errors';
import { dispatch } from './api/registry';
import type { ByteSource, Platform } from './platform';

/** Tables loaded at boot: all but `rates`, which loads by billing code on demand (architecture.md §1). */
export const BOOT_TABLES: readonly TableName[] = TABLE_NAMES.filter((t) => t !== 'rates');

/** Timings of the last boot, in milliseconds (for benchmarks and the report). */
export interface BootTimings {
  manifest: number;
  database: number;
  total: number;
}

export interface DataService extends DataWorkerApi {
  /** Boot timings once ready, else null. */
  timings(): BootTimings | null;
  /** Closes DuckDB (tests). */
  close(): Promise<void>;
}

/** Parses and checks manifest.json. @throws Error naming the problem. */
export function parseManifest(bytes: Uint8Array): DatasetManifest {
  let m: Partial<DatasetManifest>;
  try {
    m = JSON.parse(new TextDecoder().decode(bytes)) as Partial<DatasetManifest>;
  } catch {
    throw new Error('manifest.json is not valid JSON');
  }
  if (m.format !== DATASET_FORMAT || m.format_version !== DATASET_FORMAT_VERSION) {
    throw new Error(
      `unsupported dataset: format ${String(m.format)} version ${String(m.format_version)} (expected ${DATASET_FORMAT} ${DATASET_FORMAT_VERSION})`,
    );
  }
  for (const t of BOOT_TABLES) if (!m.tables?.[t]) throw new Error(`manifest.json lists no table ${t}`);
  if (!Array.isArray(m.insurers) || !Array.isArray(m.snapshots) || !m.reference_insurer) {
    throw new Error('manifest.json lacks insurers, snapshots or reference_insurer');
  }
  return m as DatasetManifest;
}

function failure(e: unknown): BootState {
  const reason = e instanceof Error ? e.message : String(e);
  return e instanceof SourceError && e.httpStatus !== undefined
    ? { status: 'failed', reason, httpStatus: e.httpStatus }
    : { status: 'failed', reason };
}

/** Creates the service on a platform (browser or Node). Nothing starts before `init`. */
export function createDataService(platform: Platform): DataService {
  let ready: Promise<BootState> | undefined;
  let ctx: ApiContext | undefined;
  let dbOpening: Promise<Database> | undefined;
  let timings: BootTimings | null = null;

  async function open(config: WorkerConfig): Promise<BootState> {
    const t0 = performance.now();
    try {
      const source: ByteSource = platform.source(config.dataUrl);
      // DuckDB's boot and the first fetches each cost about a second: start both now (architecture.md §2).
      dbOpening = platform.openDatabase();
      const database = dbOpening.then((db) => ({ db, at: performance.now() - t0 }));
      const decoder = platform.parquetDecoder();
      database.catch(() => {});
      decoder.catch(() => {});
      const manifest = parseManifest(await source.read('manifest.json'));
      const manifestAt = performance.now() - t0;
      const fetched = Promise.all(BOOT_TABLES.map((t) => fetchTable(source, t, manifest.tables[t].files)));
      const [{ db, at }, decode, tables] = await Promise.all([database, decoder, fetched]);
      for (const table of tables) insertTable(db, decode, table);
      ctx = { db, manifest };
      timings = { manifest: manifestAt, database: at, total: performance.now() - t0 };
      return {
        status: 'ready',
        createdAt: manifest.created_at,
        snapshots: manifest.snapshots,
        referenceInsurer: manifest.reference_insurer,
        origin: platform.origin,
      };
    } catch (e) {
      return failure(e);
    }
  }

  return {
    init(config: WorkerConfig): Promise<BootState> {
      ready ??= open(config);
      return ready;
    },
    async handle(request: ApiRequest): Promise<ApiResponse> {
      if (!ready) return errorResponse(503, 'unavailable', 'dataset not loaded: init was not called');
      const state = await ready;
      if (state.status === 'failed' || !ctx) {
        const reason = state.status === 'failed' ? state.reason : 'dataset not loaded';
        if (state.status === 'failed' && state.httpStatus === 401) return errorResponse(401, 'unauthorized', reason);
        return errorResponse(503, 'unavailable', `dataset not loaded: ${reason}`);
      }
      return dispatch(request, ctx);
    },
    timings: () => timings,
    async close(): Promise<void> {
      if (dbOpening) (await dbOpening.catch(() => null))?.close();
    },
  };
}
