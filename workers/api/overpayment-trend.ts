/**
 * `GET /api/overpayment-trend`: for each snapshot month of the dataset, Average Overpayment of that
 * month (docs/methodology.md, Dashboard figures, Overpayment Trend: each insurer's latest snapshot at or before the month,
 * national, every comparison unit, every competitor, over the units with a variance that are not
 * thin); months without any such unit are left out; ascending. Every month comes from one
 * statement (pricing-core.ts `priceServicesByMonth`). `shared_providers=1`: every price at shared
 * providers (docs/methodology.md, Per comparison unit, At shared providers), matched month by month.
 */
import type { TrendPoint } from '../../contract/api';
import { ALL_STATES } from '../../contract/dataset';
import type { Endpoint } from './endpoint';
import { parseSharedProviders } from './params';
import { allCompetitors, priceServicesByMonth, statsNeedOf, unitsAverageOverpayment } from './pricing-core';

export const overpaymentTrend: Endpoint<'GET /api/overpayment-trend'> = {
  route: 'GET /api/overpayment-trend',
  pure: true,
  reads: 'first-tables',
  stats: (params, ctx) => statsNeedOf({ state: ALL_STATES, sharedProviders: params.shared_providers }, ctx.manifest.snapshots),
  parse: (query) => parseSharedProviders(query),
  run(params, ctx): TrendPoint[] {
    const months = [...ctx.manifest.snapshots].sort();
    const selection = {
      reference: ctx.manifest.reference_insurer,
      competitors: allCompetitors(ctx),
      billingClass: 'all' as const,
      state: ALL_STATES,
      competitorPrices: false,
      sharedProviders: params.shared_providers === true,
    };
    const byMonth = priceServicesByMonth(ctx, selection, months);
    const out: TrendPoint[] = [];
    for (const month of months) {
      const value = unitsAverageOverpayment(byMonth.get(month) ?? []);
      if (value !== null) out.push({ month, value });
    }
    return out;
  },
};
