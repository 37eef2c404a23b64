/**
 * `price_stats` by month (workers/db/stats.ts, docs/architecture.md Statistics by month): the boot
 * loads the row groups of the latest month's national rows behind the later tables, a request for
 * another month loads its own, and
 * every answer equals the one of the same dataset loaded whole. The dataset is the tiny market-year
 * shape (scripts/generate: 3 monthly snapshots, providers shared with the reference), its
 * price_stats written again in row groups of 2,048 rows (DuckDB's smallest) so that it has many;
 * how a month picks an insurer's older snapshot is checked on an index made by hand.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cp, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import type { ApiRequest } from '../../contract/api';
import type { DatasetManifest, PeriodIndexEntry, StatsPart, StatsSnapshot } from '../../contract/files/dataset';
import { memoryAckStore } from '../../workers/acks/ack-store';
import { createDataService, type DataService } from '../../workers/data-service';
import { runsOf, type StatsNeed } from '../../workers/db/stats';
import { sql } from '../../workers/db/sql';
import { priceServices } from '../../workers/pricing/pricing-core';
import { nodePlatform } from '../../workers/platform-node';
import { writeTable } from '../../scripts/convert/build/output/write-parquet';
import { sqlString } from '../../scripts/convert/spool/spool';
import { sharedShape } from '../datasets-once';

let root: string;
let lazy: DataService;
let whole: DataService;

/** Writes `dir`'s price_stats.parquet again in row groups of `rows` rows, with its manifest entry. */
async function smallRowGroups(dir: string, rows: number): Promise<void> {
  const inst = await DuckDBInstance.create(':memory:');
  const con = await inst.connect();
  await con.run(`CREATE TABLE price_stats AS SELECT * FROM read_parquet(${sqlString(join(dir, 'price_stats.parquet'))})`);
  await rename(join(dir, 'price_stats.parquet'), join(dir, 'price_stats.old'));
  const entry = await writeTable(con, 'price_stats', dir, rows);
  con.closeSync();
  const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as DatasetManifest;
  manifest.tables.price_stats = entry;
  await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest));
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'compete-stats-'));
  const converted = { dir: join(root, 'dataset') };
  await sharedShape('market-year', converted.dir, { tiny: true });
  await smallRowGroups(converted.dir, 2048);
  // the same dataset without the period index: price_stats loads whole at boot
  const copy = join(root, 'whole');
  await cp(converted.dir, copy, { recursive: true });
  const manifest = JSON.parse(await readFile(join(copy, 'manifest.json'), 'utf8')) as DatasetManifest;
  delete manifest.tables.price_stats.period_index;
  await writeFile(join(copy, 'manifest.json'), JSON.stringify(manifest));
  lazy = createDataService(nodePlatform, { acks: memoryAckStore() });
  whole = createDataService(nodePlatform, { acks: memoryAckStore() });
  expect((await lazy.init({ dataUrl: converted.dir + '/' })).status).toBe('ready');
  expect((await whole.init({ dataUrl: copy + '/' })).status).toBe('ready');
});

