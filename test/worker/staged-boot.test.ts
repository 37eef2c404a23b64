/**
 * The staged boot (workers/data-service.ts): the service is ready once the first tables
 * (`services`, `claims_volume`, `price_stats`) are loaded; the provider tables and the Medicare
 * benchmarks load behind. Every route of registry.ts STATS_ROUTES (the endpoints declaring
 * `reads: 'first-tables'`) must answer from the first
 * tables alone: here a service that never loads the others answers each of them exactly as a fully
 * loaded one does, and a route outside the set fails there (so the test can tell the difference).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiRequest, ApiRoute, DatasetInfo, LiveInsurer } from '../../contract/api';
import { memoryAckStore } from '../../workers/acks/ack-store';
import { LATER_TABLES, createDataService, type DataService } from '../../workers/data-service';
import { ENDPOINTS, STATS_ROUTES, matchRoute } from '../../workers/api/registry';
import { firstViewRequests } from '../../contract/files/first-view';
import { nodePlatform } from '../../workers/platform-node';
import { bootFixture, type BootedFixture } from './fixture-dataset';

let full: BootedFixture;
let firstOnly: DataService;

beforeAll(async () => {
  // min_providers 1: the fixture then raises alerts (test/worker/alerts.test.ts)
  full = await bootFixture({ validation: { min_providers: 1 } });
  firstOnly = createDataService(nodePlatform, { acks: memoryAckStore(), laterTables: false });
  expect((await firstOnly.init({ dataUrl: full.dir + '/' })).status).toBe('ready');
});

afterAll(async () => {
  await firstOnly?.close();
  await full?.dispose();
});

/** One request per statistics route, with the parameters a screen sends. */
const STATS_REQUESTS: Array<[ApiRoute, ApiRequest]> = [
  ['GET /api/insurers', { method: 'GET', path: '/api/insurers', query: {} }],
  ['GET /api/dashboard-figures', { method: 'GET', path: '/api/dashboard-figures', query: {} }],
  ['GET /api/dashboard-figures', { method: 'GET', path: '/api/dashboard-figures', query: { shared_providers: '1' } }],
  ['GET /api/regional-comparison', { method: 'GET', path: '/api/regional-comparison', query: { shared_providers: '1' } }],
  ['GET /api/overpayment-trend', { method: 'GET', path: '/api/overpayment-trend', query: {} }],
  ['GET /api/alerts', { method: 'GET', path: '/api/alerts', query: {} }],
  ['GET /api/alerts-page', { method: 'GET', path: '/api/alerts-page', query: { offset: '0', limit: '20' } }],
  ['GET /api/service-names', { method: 'GET', path: '/api/service-names', query: {} }],
  ['GET /api/services-search', { method: 'GET', path: '/api/services-search', query: { q: 'mri' } }],
  ['GET /api/service-categories', { method: 'GET', path: '/api/service-categories', query: {} }],
  ['GET /api/coverage', { method: 'GET', path: '/api/coverage', query: {} }],
  // Live Search's insurers: the rate rows of the code, which load on demand
  ['GET /api/insurers-for-service', { method: 'GET', path: '/api/insurers-for-service', query: { service_id: '99283' } }],
];

/** Requests of service-pricing, which reads the first tables alone unless it names providers. */
const PRICING_REQUESTS: ApiRequest[] = [
  { method: 'GET', path: '/api/service-pricing', query: { limit: '50', offset: '0', sort: 'overpayment', only_overpaying: 'true' } },
  { method: 'GET', path: '/api/service-pricing', query: { limit: '50', category: 'Radiology', shared_providers: '1' } },
  { method: 'GET', path: '/api/service-pricing', query: { state: 'NY', billing_class: 'institutional' } },
];

