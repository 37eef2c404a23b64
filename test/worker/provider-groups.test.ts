/**
 * `provider_groups` by source (workers/db/provider-groups.ts, docs/architecture.md Provider groups
 * by source): the boot loads none (the browser's worker loads the latest month's behind its
 * warm-up); a request loads the row groups of the sources of the month it reads, once; every
 * answer equals the one of the same dataset whose table loads whole at boot.
 * The dataset is the tiny market-year shape (scripts/generate: 3 monthly snapshots, 10 insurers),
 * its provider_groups written again by the converter's writer in row groups of 2,048 rows
 * (DuckDB's smallest), so that a month's sources are some of 8 row groups.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cp, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import type { ApiRequest } from '../../contract/api';
import type { DatasetManifest } from '../../contract/files/dataset';
import { memoryAckStore } from '../../workers/acks/ack-store';
import { createDataService, type DataService } from '../../workers/data-service';
import { chosenSources } from '../../workers/db/provider-groups';
import { sql } from '../../workers/db/sql';
import { nodePlatform } from '../../workers/platform-node';
import { writeTable } from '../../scripts/convert/build/output/write-parquet';
import { sqlString } from '../../scripts/convert/spool/spool';
import { sharedShape } from '../datasets-once';

let root: string;
let lazy: DataService;
let whole: DataService;
let manifest: DatasetManifest;

/** Writes `dir`'s provider_groups.parquet again in row groups of `rows` rows, with its manifest entry. */
async function smallRowGroups(dir: string, rows: number): Promise<DatasetManifest> {
  const m = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as DatasetManifest;
  const inst = await DuckDBInstance.create(':memory:');
  const con = await inst.connect();
  await con.run(`CREATE TABLE provider_groups AS SELECT * FROM read_parquet(${sqlString(join(dir, 'provider_groups.parquet'))})`);
  const values = m.sources.map((s, id) => `(${id}, ${sqlString(s.insurer_id)}, ${sqlString(s.snapshot)})`).join(', ');
  await con.run(`CREATE TABLE sources AS SELECT * FROM (VALUES ${values}) t(source_id, insurer_id, snapshot)`);
  await rename(join(dir, 'provider_groups.parquet'), join(dir, 'provider_groups.old'));
  m.tables.provider_groups = await writeTable(con, 'provider_groups', dir, rows);
  con.closeSync();
  await writeFile(join(dir, 'manifest.json'), JSON.stringify(m));
  return m;
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'compete-groups-'));
  const dir = join(root, 'dataset');
  await sharedShape('market-year', dir, { tiny: true });
  manifest = await smallRowGroups(dir, 2048);
  // the same dataset without the source index: provider_groups loads whole behind the first tables
  const copy = join(root, 'whole');
  await cp(dir, copy, { recursive: true });
  const m = JSON.parse(await readFile(join(copy, 'manifest.json'), 'utf8')) as DatasetManifest;
  delete m.tables.provider_groups.source_index;
  await writeFile(join(copy, 'manifest.json'), JSON.stringify(m));
  lazy = createDataService(nodePlatform, { acks: memoryAckStore() });
  whole = createDataService(nodePlatform, { acks: memoryAckStore() });
  expect((await lazy.init({ dataUrl: dir + '/' })).status).toBe('ready');
  expect((await whole.init({ dataUrl: copy + '/' })).status).toBe('ready');
}, 120_000);

