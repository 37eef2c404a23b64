/**
 * Answers kept per dataset (workers/memo.ts): the memo's own rules, and on the converted
 * fixture that a pure endpoint's repeated call runs no SQL and the other sorts and pages of one
 * service-pricing selection one statement each, while their answers equal freshly computed ones.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rm } from 'node:fs/promises';
import type { RegionalServiceRow, RegionalServicesPage, ServicePricingResult } from '../../contract/api';
import { memoryAckStore } from '../../workers/acks/ack-store';
import { answerWeight, ResultMemo } from '../../workers/memo';
import { createDataService, type DataService } from '../../workers/data-service';
import type { Database } from '../../workers/db/database';
import { SqlFragment } from '../../workers/db/sql';
import { nodePlatform } from '../../workers/platform-node';
import { convertFixture } from './fixture-dataset';

describe('ResultMemo', () => {
  it('computes a key once and serves it again', () => {
    const memo = new ResultMemo(10);
    let runs = 0;
    const a = memo.get('k', () => ({ n: ++runs }));
    expect(memo.get('k', () => ({ n: ++runs }))).toBe(a);
    expect(runs).toBe(1);
  });

  it('drops the least recently used entries once the weights exceed the capacity', () => {
    const memo = new ResultMemo(10);
    memo.get('a', () => 'a', 4);
    memo.get('b', () => 'b', 4);
    memo.get('a', () => 'again'); // a is now the most recent
    memo.get('c', () => 'c', 4); // 12 > 10: b goes
    expect(memo.get('a', () => 'recomputed')).toBe('a');
    expect(memo.get('b', () => 'recomputed')).toBe('recomputed');
    // an entry heavier than the capacity is kept alone
    memo.get('huge', () => 'huge', (v: string) => v.length * 100);
    expect(memo.size).toBe(1);
    expect(memo.get('huge', () => 'other')).toBe('huge');
  });

  it('weighs an answer by its rows', () => {
    expect(answerWeight([1, 2, 3])).toBe(3);
    expect(answerWeight({ total: 9, items: [1, 2], other: [3] })).toBe(3);
    expect(answerWeight({ kpis: {} })).toBe(1);
    expect(answerWeight([])).toBe(1);
    // kept answers of many rows push out older ones
    const memo = new ResultMemo(5);
    memo.get('small', () => [1], answerWeight);
    memo.get('rows', () => [1, 2, 3, 4, 5], answerWeight);
    expect(memo.get('small', () => 'recomputed')).toBe('recomputed');
  });

  it('shares a pending promise, weighs it once resolved, and drops it when it rejects', async () => {
    const memo = new ResultMemo(5);
    let runs = 0;
    const slow = (): Promise<number[]> => new Promise((resolve) => setTimeout(() => resolve([++runs, 0, 0]), 5));
    const [x, y] = [memo.get('p', slow, (v) => v.length), memo.get('p', slow, (v) => v.length)];
    expect(x).toBe(y);
    await x;
    memo.get('q', () => 'q', 3); // 3 + 3 > 5: p goes
    await expect(memo.get('p', slow, (v) => v.length)).resolves.toEqual([2, 0, 0]);
    const failing = memo.get('f', () => Promise.reject(new Error('read refused')));
    await expect(failing).rejects.toThrow('read refused');
    await expect(memo.get('f', () => Promise.resolve('read'))).resolves.toBe('read');
    memo.clear();
    expect(memo.size).toBe(0);
  });
});

describe('answers kept per dataset', () => {
  let root: string;
  let service: DataService;
  let queries = 0;

  beforeAll(async () => {
    const converted = await convertFixture();
    root = converted.root;
    const platform = {
      ...nodePlatform,
      async openDatabase(): Promise<Database> {
        const db = await nodePlatform.openDatabase();
        return { ...db, all: (q) => (queries++, db.all(q)) } as Database;
      },
    };
    service = createDataService(platform, { acks: memoryAckStore() });
    expect((await service.init({ dataUrl: converted.dir + '/' })).status).toBe('ready');
  });
  afterAll(async () => {
    await service?.close();
    if (root) await rm(root, { recursive: true, force: true });
  });

  const get = async <T>(path: string, query: Record<string, string>): Promise<{ body: T; queries: number }> => {
    const before = queries;
    const res = await service.handle({ method: 'GET', path, query });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return { body: res.body as T, queries: queries - before };
  };

  it("prices a service-pricing selection's units and summary once for all its sorts and pages, each page one statement over them", async () => {
    const first = await get<ServicePricingResult>('/api/service-pricing', { limit: '2', sort: 'overpayment' });
    // over the month's unit pivot the dataset stores (workers/pricing/selection-tables.ts), which this
    // first request inserts and checks (its columns, its rows' month and state: unit-pivot.ts):
    // those two, the selection's table of units, its summary, the page
    expect(first.queries).toBe(5);
    const page2 = await get<ServicePricingResult>('/api/service-pricing', { limit: '2', offset: '2', sort: 'savings', only_overpaying: 'true' });
    expect(page2.queries).toBe(1);
    // the next page of the first view: one statement for the window of PAGE_WINDOW units holding
    // it, and the page after it none
    const next = await get<ServicePricingResult>('/api/service-pricing', { limit: '2', offset: '2', sort: 'overpayment' });
    expect(next.queries).toBe(1);
    const third = await get<ServicePricingResult>('/api/service-pricing', { limit: '2', offset: '4', sort: 'overpayment' });
    expect(third.queries).toBe(0);
    // every unit at once: one statement, whose records the pages equal
    const whole = await get<ServicePricingResult>('/api/service-pricing', {});
    expect(whole.queries).toBe(1);
    expect(first.body.records).toEqual(whole.body.records.slice(0, 2));
    expect(next.body.records).toEqual(whole.body.records.slice(2, 4));
    expect(third.body.records).toEqual(whole.body.records.slice(4, 6));
    expect(Object.keys(first.body.records[0]!.competitor_prices).length).toBeGreaterThan(0);
    expect(first.body.summary).toEqual(whole.body.summary);
    // another choice of competitors reads the same pivot: its table of units, its summary and its page
    expect((await get('/api/service-pricing', { competitors: 'alpha', limit: '2' })).queries).toBe(3);
    // another state has its own pivot
    expect((await get('/api/service-pricing', { state: 'NY' })).queries).toBeGreaterThan(2);
    // and the kept answers are the ones a fresh computation gives (the pivots are forgotten too)
    service.forgetAnswers();
    const again = await get<ServicePricingResult>('/api/service-pricing', { limit: '2', offset: '2', sort: 'savings', only_overpaying: 'true' });
    expect(again.queries).toBeGreaterThan(2);
    expect(again.body).toEqual(page2.body);
  });

  it('keeps the four selection tables last used, drops the others, and drops every one with the answers', async () => {
    const ctx = service.context()!;
    const tables = (): number => ctx.db.all<{ n: number }>(new SqlFragment(
      `SELECT count(*)::INTEGER AS n FROM duckdb_tables() WHERE temporary AND table_name LIKE 'selection\\_%' ESCAPE '\\'`, []))[0]!.n;
    const competitors = ctx.manifest.insurers.map((i) => i.id).filter((id) => id !== ctx.manifest.reference_insurer);
    for (const billing_class of ['all', 'professional', 'institutional']) {
      for (const chosen of [competitors, competitors.slice(0, 1)]) await get('/api/service-pricing', { billing_class, competitors: chosen.join(','), limit: '2' });
    }
    expect(tables()).toBe(4);
    service.forgetAnswers();
    expect(tables()).toBe(0);
  });

  it("prices a state's units once for the modal's every page, sort and search", async () => {
    const first = await get<RegionalServicesPage>('/api/regional-services-page', { state: 'CA', limit: '2' });
    expect(first.queries).toBeGreaterThan(0);
    for (const query of [{ offset: '2' }, { sort: 'service', direction: 'asc' }, { q: '99' }] as Record<string, string>[]) {
      expect((await get('/api/regional-services-page', { state: 'CA', ...query })).queries, JSON.stringify(query)).toBe(0);
    }
    const whole = await get<RegionalServiceRow[]>('/api/regional-services', { state: 'CA' });
    expect(whole.queries).toBe(0);
    expect(first.body.items).toEqual(whole.body.slice(0, 2));
    // at shared providers the state is priced afresh
    expect((await get('/api/regional-services-page', { state: 'CA', shared_providers: '1' })).queries).toBeGreaterThan(0);
  });

  it('keeps a pure endpoint answer, not a search', async () => {
    const trend = await get('/api/regional-comparison', { shared_providers: '1' });
    expect(trend.queries).toBeGreaterThan(0);
    const repeat = await get('/api/regional-comparison', { shared_providers: '1' });
    expect(repeat.queries).toBe(0);
    expect(repeat.body).toEqual(trend.body);
    for (const [path, query] of [['/api/services-search', { q: 'office' }], ['/api/providers-for-service', { service_id: '99213', q: '1' }]] as const) {
      expect((await get(path, query)).queries, path).toBeGreaterThan(0);
      expect((await get(path, query)).queries, path).toBeGreaterThan(0);
    }
  });
});

describe('the default selection warmed after boot', () => {
  it('prices the latest month\'s national market behind the boot, so that the first comparison request runs its page alone', async () => {
    const converted = await convertFixture();
    let queries = 0;
    const platform = {
      ...nodePlatform,
      async openDatabase(): Promise<Database> {
        const db = await nodePlatform.openDatabase();
        return { ...db, all: (q) => (queries++, db.all(q)) } as Database;
      },
    };
    const service = createDataService(platform, { acks: memoryAckStore(), warmSelection: true });
    try {
      expect((await service.init({ dataUrl: converted.dir + '/' })).status).toBe('ready');
      // the warm-up follows the later tables and the month's national rows, once no request is being answered
      await service.background();
      const before = queries;
      const res = await service.handle({ method: 'GET', path: '/api/service-pricing', query: { limit: '2' } });
      expect(res.status).toBe(200);
      expect(queries - before).toBe(1);
      // another month was not warmed: its pivot, summary and page
      const earlier = queries;
      await service.handle({ method: 'GET', path: '/api/service-pricing', query: { limit: '2', snapshot: service.context()!.manifest.snapshots[0]! } });
      expect(queries - earlier).toBeGreaterThan(2);
    } finally {
      await service.close();
      await rm(converted.root, { recursive: true, force: true });
    }
  });
});