describe('staged boot', () => {
  it('answers every statistics route from the first tables alone, as the fully loaded service does', async () => {
    const covered = new Set(STATS_REQUESTS.map(([route]) => route));
    // the per-alert acknowledgement and the dataset description are checked on their own below
    expect([...STATS_ROUTES].filter((r) => !covered.has(r)).sort())
      .toEqual(['GET /api/dataset', 'PUT /api/alerts/acknowledge-all', 'PUT /api/alerts/{id}/acknowledge']);
    for (const [route, request] of STATS_REQUESTS) {
      expect(matchRoute(request.method, request.path)?.route, route).toBe(route);
      const [a, b] = [await firstOnly.handle(request), await full.service.handle(request)];
      expect(a.status, `${route}: ${JSON.stringify(a.body)}`).toBe(200);
      expect(JSON.stringify(a.body), route).toBe(JSON.stringify(b.body));
    }
    for (const request of PRICING_REQUESTS) {
      const [a, b] = [await firstOnly.handle(request), await full.service.handle(request)];
      expect(a.status, JSON.stringify(a.body)).toBe(200);
      expect(JSON.stringify(a.body), JSON.stringify(request.query)).toBe(JSON.stringify(b.body));
    }
    const dataset = await firstOnly.handle({ method: 'GET', path: '/api/dataset', query: {} });
    expect(dataset.status).toBe(200);
    const alerts = (await firstOnly.handle({ method: 'GET', path: '/api/alerts', query: {} })).body as Array<{ id: string }>;
    expect(alerts.length).toBeGreaterThan(1);
    const ack = await firstOnly.handle({ method: 'PUT', path: `/api/alerts/${alerts[0]!.id}/acknowledge`, query: {}, user: 'Pat' });
    expect(ack.status).toBe(200);
    const all = await firstOnly.handle({ method: 'PUT', path: '/api/alerts/acknowledge-all', query: {}, user: 'Pat' });
    expect(all.status).toBe(200);
  });

  it('sends the other routes after the later tables: without them a provider route fails', async () => {
    const request: ApiRequest = { method: 'GET', path: '/api/providers', query: { limit: '1' } };
    expect(STATS_ROUTES.has('GET /api/providers')).toBe(false);
    expect(Object.keys(ENDPOINTS)).toContain('GET /api/providers');
    expect((await full.service.handle(request)).status).toBe(200);
    expect((await firstOnly.handle(request)).status).toBe(500);
    // service-pricing with a provider selection reads the provider tables: it waits for them too
    const provider = ((await full.service.handle(request)).body as { items: Array<{ id: string }> }).items[0]!.id;
    const priced: ApiRequest = { method: 'GET', path: '/api/service-pricing', query: { limit: '5', providers: provider } };
    expect((await full.service.handle(priced)).status).toBe(200);
    expect((await firstOnly.handle(priced)).status).toBe(500);
  });

  it("answers the provider search once `providers` is in, whatever the other later tables (the first view's service)", async () => {
    // the converter's first view loads `providers` alone: the search answers as the full service
    // does, a route reading the Medicare benchmarks fails there, and the later tables load the small
    // first (provider_groups, loaded by source in this dataset, last in an older one)
    expect(LATER_TABLES[LATER_TABLES.length - 1]).toBe('provider_groups');
    const providersOnly = createDataService(nodePlatform, { acks: memoryAckStore(), laterTables: ['providers'] });
    try {
      expect((await providersOnly.init({ dataUrl: full.dir + '/' })).status).toBe('ready');
      const request: ApiRequest = { method: 'GET', path: '/api/providers', query: { limit: '3', q: 'a' } };
      const [a, b] = [await providersOnly.handle(request), await full.service.handle(request)];
      expect(a.status, JSON.stringify(a.body)).toBe(200);
      expect(JSON.stringify(a.body)).toBe(JSON.stringify(b.body));
      const reference = full.service.context()!.manifest.reference_insurer;
      const rows: ApiRequest = { method: 'GET', path: '/api/rate-rows', query: { service_id: '99283', insurer_id: reference } };
      const failed = await providersOnly.handle(rows);
      expect(failed.status).toBe(500);
      expect(JSON.stringify(failed.body)).toMatch(/medicare_benchmarks/);
    } finally {
      await providersOnly.close();
    }
  });

  it('names only GET routes of the route map in the first view, the insurers among them', () => {
    const insurer = (id: string, isReference: boolean): LiveInsurer => ({ id, name: id, group: id, shortName: id, marketShare: 50, isReference });
    const insurers = [insurer('a', true), insurer('b', false)];
    const requests = firstViewRequests(insurers);
    for (const r of requests) expect(matchRoute('GET', r.path), r.path).not.toBeNull();
    expect(requests.map((r) => r.path)).toContain('/api/insurers');
    expect(requests.find((r) => r.path === '/api/service-pricing')!.query.competitors).toBe('b');
  });

  it('answers GET /api/dataset from the manifest while DuckDB has not opened, and nothing else', async () => {
    let openDuckDb: () => void = () => {};
    const gate = new Promise<void>((resolve) => (openDuckDb = resolve));
    const slow = createDataService({ ...nodePlatform, openDatabase: () => gate.then(() => nodePlatform.openDatabase()) }, { acks: memoryAckStore() });
    const booted = slow.init({ dataUrl: full.dir + '/' });
    try {
      const request: ApiRequest = { method: 'GET', path: '/api/dataset/', query: {} };
      // asked at once, before the manifest is read (as a page does while the worker starts): it
      // waits for the manifest, not for DuckDB, which is held back
      const early = await slow.handle(request);
      expect(early.status).toBe(200);
      const insurers = slow.handle({ method: 'GET', path: '/api/insurers', query: {} });
      let insurersDone = false;
      void insurers.then(() => (insurersDone = true));
      await new Promise((r) => setTimeout(r, 50));
      expect(insurersDone).toBe(false);
      openDuckDb();
      expect((await booted).status).toBe('ready');
      expect((await insurers).status).toBe(200);
      // the same facts as the booted service's answer, but for the bytes read and rate rows loaded so far
      const later = (await slow.handle(request)).body as DatasetInfo;
      const before = early.body as DatasetInfo;
      expect(before.loaded_codes).toBe(0);
      expect(before.bytes_read).toBeLessThan(later.bytes_read);
      expect({ ...before, bytes_read: 0, loaded_codes: 0 }).toEqual({ ...later, bytes_read: 0, loaded_codes: 0 });
      expect(before.rate_rows).toBeGreaterThan(0);
    } finally {
      openDuckDb();
      await booted;
      await slow.close();
    }
  });

  it('reports when every boot table is loaded', async () => {
    await full.service.handle({ method: 'GET', path: '/api/providers', query: { limit: '1' } });
    const t = full.service.timings()!;
    expect(t.allTables).not.toBeNull();
    expect(t.allTables!).toBeGreaterThanOrEqual(t.total);
    expect(firstOnly.timings()!.allTables).toBeNull();
  });
});