afterAll(async () => {
  await lazy?.close();
  await whole?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

const get = (path: string, query: Record<string, string> = {}): ApiRequest => ({ method: 'GET', path, query });

/** provider_groups' rows per source in a service's database: `source_id -> rows`. */
function rowsBySource(s: DataService): Map<number, number> {
  const rows = s.context()!.db.all<{ id: number; n: number }>(sql`SELECT source_id AS id, count(*)::INTEGER AS n FROM provider_groups GROUP BY ALL`);
  return new Map(rows.map((r) => [r.id, r.n]));
}

/** A service code of the dataset with rate rows, and a provider with a rate for it in the latest month. */
async function facts(): Promise<{ code: string; provider: string }> {
  const search = (await whole.handle(get('/api/services-search', { limit: '5' }))).body as { items: Array<{ id: string }> };
  for (const { id } of search.items) {
    const found = (await whole.handle(get('/api/providers-for-service', { service_id: id, limit: '1' }))).body as { items: Array<{ id: string }> };
    if (found.items[0]) return { code: id, provider: found.items[0].id };
  }
  throw new Error('no service of the tiny market-year shape has a provider');
}

describe('provider_groups by source', () => {
  it('the converter writes a month\'s sources in a few row groups, and the index names the sources of each', () => {
    const index = manifest.tables.provider_groups.source_index!;
    expect(index).toHaveLength(8);
    expect(index.reduce((a, e) => a + e.rows, 0)).toBe(manifest.tables.provider_groups.rows);
    const latest = new Set(chosenSources(manifest, ['2025-03']));
    expect(latest.size).toBe(10);
    // sorted by snapshot: the latest month's ten sources share the last row groups only
    expect(index.filter((e) => e.source_ids.some((id) => latest.has(id))).map((e) => e.row_group)).toEqual([4, 5, 6, 7]);
  });

  it('loads no group at boot, the row groups of the month a request reads when it asks, each once', async () => {
    await lazy.background();
    const loader = lazy.context()!.providerGroups;
    expect(loader.totalGroups()).toBe(8);
    expect(loader.loadedGroups()).toBe(0);
    expect(rowsBySource(lazy).size).toBe(0);
    const { code, provider } = await facts();
    const expected = rowsBySource(whole);

    expect((await lazy.handle(get('/api/providers-for-service', { service_id: code }))).status).toBe(200);
    expect(loader.loadedGroups()).toBe(4);
    const latest = chosenSources(manifest, ['2025-03']);
    const afterLatest = rowsBySource(lazy);
    for (const id of latest) expect(afterLatest.get(id), `source ${id}`).toBe(expected.get(id));

    // the same month again: nothing more is read, no row twice
    expect((await lazy.handle(get('/api/service-price-details', { service_id: code, provider_id: provider, insurer_id: 'ref' }))).status).toBe(200);
    expect(loader.loadedGroups()).toBe(4);
    expect(rowsBySource(lazy)).toEqual(afterLatest);

    // the earliest month's rate rows read its own sources
    expect((await lazy.handle(get('/api/rate-rows', { service_id: code, insurer_id: 'ins1', snapshot: '2025-01' }))).status).toBe(200);
    expect(loader.loadedGroups()).toBe(7);
    const earliest = rowsBySource(lazy);
    for (const id of chosenSources(manifest, ['2025-01'])) expect(earliest.get(id), `source ${id}`).toBe(expected.get(id));
    expect([...earliest.values()].reduce((a, n) => a + n, 0)).toBeLessThan(manifest.tables.provider_groups.rows);
  });

  it('the browser\'s worker (warmSelection) loads the latest month\'s groups behind its warm-up, and no other', async () => {
    const warm = createDataService(nodePlatform, { acks: memoryAckStore(), warmSelection: true });
    try {
      expect((await warm.init({ dataUrl: join(root, 'dataset') + '/' })).status).toBe('ready');
      expect(warm.context()!.providerGroups.loadedGroups()).toBe(0);
      await warm.background();
      expect(warm.context()!.providerGroups.loadedGroups()).toBe(4);
      const expected = rowsBySource(whole);
      const rows = rowsBySource(warm);
      for (const id of chosenSources(manifest, ['2025-03'])) expect(rows.get(id), `source ${id}`).toBe(expected.get(id));
      for (const id of chosenSources(manifest, ['2025-01'])) expect(rows.has(id), `source ${id}`).toBe(false);
    } finally {
      await warm.close();
    }
  });

  it('answers every request joining provider_groups as the dataset loaded whole does', async () => {
    const { code, provider } = await facts();
    const providers = { providers: provider, state: 'CA' };
    const requests: ApiRequest[] = [
      get('/api/rate-rows', { service_id: code, insurer_id: 'ins2', snapshot: '2025-02', shared_providers: '1' }),
      get('/api/providers-for-service', { service_id: code }),
      get('/api/providers-for-service', { service_id: code, q: provider.slice(0, 4), limit: '5' }),
      get('/api/service-price-details', { service_id: code, provider_id: provider, insurer_id: 'ins1' }),
      get('/api/rate-rows', { service_id: code, insurer_id: 'ref' }),
      get('/api/rate-rows', { service_id: code, insurer_id: 'ref', providers: provider }),
      get('/api/rate-rows', { service_id: code, insurer_id: 'ins3', snapshot: '2025-01', billing_class: 'professional' }),
      get('/api/service-pricing', { services: code, ...providers }),
      get('/api/service-pricing', { services: code, ...providers, shared_providers: '1', snapshot: '2025-02' }),
    ];
    for (const request of requests) {
      const [a, b] = [await lazy.handle(request), await whole.handle(request)];
      const what = `${request.path} ${JSON.stringify(request.query)}`;
      expect(a.status, `${what}: ${JSON.stringify(a.body)}`).toBe(200);
      expect(JSON.stringify(a.body), what).toBe(JSON.stringify(b.body));
    }
  });
});
