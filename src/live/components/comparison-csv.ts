/**
 * The live comparison's table on screen as CSV rows (what the page shows, full precision), and
 * its file name carrying the filters. Pure.
 */
import type { LiveInsurer, LiveServicePricingRecord, MarketBand } from '../../../contract/api';
import { unitRowKey } from '../../../contract/rules/metrics';
import { exportFileName, type LiveComparisonState } from '../url-state/live-comparison-state';
import type { CsvValue } from './csv';
import { positionOf } from '../../../contract/rules/confidence';

/**
 * Header and rows: one row per comparison unit (its class, component and setting), one column per
 * competitor (USD medians and '% of Medicare'), the market band of `bands` (market-band.ts; empty
 * where a unit has none), then the derived figures (with the unit's position:
 * contract/rules/confidence.ts positionOf), whether the unit is thin and why, and its confidence with its
 * reasons ('; '-separated).
 */
export function comparisonCsv(records: readonly LiveServicePricingRecord[], reference: LiveInsurer | null, competitors: readonly LiveInsurer[],
  bands: ReadonlyMap<string, MarketBand> = new Map()): { header: string[]; rows: CsvValue[][] } {
  const ref = reference?.id ?? 'reference';
  const header = ['billing_code', 'billing_code_type', 'billing_class', 'component', 'setting', 'service_name', 'published_name', 'category',
    `${ref}_price_usd`, `${ref}_medicare_pct`,
    ...competitors.flatMap((c) => [`${c.id}_price_usd`, `${c.id}_medicare_pct`]), 'selected_avg_usd', 'selected_avg_medicare_pct',
    'market_band_p25_usd', 'market_band_p75_usd', 'overpayment_usd', 'variance_percent', 'position', 'claims_volume', 'potential_savings_usd', 'medicare_rate_usd', 'thin', 'thin_reason',
    'confidence', 'confidence_reasons'];
  const rows = records.map((r) => [r.service_code, r.billing_code_type, r.billing_class, r.component, r.setting, r.service_name, r.published_name,
    r.category, r.reference_price, r.reference_medicare_pct,
    ...competitors.flatMap((c) => [r.competitor_prices[c.id] ?? null, r.competitor_medicare_pct[c.id] ?? null]), r.market_average, r.market_medicare_pct,
    bands.get(unitRowKey(r))?.p25 ?? null, bands.get(unitRowKey(r))?.p75 ?? null, r.overpayment, r.reference_variance, positionOf(r.reference_variance), r.claims_volume, r.potential_savings, r.medicare_rate, r.thin, r.thin_reason,
    r.confidence, r.confidence_reasons.join('; ')]);
  return { header, rows };
}

/**
 * `live-comparison_category-lab_competitors-alpha_sort-savings_page-2.csv` (defaults left out);
 * `..._shared-providers_...` when the prices are at shared providers, `..._where-billed_...` where we bill it.
 */
export function comparisonFileName(s: LiveComparisonState, selected: readonly string[], competitorCount: number): string {
  const cls = s.professional && s.institutional ? null : s.professional ? 'professional' : s.institutional ? 'institutional' : 'none';
  return exportFileName('live-comparison', [
    ['category', s.category],
    ['class', cls],
    ['competitors', selected.length === competitorCount ? null : selected.join('-') || 'none'],
    ['services', s.services.join('-')],
    ['providers', s.providers.join('-')],
    ['all', s.overpayingOnly ? null : 'services'],
    ['sort', s.sort === 'overpayment' ? null : s.sort],
    ['shared', s.sharedProviders ? 'providers' : null],
    ['where', s.billed ? 'billed' : null],
    ['confidence', s.minConfidence],
    ['page', `${s.page + 1}-of-${s.limit}`],
  ]);
}
