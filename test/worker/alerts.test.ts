/**
 * GET /api/alerts and the acknowledgements, over the fixture dataset (figures of the header of
 * service-pricing.test.ts), per comparison unit. Latest snapshot L = 2025-02, previous P = 2025-01
 * (docs/methodology.md, Alerts).
 *
 * With min_providers 2 (the default) no alert is raised: every January price rests on one provider
 * (ref A 95 and 480, beta D 130 and C 600), so no spike nor shift has the support it needs, and the
 * units with a variance of 20 % or more (G0008, CA 99213, NY 70450) are thin.
 *
 * With min_providers 1 (`loose`), claims as in service-pricing.test.ts [dollar impact = USD x claims]:
 *   All: 99213 professional ref 95 -> 120 = +26.3 %: price_spike high [25 x 100 = 2,500];
 *          market beta 130 -> (100 + 130) / 2 = 115 = -11.5 %: market_shift low [15 x 100 = 1,500].
 *        70450 ref 480 -> 600 = +25 %: price_spike high [120 x 10 = 1,200]; market 600 -> 525 = -12.5 %:
 *          market_shift low [75 x 10 = 750]; variance 14.3 %: no outlier.
 *        G0008 no ref price at P: no spike; market 10 -> 15 = +50 %: market_shift high [5 x 20 = 100];
 *          variance (25 - 15) / 15 = 66.7 %: outlier high [10 x 20 = 200].
 *        99213 both (ref D 90 at L only), 80053 (no market), 99283 (no reference price): nothing.
 *   CA: 99213 ref A 95 -> median(100, 120) = 110 = +15.8 %: price_spike medium [15 x 60 = 900]; market
 *       alpha A 90, at P none (beta's D is in NY): no shift; variance 20 / 90 = 22.2 %: outlier low
 *       [20 x 60 = 1,200]. 70450 500 vs 480: +4.2 %.
 *   NY: 70450 ref C 700, market (520 + 600) / 2 = 560: variance 25 %: outlier low [140 x 0 NY claims = 0];
 *       no ref at P. 99213 professional: market 130 -> 120 = -7.7 %: no shift.
 * Order: severity, then dollar impact, then |percent change|, then region ('All' first), code, unit, type.
 * Acknowledgements in IndexedDB (fake-indexeddb in Node) survive a reload and a new conversion, and
 * those stored under the per-service ids of before carry over.
 */
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertId, type Alert } from '../../contract/rules/alert-rules';
import type { AcknowledgeAllResult, ApiErrorBody } from '../../contract/api';
import { indexedDbAckStore } from '../../workers/acks/ack-store';
import { bootFixture, type BootedFixture } from './fixture-dataset';

const LOOSE = { validation: { min_providers: 1 } };

let f: BootedFixture;
let strict: BootedFixture;

beforeAll(async () => {
  [f, strict] = await Promise.all([bootFixture(LOOSE), bootFixture()]);
});
afterAll(async () => {
  await f?.dispose();
  await strict?.dispose();
});

async function list(fx: BootedFixture = f): Promise<Alert[]> {
  const res = await fx.get('/api/alerts');
  expect(res.status).toBe(200);
  return res.body as Alert[];
}

describe('alerts by docs/methodology.md', () => {
  it('raises none that rests on too few providers', async () => {
    expect(await list(strict)).toEqual([]);
  });

  it('lists every alert, high severity first, then by dollar impact', async () => {
    const a = await list();
    expect(a.map((x) => [x.severity, x.region, x.serviceCode, x.billingClass, x.type])).toEqual([
      ['high', 'All', '99213', 'professional', 'price_spike'],
      ['high', 'All', '70450', 'institutional', 'price_spike'],
      ['high', 'All', 'G0008', 'professional', 'outlier'],
      ['high', 'All', 'G0008', 'professional', 'market_shift'],
      ['medium', 'CA', '99213', 'professional', 'price_spike'],
      ['low', 'All', '99213', 'professional', 'market_shift'],
      ['low', 'CA', '99213', 'professional', 'outlier'],
      ['low', 'All', '70450', 'institutional', 'market_shift'],
      ['low', 'NY', '70450', 'institutional', 'outlier'],
    ]);
  });

  it('carries the documented fields: the unit, values, stable id, the snapshot first day', async () => {
    const spike = (await list())[1]!;
    expect(spike).toEqual({
      id: alertId('price_spike', '70450', 'institutional', 'global', 'facility', 'All', '2025-02'),
      type: 'price_spike',
      severity: 'high',
      title: 'Price spike: CT head without contrast',
      description: 'Our price for 70450 (institutional, facility) in all states rose +25.0% from $480 (2025-01) to $600 (2025-02).',
      serviceCode: '70450',
      serviceName: 'CT head without contrast',
      billingClass: 'institutional',
      component: 'global',
      setting: 'facility',
      region: 'All',
      affectedValue: 600,
      marketValue: 525,
      createdAt: '2025-02-01',
      acknowledged: false,
      acknowledgedBy: null,
      acknowledgedAt: null,
    });
    expect(spike.id).toMatch(/^[0-9a-f]{16}$/);
    expect(alertId('price_spike', '70450', 'institutional', 'global', 'facility', 'All', '2025-03')).not.toBe(spike.id);
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
    const g = await bootFixture(LOOSE);
    try {
      const after = await list(g);
      expect(after.filter((x) => x.acknowledged).map((x) => [x.id, x.acknowledgedBy])).toEqual([[target.id, 'Dana Analyst']]);
    } finally {
      await g.dispose();
    }
  });

  it('carries an acknowledgement made when alerts were per service over to the alert of the same type, code, region and snapshot', async () => {
    // The per-service id of ('price_spike', '70450', 'All', '2025-02'): FNV-1a 64 of 'price_spike|70450|All|2025-02'.
    await indexedDbAckStore().put([['e4883fa23044c2cc', { by: 'Earlier Analyst', at: '2025-02-15T09:00:00.000Z' }]]);
    const a = await list();
    expect(a.filter((x) => x.acknowledged).map((x) => [x.type, x.region, x.serviceCode, x.acknowledgedBy, x.acknowledgedAt])).toEqual([
      ['price_spike', 'All', '70450', 'Earlier Analyst', '2025-02-15T09:00:00.000Z'],
      ['outlier', 'NY', '70450', 'Dana Analyst', expect.any(String)],
    ]);
  });

  it('acknowledges all, naming an unknown user when the token had no name', async () => {
    const res = await f.service.handle({ method: 'PUT', path: '/api/alerts/acknowledge-all', query: {} });
    const body = res.body as AcknowledgeAllResult;
    expect(body.acknowledged).toBe(7); // 9 alerts, 2 acknowledged above
    expect(body.alerts.every((a) => a.acknowledged)).toBe(true);
    expect(body.alerts.filter((a) => a.acknowledgedBy === 'unknown user')).toHaveLength(7);
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
