/**
 * `GET /api/dashboard-figures`: the live dashboard's KPI cards (Average Overpayment, Top Overpaid
 * Service, Claims Above Market, with the counts of their subtitles) and Top 10 Overpaid Services
 * (docs/methodology.md, Dashboard figures). Variances percent, money USD; records as
 * `GET /api/service-pricing` gives them.
 *
 * The figures are those of the comparison's selection with no filter but `shared_providers`
 * (latest snapshot, every competitor, whole market), computed in DuckDB (selection-tables.ts): its
 * summary gives the counts and Average Overpayment, a page of the units that count sorted by
 * variance the top 10, so the worker builds ten records and the page receives a few KB. Kept per
 * dataset and `shared_providers` value (`pure`, memo.ts). `figuresFromPass` computes the same from
 * every unit in JavaScript with contract/dashboard-figures.ts, which the tests hold it equal to
 * (test/worker/selection-tables.test.ts).
 */
import type { DashboardFiguresResult, SharedProvidersParam } from '../../contract/api';
import { ALL_STATES } from '../../contract/dataset';
import { dashboardKpis, TOP_OVERPAID, topOverpaid, type CountedRecord } from '../../contract/dashboard-figures';
import type { ApiContext } from './context';
import type { Endpoint } from './endpoint';
import { parseSharedProviders } from './params';
import { allCompetitors, latestSnapshot, monthNeed, priceServices, type PricingSelection } from './pricing-core';
import { selectionPage, selectionSummary, type StatsSelection } from './selection-tables';
import { recordWithLists, serviceRecords, unitsWithLists } from './unit-records';

function run(params: SharedProvidersParam, ctx: ApiContext): DashboardFiguresResult {
  const snapshot = latestSnapshot(ctx);
  const competitors = allCompetitors(ctx);
  const selection: StatsSelection = { snapshot, competitors, billingClass: 'all', state: ALL_STATES, sharedProviders: params.shared_providers === true };
  const { summary, aboveMarket, thinLeftOut } = selectionSummary(ctx, selection);
  // dashboardKpis's Top Overpaid Service is the first of the top 10 (contract/dashboard-figures.ts)
  const top = selectionPage(ctx, selection, { sort: 'variance', units: 'counting', offset: 0, limit: TOP_OVERPAID }) as CountedRecord[];
  const withVariance = summary.services_total;
  return {
    snapshot,
    competitors,
    kpis: {
      averageOverpayment: summary.avg_overpayment,
      top: top[0] ?? null,
      claimsAboveMarket: withVariance === 0 ? null : (100 * aboveMarket) / withVariance,
      withVariance,
      thinLeftOut,
    },
    top,
  };
}

/**
 * The same answer from a pricing pass in JavaScript (pricing-core.ts priceServices through
 * contract/dashboard-figures.ts), which the tests hold the SQL answer equal to. @throws DatabaseError
 */
export function figuresFromPass(params: SharedProvidersParam, ctx: ApiContext): DashboardFiguresResult {
  const snapshot = latestSnapshot(ctx);
  const competitors = allCompetitors(ctx);
  const selection: PricingSelection = {
    snapshot,
    reference: ctx.manifest.reference_insurer,
    competitors,
    billingClass: 'all',
    state: ALL_STATES,
    sharedProviders: params.shared_providers === true,
  };
  const units = serviceRecords(priceServices(ctx, { ...selection, competitorPrices: false }));
  const kpis = dashboardKpis(units);
  const top = topOverpaid(units);
  const priced = unitsWithLists(ctx, selection, top.map((r) => r.service_code));
  // A counted unit keeps its variance when priced again (the lists enter no variance).
  const shown = (r: CountedRecord): CountedRecord => recordWithLists(priced, r, 'dashboard-figures') as CountedRecord;
  return { snapshot, competitors, kpis: { ...kpis, top: kpis.top && shown(kpis.top) }, top: top.map(shown) };
}

export const dashboardFigures: Endpoint<'GET /api/dashboard-figures'> = {
  route: 'GET /api/dashboard-figures',
  pure: true,
  reads: 'first-tables',
  stats: (params, ctx) => monthNeed(ctx, params, ALL_STATES),
  parse: (query) => parseSharedProviders(query),
  run: async (params, ctx) => run(params, ctx),
};
