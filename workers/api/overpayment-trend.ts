/**
 * `GET /api/overpayment-trend`: for each snapshot month of the dataset, Average Overpayment of that
 * month (docs/methodology.md, Dashboard figures, Overpayment Trend: each insurer's latest snapshot at or before the month,
 * national, every comparison unit, every competitor, over the units with a variance that are not
 * thin); months without any such unit are left out; ascending. Every month comes from one
 * statement (overpayment-sql.ts). `shared_providers=1`: every price at shared
 * providers (docs/methodology.md, Per comparison unit, At shared providers), matched month by month.
 */
import type { TrendPoint } from '../../contract/api';
import { ALL_STATES } from '../../contract/files/dataset';
import type { Endpoint } from './endpoint';
import { parseProviderOptions } from './params';
import { averageOverpaymentByMonth } from '../pricing/overpayment-sql';
import { allCompetitors, statsNeedOf } from '../pricing/pricing-core';

export const overpaymentTrend: Endpoint<'GET /api/overpayment-trend'> = {
  route: 'GET /api/overpayment-trend',
  pure: true,
  reads: 'first-tables',
  stats: (params, ctx) => statsNeedOf({ state: ALL_STATES, sharedProviders: params.shared_providers, billed: params.billed }, ctx.manifest.snapshots),
  parse: (query, ctx) => parseProviderOptions(query, ctx.manifest),
  run(params, ctx): TrendPoint[] {
    const months = [...ctx.manifest.snapshots].sort();
    const figures = averageOverpaymentByMonth(ctx, {
      reference: ctx.manifest.reference_insurer,
      competitors: allCompetitors(ctx),
      state: ALL_STATES,
      sharedProviders: params.shared_providers === true,
      billed: params.billed === true,
    }, months);
    // ascending by month (averageOverpaymentByMonth); a month without a unit that counts has no entry
    return figures.map((f) => ({ month: f.month, value: f.avg_overpayment }));
  },
};
