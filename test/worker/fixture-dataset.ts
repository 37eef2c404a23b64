/**
 * Test helper: converts test/fixtures/api/catalog.json with the real converter into a temporary
 * directory and boots the data service on it with the Node platform (DuckDB-WASM's Node build,
 * parquet-wasm's Node build), so the SQL that ships is the SQL under test.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { convertCatalog } from '../../scripts/convert/index';
import type { ApiResponse } from '../../contract/api';
import type { BootState } from '../../contract/worker';
import { createDataService, type DataService } from '../../workers/data-service';
import { nodePlatform } from '../../workers/platform-node';

export const FIXTURE_CATALOG = fileURLToPath(new URL('../fixtures/api/catalog.json', import.meta.url));

export interface BootedFixture {
  service: DataService;
  state: BootState;
  dir: string;
  bootMs: number;
  /** GET `path` with `query`, through `handle`. */
  get(path: string, query?: Record<string, string>): Promise<ApiResponse>;
  dispose(): Promise<void>;
}

/** Converts the fixture catalog into a fresh temporary directory; returns the dataset dir. */
export async function convertFixture(): Promise<{ root: string; dir: string }> {
  const root = await mkdtemp(join(tmpdir(), 'compete-api-'));
  const dir = join(root, 'dataset');
  await convertCatalog(FIXTURE_CATALOG, dir, { quiet: true });
  return { root, dir };
}

/** Converts and boots; `dispose()` closes DuckDB and removes the directory. */
export async function bootFixture(): Promise<BootedFixture> {
  const { root, dir } = await convertFixture();
  const service = createDataService(nodePlatform);
  const t0 = performance.now();
  const state = await service.init({ dataUrl: dir + '/' });
  const bootMs = performance.now() - t0;
  return {
    service,
    state,
    dir,
    bootMs,
    get: (path, query = {}) => service.handle({ method: 'GET', path, query }),
    async dispose() {
      await service.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}
