/**
 * The SQL twins of the per-unit rules (contract/sql/unit-figures-sql.ts, workers/pricing/overpayment-sql.ts)
 * against the JavaScript rules of contract/rules/metrics.ts as pricing-core.ts applies them
 * (priceServicesByMonth: claimsByUnit, referenceVariance, thinReason; unitsAverageOverpayment):
 * every (month, state)'s Average Overpayment, units that count and claims are equal to the last
 * bit, on the converted fixture (strict and loose validation, every provider and at shared
 * providers) and on a generated dataset of 51 state areas and two snapshots, for the whole market,
 * one competitor and one category.
 */
import { describe, expect, it } from 'vitest';
import { ALL_STATES } from '../../contract/files/dataset';
import { averageOverpaymentSql, unitFiguresSql } from '../../contract/sql/unit-figures-sql';
import type { ApiContext } from '../../workers/context';
import { averageOverpaymentByMonth, type OverpaymentFigure } from '../../workers/pricing/overpayment-sql';
import { countedAverageOverpayment, countedRecords } from '../../contract/rules/dashboard-figures';
import { allCompetitors, EVERY_STATE, priceServicesByMonth, statsNeedOf, type Selection } from '../../workers/pricing/pricing-core';
import { bootGenerated, bootStrictAndLoose } from './fixture-dataset';

type Asked = Omit<Selection, 'billingClass' | 'competitorPrices' | 'providers'>;

/** The same figures from the JavaScript rules: the records of every unit, added up per (month, state). */
function fromRecords(ctx: ApiContext, s: Asked, months: readonly string[]): OverpaymentFigure[] {
  const out: OverpaymentFigure[] = [];
  const byMonth = priceServicesByMonth(ctx, { ...s, billingClass: 'all', competitorPrices: false }, months);
  for (const month of [...months].sort()) {
    const byState = new Map<string, ReturnType<typeof priceServicesByMonth> extends Map<string, infer R> ? R : never>();
    for (const r of byMonth.get(month) ?? []) byState.set(r.state, [...(byState.get(r.state) ?? []), r]);
    for (const [state, list] of [...byState].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const avg = countedAverageOverpayment(list);
      if (avg === null) continue;
      const counted = countedRecords(list);
      out.push({ month, state, avg_overpayment: avg, services: counted.length, claims_count: counted.reduce((a, r) => a + r.claims_volume, 0) });
    }
  }
  return out;
}

/** Both ways, after loading what the selection reads; returns the SQL figures. */
async function bothWays(ctx: ApiContext, s: Asked, months: readonly string[]): Promise<OverpaymentFigure[]> {
  await ctx.stats.ensure(statsNeedOf(s, months));
  const sqlFigures = averageOverpaymentByMonth(ctx, s, months);
  expect(sqlFigures).toEqual(fromRecords(ctx, s, months));
  return sqlFigures;
}

const fx = bootStrictAndLoose();
const gen = bootGenerated(60_000, { services: 400, providers: 3_000, allStates: true, minProviders: 2 });