afterAll(async () => {
  await lazy?.close();
  await whole?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

/** Rows of price_stats in a service's database. */
const count = (s: DataService): number => s.context()!.db.all<{ n: number }>(sql`SELECT count(*)::INTEGER AS n FROM price_stats`)[0]!.n;

const get = (path: string, query: Record<string, string> = {}): ApiRequest => ({ method: 'GET', path, query });

describe('price_stats by month', () => {
  it('loads the latest month\'s national rows behind the boot, and the states and another month when a request asks for them', async () => {
    const stats = lazy.context()!.stats;
    const total = stats.totalGroups();
    expect(total).toBeGreaterThan(10);
    await lazy.background();
    const atBoot = stats.loadedGroups();
    expect(atBoot).toBeGreaterThan(0);
    expect(atBoot).toBeLessThan(total);
    const need = (month: string, shared: boolean, states: StatsNeed['states']): StatsNeed => ({ months: [month], scope: shared ? 'shared' : 'market', states });
    expect(stats.holds(need('2025-03', false, 'national'))).toBe(true);
    // neither the per-state rows, nor the shared rows, nor another month
    expect(stats.holds(need('2025-03', false, 'states'))).toBe(false);
    expect((await lazy.handle(get('/api/regional-comparison'))).status).toBe(200);
    expect(stats.holds(need('2025-03', false, 'all'))).toBe(true);
    expect(stats.holds(need('2025-03', true, 'national'))).toBe(false);
    expect(stats.holds(need('2025-01', false, 'national'))).toBe(false);
    // pricing a month that is not in fails loudly instead of answering without its rows
    const ctx = lazy.context()!;
    expect(() => priceServices(ctx, { snapshot: '2025-01', reference: 'ref', competitors: ['ins1', 'ins2'], billingClass: 'all', state: 'ALL', sharedProviders: true }))
      .toThrow(/price_stats of 2025-01 is not loaded/);
    expect((await lazy.handle(get('/api/regional-comparison', { snapshot: '2025-01', shared_providers: '1' }))).status).toBe(200);
    expect(stats.holds(need('2025-01', true, 'all'))).toBe(true);
    expect(stats.holds(need('2025-01', false, 'all'))).toBe(false);
    expect(stats.loadedGroups()).toBeGreaterThan(atBoot);
    expect(count(lazy)).toBeLessThan(lazy.context()!.manifest.tables.price_stats.rows);
  });

  it('answers every statistics request as the dataset loaded whole does', async () => {
    const requests: ApiRequest[] = [
      get('/api/dashboard-figures'),
      get('/api/dashboard-figures', { shared_providers: '1' }),
      get('/api/regional-comparison'),
      get('/api/regional-comparison', { snapshot: '2025-01' }),
      get('/api/regional-services', { state: 'NY', snapshot: '2025-02' }),
      get('/api/regional-services-page', { state: 'CA', shared_providers: '1' }),
      get('/api/service-pricing'),
      get('/api/service-pricing', { snapshot: '2025-01', shared_providers: '1' }),
      get('/api/service-pricing', { state: 'CA', billing_class: 'professional', sort: 'savings', limit: '5' }),
      get('/api/alerts'),
      get('/api/alerts-page', { offset: '0', limit: '20' }),
      get('/api/overpayment-trend'),
      get('/api/overpayment-trend', { shared_providers: '1' }),
    ];
    for (const request of requests) {
      const [a, b] = [await lazy.handle(request), await whole.handle(request)];
      const what = `${request.path} ${JSON.stringify(request.query)}`;
      expect(a.status, `${what}: ${JSON.stringify(a.body)}`).toBe(200);
      expect(JSON.stringify(a.body), what).toBe(JSON.stringify(b.body));
    }
    // the trend read every month's national rows: the per-state rows of the months no request named stay out
    const stats = lazy.context()!.stats;
    expect(stats.loadedGroups()).toBeLessThan(stats.totalGroups());
    expect(count(lazy)).toBeLessThan(count(whole));
  });
});

describe('the period index', () => {
  it('names, for every row group, exactly the runs of (period, scope, national) its rows belong to', async () => {
    const dir = join(root, 'dataset');
    const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as DatasetManifest;
    const index = manifest.tables.price_stats.period_index!;
    const inst = await DuckDBInstance.create(':memory:');
    const con = await inst.connect();
    // each row's place in the file, then its row group by the index's row counts
    const starts = index.map((_, k) => index.slice(0, k).reduce((a, g) => a + g.rows, 0));
    const rows = (await con.runAndReadAll(`SELECT file_row_number AS i, coalesce(month, snapshot) AS period, scope, state = 'ALL' AS national, state
      FROM read_parquet(${sqlString(join(dir, 'price_stats.parquet'))}, file_row_number = true) ORDER BY i`)).getRowObjects();
    con.closeSync();
    expect(rows.length).toBe(index.reduce((a, g) => a + g.rows, 0));
    // per row group, its runs in order, each per-state run with the first and last state of its rows there
    const seen = index.map(() => [] as string[][]);
    for (const r of rows) {
      const i = Number(r.i);
      let k = starts.length - 1;
      while (starts[k]! > i) k -= 1;
      const key = `${String(r.period)}|${String(r.scope)}|${String(r.national)}`;
      const last = seen[k]!.at(-1);
      if (last?.[0] !== key) seen[k]!.push(r.national ? [key] : [key, String(r.state), String(r.state)]);
      else if (!r.national) {
        // a state's rows are consecutive: the run's states ascend
        expect(String(r.state) >= last[2]!).toBe(true);
        last[2] = String(r.state);
      }
    }
    expect(index.map((g) => g.parts.map((p) => [`${p.period}|${p.scope}|${p.national}`, ...(p.states ?? [])]))).toEqual(seen);
    expect(index.length).toBeGreaterThan(10);
    // some row group holds only part of a month's states: a state's rows are read without the others'
    expect(index.some((g) => g.parts.some((p) => p.states && p.states[0] > 'AL'))).toBe(true);
  });
});

describe("one state's rows", () => {
  it('load alone, in any order of states, and answer as the dataset loaded whole does', async () => {
    const requests = (state: string): ApiRequest[] => [
      get('/api/regional-services-page', { state }),
      get('/api/service-pricing', { state, limit: '20' }),
      get('/api/regional-services', { state, snapshot: '2025-02', shared_providers: '1' }),
    ];
    const compare = async (service: DataService, request: ApiRequest): Promise<void> => {
      const [a, b] = [await service.handle(request), await whole.handle(request)];
      const what = `${request.path} ${JSON.stringify(request.query)}`;
      expect(a.status, `${what}: ${JSON.stringify(a.body)}`).toBe(200);
      expect(JSON.stringify(a.body), what).toBe(JSON.stringify(b.body));
    };
    const dir = join(root, 'dataset') + '/';
    const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as DatasetManifest;
    const states = ['CA', 'NY', 'TX'];
    for (const order of [states, [...states].reverse()]) {
      const service = createDataService(nodePlatform, { acks: memoryAckStore() });
      try {
        expect((await service.init({ dataUrl: dir })).status).toBe('ready');
        await service.background();
        const stats = service.context()!.stats;
        const latest = manifest.snapshots.at(-1)!;
        const [one, every] = [{ months: [latest], scope: 'market', states: 'states', state: order[0]! } as const, { months: [latest], scope: 'market', states: 'states' } as const];
        const before = count(service);
        await compare(service, requests(order[0]!)[0]!);
        // the first state read its own rows, not the month's every state
        expect(stats.holds(one)).toBe(true);
        expect(stats.holds(every)).toBe(false);
        expect(count(service) - before).toBeLessThan(
          manifest.tables.price_stats.period_index!.filter((g) => g.parts.some((p) => p.period === latest && p.scope === 'market' && !p.national))
            .reduce((n, g) => n + g.rows, 0) / 2);
        for (const state of order) for (const request of requests(state)) await compare(service, request);
        // then every state at once: the states already in are not loaded twice
        await compare(service, get('/api/regional-comparison'));
        await compare(service, get('/api/regional-comparison', { snapshot: '2025-02', shared_providers: '1' }));
        expect(stats.holds(every)).toBe(true);
        for (const state of order) for (const request of requests(state)) await compare(service, request);
        const rows = service.context()!.db.all<{ n: number; d: number }>(sql`SELECT count(*)::INTEGER AS n, count(DISTINCT (snapshot, insurer_id, billing_code, billing_class, component, setting, state, scope, month))::INTEGER AS d FROM price_stats`)[0]!;
        expect(rows.n).toBe(rows.d);
      } finally {
        await service.close();
      }
    }
  });
});

describe('runsOf', () => {
  /** The row groups of `need`'s runs, ascending. */
  const rowGroupsOf = (index: readonly PeriodIndexEntry[], snapshots: readonly StatsSnapshot[], need: StatsNeed): number[] =>
    [...new Set(runsOf(index, snapshots, need).map((r) => r.row_group))];
  const part = (period: string, scope: 'market' | 'shared', national: boolean): StatsPart => ({ period, scope, national });
  const index: PeriodIndexEntry[] = [
    { row_group: 0, rows: 10, parts: [part('2025-01', 'market', true), part('2025-01', 'market', false)] },
    { row_group: 1, rows: 10, parts: [part('2025-01', 'market', false), part('2025-01', 'shared', true)] },
    { row_group: 2, rows: 10, parts: [part('2025-01', 'shared', false), part('2025-02', 'market', true)] },
    { row_group: 3, rows: 10, parts: [part('2025-02', 'market', false), part('2025-02', 'shared', true), part('2025-02', 'shared', false)] },
    { row_group: 4, rows: 10, parts: [part('2025-03', 'market', true)] },
    { row_group: 5, rows: 10, parts: [part('2025-03', 'market', false), part('2025-03', 'shared', true)] },
  ];
  // a has 2025-01 and 2025-03, b 2025-02 only
  const snapshots: StatsSnapshot[] = [
    { insurer_id: 'a', snapshot: '2025-01' }, { insurer_id: 'a', snapshot: '2025-03' },
    { insurer_id: 'b', snapshot: '2025-02' },
  ];
  const of = (months: string[], shared: boolean, states: StatsNeed['states']): number[] => rowGroupsOf(index, snapshots, { months, scope: shared ? 'shared' : 'market', states });

  it("takes each insurer's latest market snapshot at or before the month", () => {
    // 2025-02: a at 2025-01, b at 2025-02
    expect(of(['2025-02'], false, 'all')).toEqual([0, 1, 2, 3]);
    expect(of(['2025-02'], false, 'national')).toEqual([0, 2]);
    expect(of(['2025-02'], false, 'states')).toEqual([0, 1, 3]);
    // 2025-03: a at 2025-03, b at 2025-02
    expect(of(['2025-03'], false, 'national')).toEqual([2, 4]);
    // before every snapshot: nothing
    expect(of(['2024-12'], false, 'all')).toEqual([]);
  });

  it("reads one state's rows from the row groups whose states take it in", () => {
    const ranged: PeriodIndexEntry[] = [
      { row_group: 0, rows: 10, parts: [part('2025-01', 'market', true), { ...part('2025-01', 'market', false), states: ['AK', 'CA'] }] },
      { row_group: 1, rows: 10, parts: [{ ...part('2025-01', 'market', false), states: ['CA', 'NY'] }] },
      { row_group: 2, rows: 10, parts: [{ ...part('2025-01', 'market', false), states: ['NY', 'WY'] }, part('2025-01', 'shared', true)] },
      // written before the ranges: any state may be there
      { row_group: 3, rows: 10, parts: [part('2025-02', 'market', false)] },
    ];
    const one = (months: string[], state: string): unknown =>
      runsOf(ranged, snapshots, { months, scope: 'market', states: 'states', state }).map((r) => [r.row_group, r.part.period, r.state]);
    expect(one(['2025-01'], 'CA')).toEqual([[0, '2025-01', 'CA'], [1, '2025-01', 'CA']]);
    expect(one(['2025-01'], 'AL')).toEqual([[0, '2025-01', 'AL']]);
    expect(one(['2025-01'], 'OR')).toEqual([[2, '2025-01', 'OR']]);
    expect(one(['2025-01'], 'ZZ')).toEqual([]);
    // 2025-02: a at 2025-01, b at 2025-02
    expect(one(['2025-02'], 'TX')).toEqual([[2, '2025-01', 'TX'], [3, '2025-02', 'TX']]);
    // without a state: every row group of the run, whole
    expect(runsOf(ranged, snapshots, { months: ['2025-01'], scope: 'market', states: 'states' }).map((r) => [r.row_group, r.state])).toEqual([[0, undefined], [1, undefined], [2, undefined]]);
  });

  it("takes a month's own shared rows", () => {
    expect(of(['2025-01'], true, 'all')).toEqual([1, 2]);
    expect(of(['2025-02'], true, 'national')).toEqual([3]);
    expect(of(['2025-03'], true, 'states')).toEqual([]);
    expect(of(['2025-01', '2025-03'], true, 'national')).toEqual([1, 5]);
  });
});
