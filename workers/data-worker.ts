/**
 * The data worker: a module Web Worker that owns DuckDB-WASM, the Parquet reader and the /api
 * handlers, exposed to the page with comlink as `DataWorkerApi` (contract/api/worker.ts,
 * docs/architecture.md). The page creates it with
 * `new Worker(new URL('../../workers/data-worker.ts', import.meta.url), { type: 'module' })`.
 */
import { expose } from 'comlink';
import type { DataWorkerApi } from '../contract/api';
import { createDataService } from './data-service';
import { browserPlatform } from './platform-browser';

const service = createDataService(browserPlatform, { warmSelection: true });

const api: DataWorkerApi = {
  init: (config) => service.init(config),
  handle: (request) => service.handle(request),
  openLocal: (files, onProgress) => service.openLocal(files, onProgress),
};

expose(api);
