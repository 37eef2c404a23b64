/**
 * The manifest's headline (contract/files/dataset.ts ManifestHeadline; docs/methodology.md, Validation): Average
 * Overpayment of the latest month, national, every competitor, every unit, once over the valid
 * rates with thin units left out (what the dashboard shows) and once over every dollar rate with
 * no thin rule (validation off), from `price_stats` and `ps_unvalidated` (build-price-stats.ts)
 * and `claims_volume`.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { ALL_STATES, MARKET_SCOPE, type DatasetManifest, type ManifestHeadline } from '../../../contract/files/dataset';
import { countedAverageOverpayment } from '../../../contract/rules/dashboard-figures';
import { claimsByUnit, referenceVariance, thinReason, type ClaimsUnit } from '../../../contract/rules/metrics';

/** A unit's national figures of the latest month: the reference price and the competitors' mean, with their support. */
interface UnitFigures extends ClaimsUnit {
  billing_code: string;
  reference_price: number | null;
  market_average: number | null;
  competitor_providers: number;
}

/** The units of `table` (price_stats' columns; `where` narrows it), each insurer at its latest snapshot <= `month`. */
async function unitsOf(con: DuckDBConnection, table: string, where: string, month: string, reference: string): Promise<UnitFigures[]> {
  const r = await con.runAndReadAll(`
    WITH chosen AS (SELECT insurer_id, max(snapshot) AS snapshot FROM ${table} WHERE snapshot <= $1 GROUP BY insurer_id),
    p AS (SELECT t.* FROM ${table} t JOIN chosen c ON c.insurer_id = t.insurer_id AND c.snapshot = t.snapshot WHERE ${where})
    SELECT billing_code, billing_class, component, setting,
           max(median_rate) FILTER (WHERE insurer_id = $2) AS reference_price,
           coalesce(max(provider_count) FILTER (WHERE insurer_id = $2), 0) AS reference_providers,
           -- summed in insurer order: a parallel sum's order would move the last digits from run to run
           avg(median_rate ORDER BY insurer_id) FILTER (WHERE insurer_id <> $2) AS market_average,
           coalesce(sum(provider_count) FILTER (WHERE insurer_id <> $2), 0) AS competitor_providers
    FROM p GROUP BY ALL ORDER BY ALL`, [month, reference]);
  return r.getRowObjects().map((o) => ({
    billing_code: String(o.billing_code), billing_class: String(o.billing_class), component: String(o.component), setting: String(o.setting),
    reference_price: o.reference_price === null ? null : Number(o.reference_price),
    reference_providers: Number(o.reference_providers),
    market_average: o.market_average === null ? null : Number(o.market_average),
    competitor_providers: Number(o.competitor_providers),
  }));
}

/**
 * Average Overpayment over `units` (contract/rules/dashboard-figures.ts countedAverageOverpayment: the
 * units with a variance that are not thin), claims per unit by claimsByUnit; thin by
 * contract/rules/metrics.ts thinReason with `minProviders`, or never (validation off: null).
 */
function average(units: UnitFigures[], claims: Map<string, { professional: number; institutional: number }>, minProviders: number | null): number | null {
  const byCode = new Map<string, UnitFigures[]>();
  for (const u of units) byCode.set(u.billing_code, [...(byCode.get(u.billing_code) ?? []), u]);
  const records: Array<{ reference_variance: number | null; thin: boolean; claims_volume: number }> = [];
  for (const [code, list] of byCode) {
    const weights = claimsByUnit(list, claims.get(code) ?? { professional: 0, institutional: 0 });
    list.forEach((u, k) => {
      // a variance a double cannot hold (a market average of 5e-324 USD, or of two rates near 1e308
      // whose sum overflows) is left out like a missing one: with validation off every finite rate
      // counts, and one of them must not turn the figure into Infinity or NaN (null in the JSON)
      const variance = referenceVariance(u.reference_price, u.market_average);
      const thin = minProviders !== null && thinReason(u.reference_price === null ? null : u.reference_providers,
        u.market_average === null ? null : u.competitor_providers, minProviders) !== null;
      records.push({ reference_variance: variance !== null && Number.isFinite(variance) ? variance : null, thin, claims_volume: weights[k]! });
    });
  }
  const avg = countedAverageOverpayment(records);
  return avg !== null && Number.isFinite(avg) ? avg : null;
}

/**
 * The headline of a dataset whose `price_stats`, `ps_unvalidated` and `claims_volume` are built,
 * for `manifest`'s latest snapshot, reference insurer and `validation.min_providers`.
 * @throws when SQL fails.
 */
export async function headlineOf(con: DuckDBConnection, manifest: DatasetManifest): Promise<ManifestHeadline> {
  const snapshot = manifest.snapshots[manifest.snapshots.length - 1] ?? '';
  const reference = manifest.reference_insurer;
  const min = manifest.validation.min_providers;
  const claims = new Map<string, { professional: number; institutional: number }>();
  const rows = await con.runAndReadAll(`SELECT billing_code, billing_class, claims_count FROM claims_volume WHERE state = '${ALL_STATES}'`);
  for (const [code, cls, n] of rows.getRows()) {
    const c = claims.get(String(code)) ?? { professional: 0, institutional: 0 };
    if (cls === 'professional' || cls === 'institutional') c[cls] += Number(n);
    claims.set(String(code), c);
  }
  const validated = await unitsOf(con, 'price_stats', `state = '${ALL_STATES}' AND scope = '${MARKET_SCOPE}'`, snapshot, reference);
  const unvalidated = await unitsOf(con, 'ps_unvalidated', 'true', snapshot, reference);
  return {
    snapshot,
    avg_overpayment_validated: average(validated, claims, min),
    avg_overpayment_unvalidated: average(unvalidated, claims, null),
  };
}
