/**
 * `GET /api/dashboard-figures`: the live dashboard's KPI cards (Average Overpayment, Top Overpaid
 * Service, Claims Above Market, with the counts of their subtitles) and Top 10 Overpaid Services
 * (docs/methodology.md, Dashboard figures). Variances percent, money USD; records as
 * `GET /api/service-pricing` gives them.
 *
 * The figures come from every unit service-pricing prices with no filter but `shared_providers`
 * (latest snapshot, every competitor, whole market), passed through the pure functions the screens
 * use (contract/dashboard-figures.ts), so the page receives a few KB instead of every unit. Kept
 * per dataset and `shared_providers` value (`pure`, memo.ts).
 *
 * Two passes, one answer: the figures read only each unit's variance, claims and support, so every
 * unit is priced without the competitors' lists of prices (which cost about two thirds of a pass at
 * a national dataset's 40,000 units); the records shown, the top 10, are then priced again with
 * them over their codes alone. A unit's record does not depend on the other codes priced with it,
 * so they equal service-pricing's (test/worker/dashboard-figures.test.ts).
 */
import type { DashboardFiguresResult, SharedProvidersParam } from '../../contract/api';
import { ALL_STATES } from '../../contract/dataset';
import { dashboardKpis, topOverpaid, type CountedRecord } from '../../contract/dashboard-figures';
import type { ApiContext } from './context';
import type { Endpoint } from './endpoint';
import { parseSharedProviders } from './params';
import { allCompetitors, latestSnapshot, monthNeed, priceServices, type PricingSelection } from './pricing-core';
import { recordWithLists, serviceRecords, unitsWithLists } from './unit-records';

function run(params: SharedProvidersParam, ctx: ApiContext): DashboardFiguresResult {
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
