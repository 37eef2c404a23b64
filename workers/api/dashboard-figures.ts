/**
 * `GET /api/dashboard-figures`: the live dashboard's KPI cards (Average Overpayment, Top Overpaid
 * Service, Claims Above Market, with the counts of their subtitles) and Top 10 Overpaid Services
 * (docs/methodology.md, Dashboard figures). Variances percent, money USD; records as
 * `GET /api/service-pricing` gives them.
 *
 * The figures come from every record of service-pricing with no filter but `shared_providers`
 * (latest snapshot, every competitor, whole market, every unit), passed through the pure functions
 * the screens use (contract/dashboard-figures.ts), so the page receives a few KB instead of every
 * unit. Computed once per dataset and `shared_providers` value, like the alerts.
 */
import type { ApiRequest, DashboardFiguresResult, SharedProvidersParam } from '../../contract/api';
import { dashboardKpis, topOverpaid } from '../../contract/dashboard-figures';
import type { ApiContext } from './context';
import type { Endpoint } from './endpoint';
import { parseSharedProviders } from './params';
import { servicePricing } from './service-pricing';

/** Per dataset, by `shared_providers`: the answer (a promise, so concurrent calls compute once). */
const computed = new WeakMap<ApiContext, Map<boolean, Promise<DashboardFiguresResult>>>();

async function compute(shared: boolean, ctx: ApiContext, request: ApiRequest): Promise<DashboardFiguresResult> {
  const params: SharedProvidersParam = shared ? { shared_providers: true } : {};
  const pricing = await servicePricing.run(params, ctx, request);
  return {
    snapshot: pricing.snapshot,
    competitors: pricing.competitors,
    kpis: dashboardKpis(pricing.records),
    top: topOverpaid(pricing.records),
  };
}

function run(params: SharedProvidersParam, ctx: ApiContext, request: ApiRequest): Promise<DashboardFiguresResult> {
  const shared = params.shared_providers === true;
  const byShared = computed.get(ctx) ?? new Map<boolean, Promise<DashboardFiguresResult>>();
  computed.set(ctx, byShared);
  const cached = byShared.get(shared);
  if (cached) return cached;
  const answer = compute(shared, ctx, request);
  byShared.set(shared, answer);
  // A failure (a read the server refused, say) is not kept: the next call computes again.
  answer.catch(() => {
    if (byShared.get(shared) === answer) byShared.delete(shared);
  });
  return answer;
}

export const dashboardFigures: Endpoint<'GET /api/dashboard-figures'> = {
  route: 'GET /api/dashboard-figures',
  parse: (query) => parseSharedProviders(query),
  run,
};
