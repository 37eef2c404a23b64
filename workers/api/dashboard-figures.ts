/**
 * `GET /api/dashboard-figures`: the live dashboard's KPI cards (Average Overpayment, Top Overpaid
 * Service, Claims Above Market, with the counts of their subtitles) and Top 10 Overpaid Services
 * (docs/methodology.md, Dashboard figures). Variances percent, money USD; records as
 * `GET /api/service-pricing` gives them.
 *
 * The figures come from every record of service-pricing with no filter but `shared_providers`
 * (latest snapshot, every competitor, whole market, every unit), passed through the pure functions
 * the screens use (contract/dashboard-figures.ts), so the page receives a few KB instead of every
 * unit. Kept per dataset and `shared_providers` value (`pure`, memo.ts).
 */
import type { ApiRequest, DashboardFiguresResult, SharedProvidersParam } from '../../contract/api';
import { dashboardKpis, topOverpaid } from '../../contract/dashboard-figures';
import type { ApiContext } from './context';
import type { Endpoint } from './endpoint';
import { parseSharedProviders } from './params';
import { servicePricing } from './service-pricing';

async function run(params: SharedProvidersParam, ctx: ApiContext, request: ApiRequest): Promise<DashboardFiguresResult> {
  const pricing = await servicePricing.run(params.shared_providers === true ? { shared_providers: true } : {}, ctx, request);
  return {
    snapshot: pricing.snapshot,
    competitors: pricing.competitors,
    kpis: dashboardKpis(pricing.records),
    top: topOverpaid(pricing.records),
  };
}

export const dashboardFigures: Endpoint<'GET /api/dashboard-figures'> = {
  route: 'GET /api/dashboard-figures',
  pure: true,
  reads: 'first-tables',
  parse: (query) => parseSharedProviders(query),
  run,
};
