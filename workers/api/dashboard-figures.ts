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
 * dataset and `shared_providers` value (`pure`, memo.ts). test/worker/selection-tables.test.ts holds
 * it equal to the same figures computed from every unit in JavaScript with contract/rules/dashboard-figures.ts.
 */
import type { DashboardFiguresResult, SharedProvidersParam } from '../../contract/api';
import { ALL_STATES } from '../../contract/files/dataset';
import { TOP_OVERPAID, type CountedRecord } from '../../contract/rules/dashboard-figures';
import type { ApiContext } from '../context';
import type { Endpoint } from './endpoint';
import { parseProviderOptions } from './params';
import { defaultSelection, selectionPage, selectionSummary } from '../pricing/selection-tables';
import { selectionNeed } from '../pricing/unit-pivot';

function run(params: SharedProvidersParam, ctx: ApiContext): DashboardFiguresResult {
  const selection = defaultSelection(ctx, params);
  const { summary, aboveMarket, thinLeftOut } = selectionSummary(ctx, selection);
  // dashboardKpis's Top Overpaid Service is the first of the top 10 (contract/rules/dashboard-figures.ts)
  const top = selectionPage(ctx, selection, { sort: 'variance', units: 'counting', offset: 0, limit: TOP_OVERPAID }) as CountedRecord[];
  const withVariance = summary.services_total;
  return {
    snapshot: selection.snapshot,
    competitors: [...selection.competitors],
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

export const dashboardFigures: Endpoint<'GET /api/dashboard-figures'> = {
  route: 'GET /api/dashboard-figures',
  pure: true,
  reads: 'first-tables',
  stats: (params, ctx) => selectionNeed(ctx, params, ALL_STATES),
  parse: (query, ctx) => parseProviderOptions(query, ctx.manifest),
  run: async (params, ctx) => run(params, ctx),
};
