/**
 * GET /api/alerts and the acknowledgements, over the fixture dataset (figures of the header of
 * service-pricing.test.ts). Latest snapshot L = 2025-02, previous P = 2025-01 (metrics.md, Alerts).
 *
 * National ('All'):
 *   70450 ref 480 -> 600 = +25 %: price_spike high. market beta 600 -> (450+600)/2 = 525 = -12.5 %:
 *         market_shift low. variance 14.3 %: no outlier.
 *   99213 ref 95 -> 110 = +15.8 %: price_spike medium. market 130 -> 115 = -11.5 %: market_shift low.
 *   G0008 no ref price at P: no spike. market 10 -> 15 = +50 %: market_shift high.
 *         variance (25 - 15) / 15 = 66.7 %: outlier high.
 *   80053 no market, 99283 no reference price: nothing.
 * CA: 99213 ref A 95 -> median(100, 120) = 110: price_spike medium; market alpha A 90, at P none
 *     (beta's D is in NY): no shift; variance 20 / 90 = 22.2 %: outlier low. 70450 500 vs 480: +4.2 %.
 * NY: 70450 ref C 700, market (520 + 600) / 2 = 560: variance 25 %: outlier low; no ref at P.
 *     99213 market 130 -> 120 = -7.7 %: no shift.
 * Acknowledgements in IndexedDB (fake-indexeddb in Node) survive a reload and a new conversion.
 */
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertId, type Alert } from '../../contract/alert-rules';
import type { AcknowledgeAllResult, ApiErrorBody } from '../../contract/api';
import { bootFixture, type BootedFixture } from './fixture-dataset';

let f: BootedFixture;

beforeAll(async () => {
  f = await bootFixture();
});
afterAll(async () => f?.dispose());

async function list(fx: BootedFixture = f): Promise<Alert[]> {
  const res = await fx.get('/api/alerts');
  expect(res.status).toBe(200);
  return res.body as Alert[];
}

describe('alerts by metrics.md', () => {
  it('lists every alert, high severity first, then All before states', async () => {
    const a = await list();
    expect(a.map((x) => [x.severity, x.region, x.serviceCode, x.type])).toEqual([
      ['high', 'All', '70450', 'price_spike'],
      ['high', 'All', 'G0008', 'market_shift'],
      ['high', 'All', 'G0008', 'outlier'],
      ['medium', 'All', '99213', 'price_spike'],
      ['medium', 'CA', '99213', 'price_spike'],
      ['low', 'All', '70450', 'market_shift'],
      ['low', 'All', '99213', 'market_shift'],
      ['low', 'CA', '99213', 'outlier'],
      ['low', 'NY', '70450', 'outlier'],
    ]);
  });

  it('carries the spec fields: values, stable id, the snapshot first day', async () => {
    const spike = (await list())[0]!;
    expect(spike).toEqual({
      id: alertId('price_spike', '70450', 'All', '2025-02'),
      type: 'price_spike',
      severity: 'high',
      title: 'Price spike: CT head without contrast',
      description: 'Our price for 70450 in all states rose +25.0% from $480 (2025-01) to $600 (2025-02).',
      serviceCode: '70450',
      serviceName: 'CT head without contrast',
      region: 'All',
      affectedValue: 600,
      marketValue: 525,
      createdAt: '2025-02-01',
      acknowledged: false,
      acknowledgedBy: null,
      acknowledgedAt: null,
    });
    expect(spike.id).toMatch(/^[0-9a-f]{16}$/);
    expect(alertId('price_spike', '70450', 'All', '2025-03')).not.toBe(spike.id);
  });
});

describe('acknowledgements', () => {
  it('records who and when, and keeps them across a reload and a new conversion', async () => {
    const target = (await list()).find((x) => x.region === 'NY')!;
    const before = Date.now();
    const res = await f.service.handle({ method: 'PUT', path: `/api/alerts/${target.id}/acknowledge`, query: {}, user: 'Dana Analyst' });
    expect(res.status).toBe(200);
    const acked = res.body as Alert;
    expect([acked.id, acked.acknowledged, acked.acknowledgedBy]).toEqual([target.id, true, 'Dana Analyst']);
    expect(Date.parse(acked.acknowledgedAt!)).toBeGreaterThanOrEqual(before - 1000);
    // A second acknowledgement keeps the first one's who and when.
    const again = (await f.service.handle({ method: 'PUT', path: `/api/alerts/${target.id}/acknowledge`, query: {}, user: 'Other' })).body as Alert;
    expect(again.acknowledgedBy).toBe('Dana Analyst');
    // "Reload": a new service over a new conversion of the same MRFs reads the same IndexedDB.
    const g = await bootFixture();
    try {
      const after = await list(g);
      expect(after.filter((x) => x.acknowledged).map((x) => [x.id, x.acknowledgedBy])).toEqual([[target.id, 'Dana Analyst']]);
    } finally {
      await g.dispose();
    }
  });

  it('acknowledges all, naming an unknown user when the token had no name', async () => {
    const res = await f.service.handle({ method: 'PUT', path: '/api/alerts/acknowledge-all', query: {} });
    const body = res.body as AcknowledgeAllResult;
    expect(body.acknowledged).toBe(8); // 9 alerts, 1 acknowledged above
    expect(body.alerts.every((a) => a.acknowledged)).toBe(true);
    expect(body.alerts.filter((a) => a.acknowledgedBy === 'unknown user')).toHaveLength(8);
  });

  it('answers 404 for an unknown alert id, and treats injection strings as plain ids', async () => {
    for (const id of ['nope', "' OR 1=1 --", 'x%27%3B%20DROP']) {
      const res = await f.service.handle({ method: 'PUT', path: `/api/alerts/${id}/acknowledge`, query: {} });
      expect(res.status, id).toBe(404);
      expect((res.body as ApiErrorBody).error.code).toBe('not_found');
    }
    expect((await f.service.handle({ method: 'GET', path: '/api/alerts/x/acknowledge', query: {} })).status).toBe(404);
  });
});
