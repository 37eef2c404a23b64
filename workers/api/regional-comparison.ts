/**
 * `GET /api/regional-comparison`: Variance by Region (docs/methodology.md, Dashboard figures): for each
 * state, Average Overpayment of the reference insurer over that state's price_stats rows, against
 * every competitor, every comparison unit (no billing-class chip), at the latest snapshot (or
 * `snapshot`), over the state's units that have a variance and are not thin, weighted by the
 * state's claims when the input had a state column. States where no such unit exists are left out.
 * Ascending by state code. `shared_providers=1`: every price at shared providers (docs/methodology.md, Per
 * comparison unit, At shared providers), matched within the state.
 */
import type { RegionalComparison } from '../../contract/api';
import { ALL_STATES } from '../../contract/dataset';
import type { Endpoint } from './endpoint';
import { parseSharedProviders, parseSnapshot } from './params';
import { countingUnits, EVERY_STATE, monthNeed, priceMarket, unitsAverageOverpayment } from './pricing-core';

export const regionalComparison: Endpoint<'GET /api/regional-comparison'> = {
  route: 'GET /api/regional-comparison',
  pure: true,
  reads: 'first-tables',
  stats: (params, ctx) => monthNeed(ctx, params, EVERY_STATE),
  parse: (query, ctx) => ({ ...parseSnapshot(query, ctx.manifest.snapshots), ...parseSharedProviders(query) }),
  run(params, ctx): RegionalComparison[] {
    const rows = priceMarket(ctx, EVERY_STATE, params);
    const byState = new Map<string, typeof rows>();
    for (const r of rows) {
      if (r.state === ALL_STATES) continue;
      const list = byState.get(r.state) ?? [];
      list.push(r);
      byState.set(r.state, list);
    }
    const out: RegionalComparison[] = [];
    for (const [region, list] of [...byState].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const avg = unitsAverageOverpayment(list);
      if (avg === null) continue;
      const counted = countingUnits(list);
      out.push({
        region,
        anthem_avg_overpayment: avg,
        services: counted.length,
        claims_count: counted.reduce((a, r) => a + r.claims_volume, 0),
      });
    }
    return out;
  },
};
