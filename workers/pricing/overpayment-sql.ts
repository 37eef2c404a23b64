/**
 * Average Overpayment of a selection per (month, state), computed in DuckDB
 * (contract/sql/unit-figures-sql.ts) rather than over records in JavaScript: the regional map and the
 * trend need one figure per state or month, and carrying every unit across the Arrow boundary to
 * add them up cost more than the statement itself (a market-year trend: 480,000 units for 12
 * figures). The units are pricing-core.ts unitsQuery's, without the competitors' lists; the rules
 * are those of pricingServicesByMonth + unitsAverageOverpayment (docs/methodology.md, Dashboard
 * figures), which test/worker/unit-figures-sql.test.ts holds equal on the fixture datasets.
 */
import { averageOverpaymentSql, unitFiguresSql } from '../../contract/sql/unit-figures-sql';
import { sql, SqlFragment } from '../db/sql';
import type { ApiContext } from '../context';
import { allCompetitors, minProvidersOf, unitsQuery, type Selection } from './pricing-core';
import { assertStatsLoaded } from './stats-selection';

/** Average Overpayment of one (month, state): percent, with the units it rests on and their claims. */
export type OverpaymentFigure = {
  month: string;
  /** A state code, or `ALL` (national). */
  state: string;
  avg_overpayment: number;
  /** The units that count (a variance, not thin). */
  services: number;
  /** Their claims_volume added up. */
  claims_count: number;
};

/**
 * Average Overpayment of `s` (every billing class; competitor prices are not read) for each month
 * of `months` and each state of `s.state` (EVERY_STATE: each state and `ALL`); a (month, state)
 * without a unit that counts has no entry. Ordered by month, then state. Not for a provider
 * selection. @throws DatabaseError; Error when the statistics the selection reads are not loaded.
 */
export function averageOverpaymentByMonth(ctx: ApiContext, s: Omit<Selection, 'billingClass' | 'competitorPrices' | 'providers'>, months: readonly string[]): OverpaymentFigure[] {
  assertStatsLoaded(ctx, s, months);
  const selection: Selection = { ...s, billingClass: 'all', competitorPrices: false };
  const units = unitsQuery(ctx, selection, months, ctx.manifest.claims_by_state, allCompetitors(ctx));
  const figures = new SqlFragment(unitFiguresSql('unit_rows', minProvidersOf(ctx)), []);
  const average = new SqlFragment(averageOverpaymentSql('unit_figures'), []);
  return ctx.db.all<OverpaymentFigure>(sql`
    WITH unit_rows AS (
      SELECT month, state, service_code AS billing_code, billing_class, component, setting, reference_price, market_average,
        reference_providers, competitor_provider_total, claims_professional, claims_institutional
      FROM (${units})),
    unit_figures AS (${figures})
    SELECT * FROM (${average}) ORDER BY month, state`);
}
