/**
 * `GET /api/overpayment-trend`: for each snapshot month of the dataset, Average Overpayment of that
 * month (metrics.md, Overpayment Trend: each insurer's latest snapshot at or before the month,
 * national, both classes, every competitor); months without any variance are left out; ascending.
 * Every month comes from one statement (pricing-core.ts `priceServicesByMonth`).
 */
import type { TrendPoint } from '../../contract/api';
import { ALL_STATES } from '../../contract/dataset';
import { averageOverpayment } from '../../contract/metrics';
import type { Endpoint } from './endpoint';
import { allCompetitors, priceServicesByMonth } from './pricing-core';

export const overpaymentTrend: Endpoint<'GET /api/overpayment-trend'> = {
  route: 'GET /api/overpayment-trend',
  parse: () => ({}),
  run(_params, ctx): TrendPoint[] {
    const months = [...ctx.manifest.snapshots].sort();
    const selection = {
      reference: ctx.manifest.reference_insurer,
      competitors: allCompetitors(ctx),
      classSelection: 'all' as const,
      state: ALL_STATES,
      competitorPrices: false,
    };
    const byMonth = priceServicesByMonth(ctx, selection, months);
    const out: TrendPoint[] = [];
    for (const month of months) {
      const rows = byMonth.get(month) ?? [];
      const value = averageOverpayment(rows.map((r) => ({ variance: r.reference_variance, claims: r.claims_volume })));
      if (value !== null) out.push({ month, value });
    }
    return out;
  },
};
