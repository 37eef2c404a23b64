/**
 * The data service's boot (contract/api/worker.ts BootState) on the Node platform: ready over a
 * converted dataset, failed with a reason otherwise, 401 kept as httpStatus; handle() before and
 * after; one boot behind one promise; DuckDB never reaches for an extension.
 */
import { memoryContext } from './memory-context';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ApiErrorBody, ProvidersForService } from '../../contract/api';
import { DATASET_FORMAT_VERSION } from '../../contract/files/dataset';
import { createDataService } from '../../workers/data-service';
import { nodePlatform } from '../../workers/platform-node';
import { SourceError } from '../../workers/db/errors';
import { openNodeDatabase } from '../../workers/db/open-node';
import { sql } from '../../workers/db/sql';
import { dispatch } from '../../workers/api/registry';
import type { Platform } from '../../workers/platform';
import { convertFixture } from './fixture-dataset';
import { splitRateRowGroups } from './small-row-groups';

let root = '';
let dir = '';

beforeAll(async () => {
  ({ root, dir } = await convertFixture());
});
afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

describe('boot', () => {
  it('is ready over a converted dataset, once, and answers after', async () => {
    const service = createDataService(nodePlatform);
    const first = service.init({ dataUrl: dir + '/' });
    expect(service.init({ dataUrl: '/elsewhere/' })).toBe(first);
    const state = await first;
    const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as { created_at: string };
    expect(state).toEqual({
      status: 'ready',
      createdAt: manifest.created_at,
      snapshots: ['2025-01', '2025-02'],
      referenceInsurer: 'ref',
      origin: 'local',
    });
    const t = service.timings()!;
    expect(t.total).toBeGreaterThan(0);
    console.log(`boot (Node, fixture): ${t.total.toFixed(0)} ms total, DuckDB ready at ${t.database.toFixed(0)} ms`);
    expect((await service.handle({ method: 'GET', path: '/api/insurers', query: {} })).status).toBe(200);
    await service.close();
  });

  it('answers 503 before init', async () => {
    const res = await createDataService(nodePlatform).handle({ method: 'GET', path: '/api/insurers', query: {} });
    expect(res.status).toBe(503);
    expect((res.body as ApiErrorBody).error.code).toBe('unavailable');
  });

  it('fails with a reason when the dataset is missing, and handle says so', async () => {
    const service = createDataService(nodePlatform);
    const state = await service.init({ dataUrl: join(root, 'missing') + '/' });
    expect(state).toEqual({ status: 'failed', reason: 'cannot read manifest.json: ENOENT', httpStatus: 404 });
    const res = await service.handle({ method: 'GET', path: '/api/insurers', query: {} });
    expect(res).toEqual({
      status: 503,
      body: {
        message: 'dataset not loaded: cannot read manifest.json: ENOENT',
        error: { code: 'unavailable', message: 'dataset not loaded: cannot read manifest.json: ENOENT' },
      },
    });
    await service.close();
  });

  it('keeps a 401 of the dataset request as httpStatus and answers 401', async () => {
    const denied: Platform = {
      ...nodePlatform,
      source: () => ({
        read: async (file) => {
          throw new SourceError(`GET /data/${file}: HTTP 401`, 401);
        },
        blob: () => {
          throw new SourceError('GET /data/rates: HTTP 401', 401);
        },
      }),
    };
    const service = createDataService(denied);
    expect(await service.init({ dataUrl: '/data/' })).toEqual({ status: 'failed', reason: 'GET /data/manifest.json: HTTP 401', httpStatus: 401 });
    const res = await service.handle({ method: 'GET', path: '/api/service-pricing', query: {} });
    expect(res.status).toBe(401);
    expect((res.body as ApiErrorBody).error.code).toBe('unauthorized');
    await service.close();
  });

  it('answers 401, never hangs, when the session ends after boot and a rates read is refused', async () => {
    // parquet-wasm panics on a failed row-group read it makes itself (workers/db/row-group-reader.ts).
    const split = join(root, 'split');
    await cp(dir, split, { recursive: true });
    await splitRateRowGroups(split, 4); // groups of 4 rows: 70450 in groups 0-2, G0008 in groups 5 and 6
    let expired = false;
    const expiring: Platform = {
      ...nodePlatform,
      source: (dataUrl) => {
        const files = nodePlatform.source(dataUrl);
        return {
          read: (file) => files.read(file),
          blob: (file, size) => ({
            size,
            slice: (start, end) => ({
              arrayBuffer: () => {
                if (expired) return Promise.reject(new SourceError(`GET /data/${file}: HTTP 401`, 401));
                return files.blob(file, size).slice(start, end).arrayBuffer();
              },
            }),
          }),
        };
      },
    };
    const service = createDataService(expiring);
    expect((await service.init({ dataUrl: split + '/' })).status).toBe('ready');
    const providers = (code: string) => service.handle({ method: 'GET', path: '/api/providers-for-service', query: { service_id: code } });
    const message = 'GET /data/rates/part-0.parquet: HTTP 401';
    const refused = { status: 401, body: { message, error: { code: 'unauthorized', message } } };
    expired = true; // the footer read is refused: the rates' or the provider groups', whichever the two reads in parallel meet first
    const first = await providers('70450');
    const named = (first.body as { message: string }).message;
    expect(named).toMatch(/^GET \/data\/(rates\/part-0|provider_groups)\.parquet: HTTP 401$/);
    expect(first).toEqual({ status: 401, body: { message: named, error: { code: 'unauthorized', message: named } } });
    expired = false; // signed in again: the footer and groups 0-2 are read
    expect((await providers('70450')).status).toBe(200);
    expired = true; // the row groups of G0008 are refused
    expect(await providers('G0008')).toEqual(refused);
    expired = false;
    const g = await providers('G0008');
    // G0008 rows: ref T, alpha A, beta B (service-pricing.test.ts header): three providers.
    expect((g.body as ProvidersForService).total).toBe(3);
    await service.close();
  });

  it('refuses another dataset format, telling to convert a dataset of an older format again', async () => {
    const other = join(root, 'other');
    await cp(dir, other, { recursive: true });
    const m = JSON.parse(await readFile(join(other, 'manifest.json'), 'utf8')) as Record<string, unknown>;
    const v = DATASET_FORMAT_VERSION;
    expect(m.format_version).toBe(v);
    const reasons: Record<number, string> = {
      [v - 1]: `unsupported dataset: format compete-dataset version ${v - 1} (expected compete-dataset ${v}): it was written by an older converter; `
        + 'convert it again with this version (npm run convert -- --catalog <catalog.json> --out <dataset-dir>)',
      [v + 1]: `unsupported dataset: format compete-dataset version ${v + 1} (expected compete-dataset ${v}): it was written by a newer converter; `
        + 'open it with the app of that version',
    };
    for (const [version, reason] of Object.entries(reasons)) {
      await writeFile(join(other, 'manifest.json'), JSON.stringify({ ...m, format_version: Number(version) }));
      const service = createDataService(nodePlatform);
      expect(await service.init({ dataUrl: other + '/' })).toEqual({ status: 'failed', reason });
      await service.close();
    }
  });

  it('fails when a table file is corrupt', async () => {
    const broken = join(root, 'broken');
    await cp(dir, broken, { recursive: true });
    await writeFile(join(broken, 'price_stats.parquet'), 'not parquet');
    const service = createDataService(nodePlatform);
    const state = await service.init({ dataUrl: broken + '/' });
    expect(state.status).toBe('failed');
    expect(state.status === 'failed' && state.reason).toMatch(/^cannot decode price_stats\.parquet: /);
    await service.close();
  });
});

