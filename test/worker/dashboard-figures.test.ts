/**
 * GET /api/dashboard-figures over the fixture dataset (test/fixtures/api, converted by the real
 * converter; the whole fixture is worked out in service-pricing.test.ts and, at shared providers,
 * in shared-providers.test.ts): the worker's figures are those of contract/rules/dashboard-figures.ts
 * over every record of GET /api/service-pricing with the same `shared_providers`, and a few of
 * them are checked against values computed here by hand.
 *
 * National units at 2025-02, whole market, min_providers 2 (`strict`):
 *   99213 professional: ref 120 vs (alpha 100 + beta 130) / 2 = 115 -> +100 x 5 / 115 %, claims 100
 *   70450 institutional: ref 600 vs (450 + 600) / 2 = 525 -> +100 x 75 / 525 %, claims 10
 *   G0008 professional: ref 25 vs (20 + 10) / 2 = 15 -> a variance, but thin (reference on 1 provider)
 *   99213 both, 80053, 99283: no variance (no market or no reference price)
 * With min_providers 1 (`loose`) G0008 counts too, and is the top service (+66.7 %).
 */
import { describe, expect, it } from 'vitest';
import type { DashboardFiguresResult, ServicePricingResult } from '../../contract/api';
import { dashboardKpis, topOverpaid } from '../../contract/rules/dashboard-figures';
import { bootStrictAndLoose, okBody, type BootedFixture } from './fixture-dataset';

const fx = bootStrictAndLoose();

const figures = (query: Record<string, string> = {}, at: BootedFixture = fx.strict) =>
  okBody<DashboardFiguresResult>(at, '/api/dashboard-figures', query);
const pricing = (query: Record<string, string> = {}, at: BootedFixture = fx.strict) =>
  okBody<ServicePricingResult>(at, '/api/service-pricing', query);

const SHARED: Array<[string, Record<string, string>]> = [['every provider', {}], ['at shared providers', { shared_providers: '1' }]];

describe('GET /api/dashboard-figures', () => {
  it.each(SHARED)('equals the page-side figures over every service-pricing record (%s)', async (_name, query) => {
    for (const at of [fx.strict, fx.loose]) {
      const all = await pricing(query, at);
      const got = await figures(query, at);
      expect(got).toEqual({
        snapshot: all.snapshot,
        competitors: all.competitors,
        kpis: dashboardKpis(all.records),
        top: topOverpaid(all.records),
      });
      // Counted by hand: units with a variance that are not thin; thin ones with a variance left out.
      expect(got.kpis.withVariance).toBe(all.records.filter((r) => r.reference_variance !== null && !r.thin).length);
      expect(got.kpis.thinLeftOut).toBe(all.records.filter((r) => r.reference_variance !== null && r.thin).length);
      expect(got.top.length).toBe(Math.min(10, got.kpis.withVariance));
      expect(got.top[0] ?? null).toEqual(got.kpis.top);
    }
  });

  it('gives the hand-computed figures of the whole market', async () => {
    const v99213 = (100 * 5) / 115;
    const v70450 = (100 * 75) / 525;
    const strict = await figures();
    expect(strict.snapshot).toBe('2025-02');
    expect(strict.competitors).toEqual(['alpha', 'beta']);
    expect(strict.kpis).toMatchObject({ withVariance: 2, thinLeftOut: 1, claimsAboveMarket: 100 });
    expect(strict.kpis.averageOverpayment).toBeCloseTo((v99213 * 100 + v70450 * 10) / 110, 10);
    expect(strict.top.map((r) => [r.service_code, r.billing_class, r.reference_variance])).toEqual([
      ['70450', 'institutional', v70450],
      ['99213', 'professional', v99213],
    ]);
    const loose = await figures({}, fx.loose);
    expect(loose.kpis).toMatchObject({ withVariance: 3, thinLeftOut: 0 });
    expect(loose.kpis.top).toMatchObject({ service_code: 'G0008', reference_variance: (100 * 10) / 15 });
  });

  it('reads 0 and false as off, and answers again from its cache with the same figures', async () => {
    const off = await figures();
    expect(await figures({ shared_providers: '0' })).toEqual(off);
    expect(await figures({ shared_providers: 'false' })).toEqual(off);
    expect(await figures({ shared_providers: 'true' })).toEqual(await figures({ shared_providers: '1' }));
    expect(await figures({ shared_providers: '1' })).not.toEqual(off);
  });

  // The fixture has six units, so "far smaller" shows as a bound: at most 11 records (the top 10
  // and the KPI card's top), whatever the number of units; live-dashboard.e2e.ts compares the
  // two payloads on the larger live fixture.
  it.each(SHARED)('sends at most 11 records and under 20 KB (%s)', async (_name, query) => {
    for (const at of [fx.strict, fx.loose]) {
      const got = await figures(query, at);
      expect(got.top.length + (got.kpis.top ? 1 : 0)).toBeLessThanOrEqual(11);
      expect(JSON.stringify(got).length).toBeLessThan(20_000);
    }
  });

  it('sends fewer bytes than service-pricing once units without a counted variance exist', async () => {
    for (const at of [fx.strict, fx.loose]) {
      const small = JSON.stringify(await figures({}, at)).length;
      const all = JSON.stringify(await pricing({}, at)).length;
      expect(small).toBeLessThan(all);
    }
  });
});