describe('Average Overpayment in SQL', () => {
  it('equals the records\' on the converted fixture, national and per state, every month, with and without shared providers', async () => {
    const states = new Set<string>();
    for (const at of [fx.strict, fx.loose]) {
      const ctx = at.service.context()!;
      const months = ctx.manifest.snapshots;
      const whole: Asked = { reference: ctx.manifest.reference_insurer, competitors: allCompetitors(ctx), state: EVERY_STATE };
      const figures = await bothWays(ctx, whole, months);
      for (const f of figures) states.add(`${f.month} ${f.state}`);
      await bothWays(ctx, { ...whole, sharedProviders: true }, months);
      await bothWays(ctx, { ...whole, state: ALL_STATES, competitors: allCompetitors(ctx).slice(0, 1) }, months);
    }
    // the fixture prices in CA and NY, and nationally, in both months (with min_providers 1 for some)
    expect([...states].sort()).toEqual(['2025-01 ALL', '2025-02 ALL', '2025-02 CA', '2025-02 NY']);
    // min_providers 1 counts thin units the strict dataset leaves out
    const count = async (at: typeof fx.strict) => {
      const ctx = at.service.context()!;
      const s: Asked = { reference: ctx.manifest.reference_insurer, competitors: allCompetitors(ctx), state: ALL_STATES };
      return (await bothWays(ctx, s, ctx.manifest.snapshots)).reduce((a, f) => a + f.services, 0);
    };
    expect(await count(fx.loose)).toBeGreaterThan(await count(fx.strict));
  });

  it('equals the records\' on 51 state areas, claims weighted by state, for the market, one competitor and one category', async () => {
    const ctx = gen.service.context()!;
    const months = ctx.manifest.snapshots;
    const whole: Asked = { reference: ctx.manifest.reference_insurer, competitors: allCompetitors(ctx), state: EVERY_STATE };
    const figures = await bothWays(ctx, whole, months);
    expect(new Set(figures.map((f) => f.state)).size).toBeGreaterThan(40);
    // weights: some units carry claims, so the weighted mean is taken, not the plain one
    expect(figures.some((f) => f.claims_count > 0)).toBe(true);
    await bothWays(ctx, { ...whole, competitors: allCompetitors(ctx).slice(0, 1) }, months);
    const category = (ctx.db.all<{ category: string }>({ text: 'SELECT min(category) AS category FROM services', params: [] } as never))[0]!.category;
    await bothWays(ctx, { ...whole, category }, months);
  });

  it('gives the claims of a class to its main unit and the plain mean without claims, on units written by hand', () => {
    const ctx = gen.service.context()!;
    // code A: two professional units (26 rests on more providers: it takes the claims), one institutional;
    // code B: a `both` unit and no professional price: it takes the professional claims; no claims at all in month 2
    const units = `(VALUES
      ('m1', 'ALL', 'A', 'professional', 'global', 'non-facility', 110.0, 100.0, 3, 5, 40, 7),
      ('m1', 'ALL', 'A', 'professional', '26', 'non-facility', 55.0, 50.0, 4, 5, 40, 7),
      ('m1', 'ALL', 'A', 'institutional', 'global', 'facility', 90.0, 100.0, 2, 2, 40, 7),
      ('m1', 'ALL', 'B', 'both', 'global', 'non-facility', 120.0, 100.0, 2, 2, 10, 0),
      ('m1', 'ALL', 'B', 'institutional', 'global', 'facility', NULL, 80.0, NULL, 3, 10, 0),
      ('m2', 'ALL', 'A', 'professional', 'global', 'non-facility', 105.0, 100.0, 1, 5, 0, 0),
      ('m2', 'ALL', 'A', 'professional', 'TC', 'non-facility', 30.0, 20.0, 2, 2, 0, 0))
      AS u(month, state, billing_code, billing_class, component, setting, reference_price, market_average,
           reference_providers, competitor_provider_total, claims_professional, claims_institutional)`;
    const rows = ctx.db.all<{ month: string; billing_code: string; component: string; billing_class: string; claims_volume: number; thin: boolean }>(
      { text: `SELECT month, billing_code, billing_class, component, claims_volume, thin FROM (${unitFiguresSql(units, 2)}) ORDER BY ALL`, params: [] } as never);
    expect(rows.map((r) => [r.month, r.billing_code, r.billing_class, r.component, r.claims_volume, r.thin])).toEqual([
      ['m1', 'A', 'institutional', 'global', 7, false],
      ['m1', 'A', 'professional', '26', 40, false],
      ['m1', 'A', 'professional', 'global', 0, false],
      ['m1', 'B', 'both', 'global', 10, false],
      ['m1', 'B', 'institutional', 'global', 0, false],
      ['m2', 'A', 'professional', 'TC', 0, false],
      ['m2', 'A', 'professional', 'global', 0, true],
    ]);
    const avg = ctx.db.all<{ month: string; avg_overpayment: number; services: number }>(
      { text: `SELECT month, avg_overpayment, services FROM (${averageOverpaymentSql(`(${unitFiguresSql(units, 2)})`)}) ORDER BY month`, params: [] } as never);
    // m1: (10 x 0 + 10 x 40 - 10 x 7 + 20 x 10) / 57; m2: the plain mean of TC's +50 % alone (global is thin)
    expect(avg.map((r) => [r.month, r.services])).toEqual([['m1', 4], ['m2', 1]]);
    expect(avg[0]!.avg_overpayment).toBeCloseTo((10 * 40 - 10 * 7 + 20 * 10) / 57, 12);
    expect(avg[1]!.avg_overpayment).toBe(50);
  });
});
