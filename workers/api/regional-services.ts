/**
 * `GET /api/regional-services?state=XX[&snapshot=YYYY-MM][&shared_providers=1]`: the rows of the map
 * modal (Service, Your Price, Market Avg, Overpayment %; docs/screens.md, Live dashboard) for one state, one per
 * comparison unit, by docs/methodology.md "Per comparison unit" over that state's price_stats rows (at shared
 * providers with `shared_providers=1`, as the dashboard's map then is), each marked thin or not.
 * Sorted by Overpayment % descending, nulls last, then code, then the unit (compareUnits).
 */
import type { RegionalServiceRow } from '../../contract/api';
import { compareUnits } from '../../contract/metrics';
import type { Endpoint } from './endpoint';
import { parseSharedProviders, parseSnapshot, parseStateCode, required } from './params';
import { priceMarket } from './pricing-core';

export const regionalServices: Endpoint<'GET /api/regional-services'> = {
  route: 'GET /api/regional-services',
  pure: true,
  parse(query, ctx) {
    return {
      state: parseStateCode('state', required(query, 'state')),
      ...parseSnapshot(query, ctx.manifest.snapshots),
      ...parseSharedProviders(query),
    };
  },
  run(params, ctx): RegionalServiceRow[] {
    const rows = priceMarket(ctx, params.state, params);
    return rows
      .map((r): RegionalServiceRow => ({
        service_code: r.service_code,
        service_name: r.service_name,
        billing_class: r.billing_class,
        component: r.component,
        setting: r.setting,
        your_price: r.reference_price,
        market_avg: r.market_average,
        overpayment_pct: r.reference_variance,
        thin: r.thin,
      }))
      .sort((a, b) => {
        if (a.overpayment_pct !== b.overpayment_pct) {
          if (a.overpayment_pct === null) return 1;
          if (b.overpayment_pct === null) return -1;
          return b.overpayment_pct - a.overpayment_pct;
        }
        return a.service_code < b.service_code ? -1 : a.service_code > b.service_code ? 1 : compareUnits(a, b);
      });
  },
};
