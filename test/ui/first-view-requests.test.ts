/**
 * The first view answers a screen's request only when the converter recorded exactly the query the
 * screen sends (contract/files/first-view.ts firstViewRequests, src/api/first-view.ts lookup): these
 * tests build each default request with the screens' own code and find it in the list, and check
 * the page's probe of stored acknowledgements (src/api/ack-probe.ts) against the worker's store.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { LiveInsurer, LiveServicePricingRecord } from '../../contract/api';
import { firstViewBandRequest, firstViewKey, firstViewRequests } from '../../contract/files/first-view';
import { acknowledgementsStored } from '../../src/api/ack-probe';
import { encodeQuery } from '../../src/api/query-string';
import { ALERTS_PAGE_SIZE } from '../../src/live/components/alerts-paging';
import { marketBandParams } from '../../src/live/components/market-band';
import { DEFAULT_STATE, defaultCompetitors, pricingParams } from '../../src/live/url-state/live-comparison-state';
import { providerOptionsParam } from '../../src/live/url-state/shared-providers';
import { indexedDbAckStore } from '../../workers/acks/ack-store';

const insurer = (id: string, isReference: boolean): LiveInsurer => ({ id, name: id.toUpperCase(), group: id.toUpperCase(), shortName: id, marketShare: 10, isReference });

/** The key of a request as the page's interceptor sees it: path and the query string apiCall encodes. */
function pageKey(path: string, params: object): string {
  return firstViewKey(path, Object.fromEntries(new URLSearchParams(encodeQuery(params))));
}

const keysOf = (insurers: LiveInsurer[]) => new Set(firstViewRequests(insurers).map((r) => firstViewKey(r.path, r.query)));

describe('firstViewRequests', () => {
  for (const [label, insurers] of [
    ['a reference insurer among them', [insurer('zeta', false), insurer('ref', true), insurer('alpha', false)]],
    ['no reference insurer', [insurer('zeta', false), insurer('alpha', false)]],
    ['the reference alone', [insurer('ref', true)]],
  ] as const) {
    it(`holds the live comparison's first page as the screen asks for it (${label})`, () => {
      const list = [...insurers];
      const selected = defaultCompetitors(list).filter((id) => list.some((i) => i.id === id && !i.isReference));
      const params = pricingParams(DEFAULT_STATE, selected);
      expect(params).not.toBeNull();
      expect(keysOf(list).has(pageKey('/api/service-pricing', params!))).toBe(true);
      // the same at shared providers (the switch, or `shared_providers=1` in the URL)
      const shared = pricingParams({ ...DEFAULT_STATE, sharedProviders: true }, selected);
      expect(keysOf(list).has(pageKey('/api/service-pricing', shared!))).toBe(true);
      // the bands the screen asks for beside the first page, as the converter records them; not at shared providers
      const records = [{ service_code: '99213' }, { service_code: '70551' }, { service_code: '99213' }] as LiveServicePricingRecord[];
      const recorded = (p: object) => firstViewRequests(list).find((r) => pageKey(r.path, r.query) === pageKey('/api/service-pricing', p))!;
      const band = firstViewBandRequest(recorded(params!).query, records)!;
      expect(firstViewKey(band.path, band.query)).toBe(pageKey('/api/market-band', marketBandParams(params!, records)!));
      expect(firstViewBandRequest(recorded(shared!).query, records)).toBeNull();
      expect(firstViewBandRequest({}, [])).toBeNull();
    });
  }

  it('holds the dashboard\'s first alerts page and the comparison\'s counters as the screens ask for them', () => {
    const keys = keysOf([insurer('ref', true), insurer('b', false)]);
    expect(keys.has(pageKey('/api/alerts-page', { offset: 0, limit: ALERTS_PAGE_SIZE }))).toBe(true);
    expect(keys.has(pageKey('/api/services-search', { limit: 1 }))).toBe(true);
    expect(keys.has(pageKey('/api/providers', { limit: 1 }))).toBe(true);
    for (const p of ['/api/dashboard-figures', '/api/regional-comparison', '/api/overpayment-trend', '/api/insurers', '/api/service-categories', '/api/coverage']) {
      expect(keys.has(pageKey(p, {})), p).toBe(true);
    }
    // the dashboard at shared providers, as LiveDashboard.tsx asks for its three figures
    for (const p of ['/api/dashboard-figures', '/api/regional-comparison', '/api/overpayment-trend']) {
      expect(keys.has(pageKey(p, providerOptionsParam({ sharedProviders: true, billed: false }))), p).toBe(true);
    }
    // what the worker has open and has read is the worker's alone
    expect(keys.has(pageKey('/api/dataset', {}))).toBe(false);
  });
});

describe('acknowledgementsStored', () => {
  it('is false without the database, and leaves none behind for the worker to create', async () => {
    expect(await acknowledgementsStored()).toBe(false);
    expect((await indexedDB.databases()).map((d) => d.name)).toEqual([]);
    // the worker's store still opens, creates its object store and counts
    const store = indexedDbAckStore();
    expect(await store.size()).toBe(0);
    expect(await acknowledgementsStored()).toBe(false);
    await store.put([['alert-1', { by: 'Pat', at: '2026-11-29T10:00:00Z' }]]);
    expect(await acknowledgementsStored()).toBe(true);
  });

  it('is true when the browser has no IndexedDB: the worker answers', async () => {
    expect(await acknowledgementsStored(null)).toBe(true);
  });
});
