/**
 * `GET /api/regional-comparison`: Variance by Region (docs/methodology.md, Dashboard figures): for each
 * state, Average Overpayment of the reference insurer over that state's price_stats rows, against
 * every competitor, every comparison unit (no billing-class chip), at the latest snapshot (or
 * `snapshot`), over the state's units that have a variance and are not thin, weighted by the
 * state's claims when the input had a state column. States where no such unit exists are left out.
 * Ascending by state code. `shared_providers=1`: every price at shared providers (docs/methodology.md, Per
 * comparison unit, At shared providers), matched within the state; `billed=1`: at billing providers
 * (Where we bill it). The figures come from one SQL
 * statement (overpayment-sql.ts).
 */
import type { RegionalComparison } from '../../contract/api';
import { ALL_STATES } from '../../contract/files/dataset';
import type { Endpoint } from './endpoint';
import { parseProviderOptions, parseSnapshot } from './params';
import { averageOverpaymentByMonth } from '../pricing/overpayment-sql';
import { allCompetitors, EVERY_STATE, latestSnapshot, monthNeed } from '../pricing/pricing-core';

export const regionalComparison: Endpoint<'GET /api/regional-comparison'> = {
  route: 'GET /api/regional-comparison',
  pure: true,
  reads: 'first-tables',
  stats: (params, ctx) => monthNeed(ctx, params, EVERY_STATE),
  parse: (query, ctx) => ({ ...parseSnapshot(query, ctx.manifest.snapshots), ...parseProviderOptions(query, ctx.manifest) }),
  run(params, ctx): RegionalComparison[] {
    const figures = averageOverpaymentByMonth(ctx, {
      reference: ctx.manifest.reference_insurer,
      competitors: allCompetitors(ctx),
      state: EVERY_STATE,
      sharedProviders: params.shared_providers === true,
      billed: params.billed === true,
    }, [params.snapshot ?? latestSnapshot(ctx)]);
    // ordered by state code (averageOverpaymentByMonth)
    return figures.filter((f) => f.state !== ALL_STATES).map((f) => ({
      region: f.state,
      anthem_avg_overpayment: f.avg_overpayment,
      services: f.services,
      claims_count: f.claims_count,
    }));
  },
};
