/**
 * `GET /api/service-pricing` from DuckDB (workers/pricing/selection-tables.ts: a unit pivot per month,
 * scope and state, the summary and the pages in SQL) against the same answer from a pricing pass in
 * JavaScript (service-pricing.ts answerFromPass: pricing-core.ts and contract/rules/metrics.ts), to the
 * last bit: summary, total and every record of every page, for every choice of competitors of the
 * converted fixture, each billing class, sort and filter, every month, national and per state, over
 * every provider and at shared providers; and on a generated dataset of ten insurers. The same for
 * `GET /api/dashboard-figures` (figuresFromPass below: the endpoint's earlier computation).
 */
import { describe, expect, it } from 'vitest';
import type { DashboardFiguresResult, LiveServicePricingRecord, ServicePricingResult } from '../../contract/api';
import { ALL_STATES } from '../../contract/files/dataset';
import { passesMinConfidence } from '../../contract/rules/confidence';
import { countedRecords } from '../../contract/rules/dashboard-figures';
import { unitRowKey } from '../../contract/rules/metrics';
import { dashboardKpis, topOverpaid, type CountedRecord } from '../../contract/rules/dashboard-figures';
import { dashboardFigures } from '../../workers/api/dashboard-figures';
import { latestSnapshot, priceServices, type PricingSelection } from '../../workers/pricing/pricing-core';
import { recordWithLists, serviceRecords, unitsWithLists } from '../../workers/pricing/unit-records';
import type { ApiContext } from '../../workers/context';
import { answerFromPass, servicePricing } from '../../workers/api/service-pricing';
import { allCompetitors, monthNeed } from '../../workers/pricing/pricing-core';
import { ensureClaimsTotals } from '../../workers/db/prepare-tables';
import { SqlFragment } from '../../workers/db/sql';
import type { DataService } from '../../workers/data-service';
import { bootFixture, bootGenerated, bootStrictAndLoose } from './fixture-dataset';

/**
 * dashboard-figures' answer from a pricing pass in JavaScript: every unit priced (pricing-core.ts)
 * through contract/rules/dashboard-figures.ts, the records shown priced again with their lists.
 */
function figuresFromPass(sharedProviders: boolean, ctx: ApiContext): DashboardFiguresResult {
  const snapshot = latestSnapshot(ctx);
  const competitors = allCompetitors(ctx);
  const selection: PricingSelection = { snapshot, reference: ctx.manifest.reference_insurer, competitors, billingClass: 'all', state: ALL_STATES, sharedProviders };
  const units = serviceRecords(priceServices(ctx, { ...selection, competitorPrices: false }));
  const kpis = dashboardKpis(units);
  const top = topOverpaid(units);
  const priced = unitsWithLists(ctx, selection, top.map((r) => r.service_code));
  const shown = (r: CountedRecord): CountedRecord => recordWithLists(priced, r, 'dashboard-figures') as CountedRecord;
  return { snapshot, competitors, kpis: { ...kpis, top: kpis.top && shown(kpis.top) }, top: top.map(shown) };
}

/** A statement written in this test. */
const q = (text: string): SqlFragment => new SqlFragment(text, []);

/** Every non-empty subset of `ids`, in a fixed order. */
function subsets(ids: readonly string[]): string[][] {
  const out: string[][] = [];
  for (let mask = 1; mask < 1 << ids.length; mask++) out.push(ids.filter((_, i) => mask & (1 << i)));
  return out;
}

/** Asks `query` of the service (the SQL answer) and of a pricing pass; expects them equal and returns the SQL one. */
async function bothWays(service: DataService, query: Record<string, string>): Promise<ServicePricingResult> {
  const res = await service.handle({ method: 'GET', path: '/api/service-pricing', query });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const ctx = service.context()!;
  const fromPass = await answerFromPass(servicePricing.parse(query, ctx), ctx);
  expect(res.body, JSON.stringify(query)).toEqual(fromPass);
  return res.body as ServicePricingResult;
}

/**
 * Every view of one selection both ways: each sort, with and without 'only overpaying', two
 * pages of `limit` and the whole list. Returns the records of the whole list.
 */
