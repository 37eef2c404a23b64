/**
 * GET /api/alerts-page over the fixture dataset with min_providers 1: the 9 alerts of
 * alerts.test.ts (its header derives them), three of them acknowledged first so that the open
 * count differs from the total. Pages of every size, concatenated, are the GET /api/alerts list in
 * its order; total and open are counted here from that list; offset and limit out of range are the
 * registry's 400 (workers/api/params.ts parseInteger). Last, the pages follow acknowledgements made
 * after they were first asked for (the worker keeps the merged list until the next one): through
 * either PUT, and stored by someone else (another tab's worker on the same IndexedDB).
 */
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Alert } from '../../contract/rules/alert-rules';
import { ALERTS_PAGE_DEFAULT_LIMIT, ALERTS_PAGE_MAX_LIMIT, type AcknowledgeAllResult, type AlertsPage, type ApiErrorBody } from '../../contract/api';
import { indexedDbAckStore } from '../../workers/acks/ack-store';
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

describe('GET /api/alerts-page after acknowledgements', () => {
  /** GET /api/alerts now, and the pages of 2 concatenated, which must be that list. */
  async function listAndPages(): Promise<{ list: Alert[]; first: AlertsPage }> {
    const res = await f.get('/api/alerts');
    expect(res.status).toBe(200);
    const list = res.body as Alert[];
    const items: Alert[] = [];
    for (let offset = 0; offset < list.length; offset += 2) items.push(...(await page({ offset: String(offset), limit: '2' })).items);
    expect(items).toEqual(list);
    const first = await page({ limit: '9' });
    expect([first.total, first.open, first.items]).toEqual([list.length, list.filter((a) => !a.acknowledged).length, list]);
    return { list, first };
  }

  const put = (path: string, user?: string) => f.service.handle({ method: 'PUT', path, query: {}, user });

  it('counts one fewer open and shows the alert acknowledged after PUT .../acknowledge, in step with GET /api/alerts', async () => {
    const before = await listAndPages();
    // Asked twice: the second answer is the kept list, the same.
    expect((await listAndPages()).first).toEqual(before.first);
    expect(before.first.open).toBe(6);
    const i = before.first.items.findIndex((a) => !a.acknowledged);
    const target = before.first.items[i]!;
    const res = await put(`/api/alerts/${target.id}/acknowledge`, 'Quinn Later');
    expect(res.status).toBe(200);
    expect([(res.body as Alert).id, (res.body as Alert).acknowledgedBy]).toEqual([target.id, 'Quinn Later']);

    const after = await listAndPages();
    expect([after.first.total, after.first.open]).toEqual([9, 5]);
    const shown = (await page({ offset: String(i), limit: '1' })).items[0]!;
    expect([shown.id, shown.acknowledged, shown.acknowledgedBy]).toEqual([target.id, true, 'Quinn Later']);
    expect(shown.acknowledgedAt).toBe((res.body as Alert).acknowledgedAt);
    // Nothing else changed.
    expect(after.first.items.filter((_, j) => j !== i)).toEqual(before.first.items.filter((_, j) => j !== i));
  });

  it("follows an acknowledgement another tab's worker stored in the same IndexedDB", async () => {
    const before = await listAndPages();
    const target = before.first.items.find((a) => !a.acknowledged)!;
    await indexedDbAckStore().put([[target.id, { by: 'Other Tab', at: '2025-03-01T10:00:00.000Z' }]]);
    const after = await listAndPages();
    expect(after.first.open).toBe(before.first.open - 1);
    expect(after.list.filter((a) => a.acknowledgedBy === 'Other Tab').map((a) => a.id)).toEqual([target.id]);
  });

  it('counts 0 open after PUT /api/alerts/acknowledge-all, every page acknowledged', async () => {
    expect((await page({})).open).toBe(4);
    const res = await put('/api/alerts/acknowledge-all', 'Pat Pager');
    expect(res.status).toBe(200);
    const body = res.body as AcknowledgeAllResult;
    expect(body.acknowledged).toBe(4);
    const after = await listAndPages();
    expect([after.first.total, after.first.open]).toEqual([9, 0]);
    expect(after.list.every((a) => a.acknowledged)).toBe(true);
    expect(body.alerts).toEqual(after.list);
    // A second acknowledge-all finds nothing open and changes nothing.
    expect(((await put('/api/alerts/acknowledge-all')).body as AcknowledgeAllResult).acknowledged).toBe(0);
    expect((await listAndPages()).first).toEqual(after.first);
  });
});
