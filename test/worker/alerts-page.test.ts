/**
 * GET /api/alerts-page over the fixture dataset with min_providers 1: the 9 alerts of
 * alerts.test.ts (its header derives them), three of them acknowledged first so that the open
 * count differs from the total. Pages of every size, concatenated, are the GET /api/alerts list in
 * its order; total and open are counted here from that list; offset and limit out of range are the
 * registry's 400 (workers/api/params.ts parseInteger).
 */
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Alert } from '../../contract/alert-rules';
import { ALERTS_PAGE_DEFAULT_LIMIT, ALERTS_PAGE_MAX_LIMIT, type AlertsPage, type ApiErrorBody } from '../../contract/api';
import { bootFixture, type BootedFixture } from './fixture-dataset';

let f: BootedFixture;
let all: Alert[];

beforeAll(async () => {
  f = await bootFixture({ validation: { min_providers: 1 } });
  const first = (await f.get('/api/alerts')).body as Alert[];
  // Acknowledges the 2nd, 5th and 9th alerts, so open (6) differs from total (9) and from any page's own count.
  for (const i of [1, 4, 8]) {
    const res = await f.service.handle({ method: 'PUT', path: `/api/alerts/${first[i]!.id}/acknowledge`, query: {}, user: 'Pat Pager' });
    expect(res.status).toBe(200);
  }
  const res = await f.get('/api/alerts');
  expect(res.status).toBe(200);
  all = res.body as Alert[];
});
afterAll(async () => {
  await f?.dispose();
});

async function page(query: Record<string, string>): Promise<AlertsPage> {
  const res = await f.get('/api/alerts-page', query);
  expect(res.status, JSON.stringify(query)).toBe(200);
  return res.body as AlertsPage;
}

describe('GET /api/alerts-page', () => {
  it('has the fixture alerts of alerts.test.ts, three acknowledged', () => {
    expect(all).toHaveLength(9);
    expect(all.filter((a) => a.acknowledged).map((a) => a.acknowledgedBy)).toEqual(['Pat Pager', 'Pat Pager', 'Pat Pager']);
  });

  it('pages, concatenated, are GET /api/alerts in its order, for every page size', async () => {
    for (const limit of [1, 2, 4, 9, 10]) {
      const items: Alert[] = [];
      for (let offset = 0; offset < all.length; offset += limit) {
        const p = await page({ offset: String(offset), limit: String(limit) });
        expect(p.items.length, `offset ${offset} limit ${limit}`).toBe(Math.min(limit, all.length - offset));
        items.push(...p.items);
      }
      expect(items, `limit ${limit}`).toEqual(all);
    }
  });

  it('counts the whole list on every page: total, and open = not acknowledged', async () => {
    const open = all.filter((a) => !a.acknowledged).length;
    expect(open).toBe(6);
    for (const offset of ['0', '3', '8', '9', '50']) {
      const p = await page({ offset, limit: '2' });
      expect([p.total, p.open], offset).toEqual([9, open]);
    }
    expect((await page({ offset: '9' })).items).toEqual([]);
  });

  it('defaults to offset 0 and limit 20, and treats empty values as absent', async () => {
    expect(ALERTS_PAGE_DEFAULT_LIMIT).toBe(20);
    expect(await page({})).toEqual({ total: 9, open: 6, items: all.slice(0, ALERTS_PAGE_DEFAULT_LIMIT) });
    expect(await page({ offset: '', limit: '' })).toEqual(await page({}));
    expect((await page({ offset: '7' })).items).toEqual(all.slice(7));
    expect((await page({ limit: String(ALERTS_PAGE_MAX_LIMIT) })).items).toEqual(all);
  });

  it('answers 400 for an offset or limit that is not a decimal integer in range', async () => {
    const bad: [Record<string, string>, string][] = [
      [{ limit: '0' }, 'invalid limit: 0'],
      [{ limit: String(ALERTS_PAGE_MAX_LIMIT + 1) }, `invalid limit: ${ALERTS_PAGE_MAX_LIMIT + 1}`],
      [{ limit: '-1' }, 'invalid limit: -1'],
      [{ limit: '1.5' }, 'invalid limit: 1.5'],
      [{ limit: '1e2' }, 'invalid limit: 1e2'],
      [{ limit: 'abc' }, 'invalid limit: abc'],
      [{ offset: '-1' }, 'invalid offset: -1'],
      [{ offset: '2.0' }, 'invalid offset: 2.0'],
      [{ offset: 'x', limit: '5' }, 'invalid offset: x'],
      [{ offset: '1', limit: '1000' }, 'invalid limit: 1000'],
    ];
    for (const [query, message] of bad) {
      const res = await f.get('/api/alerts-page', query);
      expect(res.status, JSON.stringify(query)).toBe(400);
      const body = res.body as ApiErrorBody;
      expect([body.error.code, body.message]).toEqual(['bad_request', message]);
    }
  });
});
