/**
 * The dashboard figures over `GET /api/service-pricing` records (docs/methodology.md, Dashboard
 * figures): the KPI cards and Top 10 Overpaid Services. A record is one comparison unit; "service"
 * in these figures means a unit that has a variance and is not thin (a thin unit is listed
 * elsewhere with its mark, and counts in none). Variances are percent. Pure; the worker's
 * `GET /api/dashboard-figures` and the screens share this one implementation.
 */
import type { CountedRecord, DashboardKpis, LiveServicePricingRecord } from '../api';

export type { CountedRecord, DashboardKpis };
import { averageOverpayment, compareCodeUnits } from './metrics';

/** How many bars Top 10 Overpaid Services draws. */
export const TOP_OVERPAID = 10;

/**
 * The units the figures count (docs/methodology.md, Dashboard figures): a variance, and not thin.
 * The one definition of the rule in JavaScript: the worker's passes, the screens and the
 * converter's manifest headline (scripts/convert/build/headline.ts) call it; its SQL twin is
 * contract/sql/unit-figures-sql.ts COUNTING_SQL, held equal to it by test/worker/selection-tables.test.ts.
 */
export function countedRecords<T extends Pick<LiveServicePricingRecord, 'reference_variance' | 'thin'>>(records: readonly T[]): Array<T & { reference_variance: number }> {
  return records.filter((r): r is T & { reference_variance: number } => r.reference_variance !== null && !r.thin);
}

/**
 * Average Overpayment (docs/methodology.md, Dashboard figures) over the counted units of `records`:
 * the claims-weighted mean of their variances (percent), the plain mean when every weight is 0;
 * null when none counts.
 */
export function countedAverageOverpayment(records: ReadonlyArray<Pick<LiveServicePricingRecord, 'reference_variance' | 'thin' | 'claims_volume'>>): number | null {
  return averageOverpayment(countedRecords(records).map((r) => ({ variance: r.reference_variance, claims: r.claims_volume })));
}

/** The three KPI cards (docs/methodology.md, Dashboard figures). */
export function dashboardKpis(records: readonly LiveServicePricingRecord[]): DashboardKpis {
  const v = countedRecords(records);
  const top = topOverpaid(records, 1)[0] ?? null;
  return {
    averageOverpayment: countedAverageOverpayment(records),
    top,
    claimsAboveMarket: v.length === 0 ? null : (100 * v.filter((r) => r.reference_variance > 0).length) / v.length,
    withVariance: v.length,
    thinLeftOut: records.filter((r) => r.reference_variance !== null && r.thin).length,
  };
}

/** The `n` largest variances of the counted units, descending; ties by code, then unit order. */
export function topOverpaid(records: readonly LiveServicePricingRecord[], n = TOP_OVERPAID): CountedRecord[] {
  return countedRecords(records)
    .sort((a, b) => b.reference_variance - a.reference_variance || compareCodeUnits(a, b))
    .slice(0, n);
}