async function everyView(service: DataService, selection: Record<string, string>, limit: number): Promise<LiveServicePricingRecord[]> {
  for (const sort of ['overpayment', 'variance', 'savings']) {
    for (const only of ['false', 'true']) {
      for (const offset of [0, limit]) await bothWays(service, { ...selection, sort, only_overpaying: only, limit: String(limit), offset: String(offset) });
    }
  }
  return (await bothWays(service, selection)).records;
}

const fx = bootStrictAndLoose();
const gen = bootGenerated(60_000, { services: 300, providers: 2_000, allStates: true, minProviders: 2, sharedStats: true, sharedFraction: 0.6 });

describe('service-pricing from DuckDB', () => {
  it('equals the pricing pass on the converted fixture: every competitor choice, class, sort, page, month, state and scope', async () => {
    let records = 0;
    let unreferencedClaims = 0;
    for (const at of [fx.strict, fx.loose]) {
      const ctx: ApiContext = at.service.context()!;
      const category = ctx.db.all<{ c: string }>({ text: `SELECT min(category) AS c FROM services`, params: [] } as never)[0]!.c;
      for (const snapshot of ctx.manifest.snapshots) {
        for (const state of ['', 'CA']) {
          for (const shared of [false, true]) {
            for (const competitors of subsets(allCompetitors(ctx))) {
              for (const billing_class of ['all', 'professional', 'institutional']) {
                const selection: Record<string, string> = { snapshot, competitors: competitors.join(','), billing_class };
                if (state) selection.state = state;
                if (shared) selection.shared_providers = '1';
                // every view for the whole market; a page and the whole list for the other choices
                const whole = competitors.length === allCompetitors(ctx).length && billing_class === 'all';
                if (!whole) await bothWays(at.service, { ...selection, sort: 'savings', only_overpaying: 'true', limit: '2', offset: '1' });
                const all = whole ? await everyView(at.service, selection, 3) : (await bothWays(at.service, selection)).records;
                records += all.length;
                // units without a reference price that still receive their class's claims (the first unit listed)
                unreferencedClaims += all.filter((r) => r.reference_price === null && r.claims_volume > 0).length;
              }
            }
          }
        }
        await everyView(at.service, { snapshot, category }, 2);
        await everyView(at.service, { snapshot, services: ctx.db.all<{ c: string }>({ text: `SELECT min(billing_code) AS c FROM services`, params: [] } as never)[0]!.c }, 2);
      }
    }
    expect(records).toBeGreaterThan(200);
    expect(unreferencedClaims).toBeGreaterThan(0);
  }, 600_000);

  it('answers dashboard-figures as the pricing pass does, on both fixtures and the generated insurers, over every provider and at shared providers', async () => {
    let top = 0;
    for (const service of [fx.strict.service, fx.loose.service, gen.service]) {
      const ctx = service.context()!;
      for (const query of [{}, { shared_providers: '1' }] as Record<string, string>[]) {
        const res = await service.handle({ method: 'GET', path: '/api/dashboard-figures', query });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body).toEqual(figuresFromPass(dashboardFigures.parse(query, ctx).shared_providers === true, ctx));
        top += (res.body as DashboardFiguresResult).top.length;
      }
    }
    expect(top).toBeGreaterThan(20);
  }, 300_000);

  it('gives the claims of a class without a reference price to its first unit the chosen competitors price', async () => {
    const at = await bootFixture({ validation: { min_providers: 1 } });
    try {
      const ctx = at.service.context()!;
      const snapshot = ctx.manifest.snapshots.at(-1)!;
      await ctx.stats.ensure(monthNeed(ctx, { snapshot }, 'ALL'));
      const [alpha, beta] = allCompetitors(ctx);
      // a code with professional claims: its statistics replaced by a global unit only alpha prices
      // and a professional component only beta prices, so that no unit has a reference price
      ensureClaimsTotals(ctx.db);
      const code = ctx.db.all<{ c: string; n: number }>(q(`SELECT billing_code AS c, professional AS n FROM claims_totals
        WHERE state = 'ALL' AND professional > 0 ORDER BY billing_code LIMIT 1`))[0]!;
      const template = `FROM price_stats WHERE billing_code = '${code.c}' AND scope = 'market' AND state = 'ALL' AND snapshot = '${snapshot}' LIMIT 1`;
      ctx.db.all(q(`CREATE TEMP TABLE template AS SELECT * ${template}`));
      ctx.db.all(q(`DELETE FROM price_stats WHERE billing_code = '${code.c}'`));
      for (const [insurer, component, price] of [[alpha, 'global', 100], [beta, '26', 40]] as const) {
        ctx.db.all(q(`INSERT INTO price_stats SELECT * REPLACE ('${insurer}' AS insurer_id, 'professional' AS billing_class,
          '${component}' AS component, 'non-facility' AS setting, ${price} AS median_rate, 3 AS provider_count,
          (SELECT max(snapshot) FROM price_stats WHERE insurer_id = '${insurer}' AND scope = 'market' AND snapshot <= '${snapshot}') AS snapshot)
          FROM template`));
      }
      // the pivot of the month, stored by the converter, is built again from the edited statistics
      at.service.forgetAnswers();
      const units = async (competitors: string) =>
        (await bothWays(at.service, { snapshot, competitors, services: code.c })).records.map((r) => [r.component, r.claims_volume]);
      // every competitor: the global unit comes first and takes the claims; beta alone lists only the component
      expect(await units(`${alpha},${beta}`)).toEqual([['global', code.n], ['26', 0]]);
      expect(await units(beta!)).toEqual([['26', code.n]]);
      expect(await units(alpha!)).toEqual([['global', code.n]]);
    } finally {
      await at.dispose();
    }
  }, 300_000);

  it('equals the pricing pass on ten generated insurers: subsets of competitors, classes, sorts and pages, national and per state', async () => {
    const ctx = gen.service.context()!;
    const competitors = allCompetitors(ctx);
    expect(competitors.length).toBeGreaterThanOrEqual(9);
    const choices = [competitors, competitors.slice(0, 2), competitors.slice(3, 7), competitors.filter((_, i) => i % 2 === 1), [...competitors].reverse().slice(0, 3)];
    const state = 'CA';
    const listed = new Map<string, number>();
    for (const snapshot of ctx.manifest.snapshots) {
      for (const chosen of choices) {
        for (const where of [{}, { state }, { shared_providers: '1' }] as Record<string, string>[]) {
          for (const billing_class of ['all', 'professional']) {
            const selection = { snapshot, competitors: chosen.join(','), billing_class, ...where };
            const whole = chosen === competitors && billing_class === 'all';
            if (!whole) await bothWays(gen.service, { ...selection, sort: 'variance', limit: '40', offset: '40' });
            const all = whole ? await everyView(gen.service, selection, 40) : (await bothWays(gen.service, selection)).records;
            if (whole) {
              // later pages of the first window of PAGE_WINDOW units, and one across two windows (computed alone)
              for (const [offset, limit] of [[100, 25], [120, 40], [190, 30]] as const) {
                await bothWays(gen.service, { ...selection, sort: 'savings', limit: String(limit), offset: String(offset) });
              }
            }
            listed.set(JSON.stringify(where), (listed.get(JSON.stringify(where)) ?? 0) + all.length);
          }
        }
      }
    }
    // national, in CA and at shared providers: units listed in each
    expect([...listed.values()].every((n) => n > 0), JSON.stringify([...listed])).toBe(true);
  }, 600_000);

  it('hides the units under a minimum confidence as the pricing pass does, from the pages, the total and the summary cards', async () => {
    const ctx = gen.service.context()!;
    const competitors = allCompetitors(ctx);
    const levels = new Set<string>();
    for (const chosen of [competitors, competitors.slice(0, 2)]) {
      for (const where of [{}, { state: 'CA' }, { shared_providers: '1' }] as Record<string, string>[]) {
        const selection = { competitors: chosen.join(','), ...where };
        const every = (await bothWays(gen.service, selection)).records;
        for (const r of every) levels.add(r.confidence);
        for (const min of ['medium', 'high'] as const) {
          const kept = every.filter((r) => passesMinConfidence(r.confidence, min));
          const all = await everyView(gen.service, { ...selection, min_confidence: min }, 40);
          expect(all.map(unitRowKey)).toEqual(kept.map(unitRowKey));
          const { summary, total } = await bothWays(gen.service, { ...selection, min_confidence: min, limit: '25' });
          expect(total).toBe(kept.length);
          expect(summary.services_total).toBe(countedRecords(kept).length);
        }
      }
    }
    // the generated prices reach every level
    expect([...levels].sort()).toEqual(['high', 'low', 'medium']);
  }, 600_000);
});