describe('failures inside a handler', () => {
  it('answers 500 with the reason', async () => {
    // An empty database: the endpoint's SQL finds none of the dataset's tables.
    const db = await openNodeDatabase();
    const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8'));
    const ctx = memoryContext(db, 'empty', manifest);
    const res = await dispatch({ method: 'GET', path: '/api/service-pricing', query: {} }, ctx);
    expect(res.status).toBe(500);
    const body = res.body as ApiErrorBody;
    expect(body.error.code).toBe('internal');
    expect(body.message).toMatch(/^(query|statement) failed: Catalog Error: Table with name (price_stats|stats_snapshots|services|claims_volume) does not exist/);
    expect(body.error.message).toBe(body.message);
    db.close();
  });

  // "At once": a download attempt would hang past the test's own timeout (no stopwatch in tests).
  it('never loads an extension: a query needing one fails at once', { timeout: 20_000 }, async () => {
    const db = await openNodeDatabase();
    expect(() => db.all(sql`SELECT * FROM read_parquet(${'https://example.invalid/x.parquet'})`)).toThrow(/parquet/);
    db.close();
  });
});

describe('the Node opener (workers/db/open-node.ts)', () => {
  it('opens an empty database in the bindings of a closed one, and a closed database answers nothing more', async () => {
    const first = await openNodeDatabase();
    first.exec(sql`CREATE TABLE kept AS SELECT 42 AS x`);
    first.close();
    expect(() => first.all(sql`SELECT 1 AS one`)).toThrow(/closed/);
    // the next database starts empty, with the offline settings again, whichever bindings it runs in
    const [second, third] = [await openNodeDatabase(), await openNodeDatabase()];
    try {
      for (const db of [second, third]) {
        expect(db.all<{ n: number }>(sql`SELECT count(*)::INTEGER AS n FROM duckdb_tables() WHERE table_name = 'kept'`)).toEqual([{ n: 0 }]);
        expect(db.all<{ v: string }>(sql`SELECT current_setting('autoload_known_extensions')::VARCHAR AS v`)).toEqual([{ v: 'false' }]);
      }
      second.exec(sql`CREATE TABLE mine AS SELECT 1 AS x`);
      expect(third.all<{ n: number }>(sql`SELECT count(*)::INTEGER AS n FROM duckdb_tables() WHERE table_name = 'mine'`)).toEqual([{ n: 0 }]);
    } finally {
      second.close();
      third.close();
    }
    // closed twice: its bindings are not given to two databases
    second.close();
    const [a, b] = [await openNodeDatabase(), await openNodeDatabase()];
    a.exec(sql`CREATE TABLE only_a AS SELECT 1 AS x`);
    expect(b.all<{ n: number }>(sql`SELECT count(*)::INTEGER AS n FROM duckdb_tables() WHERE table_name = 'only_a'`)).toEqual([{ n: 0 }]);
    a.close();
    b.close();
  });
});
