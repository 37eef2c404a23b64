/**
 * The live comparison's table on screen as CSV rows (what the page shows, full precision), and
 * its file name carrying the filters. Pure.
 */
import type { LiveInsurer, LiveServicePricingRecord } from '../../../contract/api';
import { exportFileName, type LiveComparisonState } from '../../url-state/live-comparison-state';
import type { CsvValue } from './csv';

/** Header and rows: one column per competitor (USD medians), then the derived figures. */
export function comparisonCsv(records: readonly LiveServicePricingRecord[], reference: LiveInsurer | null, competitors: readonly LiveInsurer[]):
  { header: string[]; rows: CsvValue[][] } {
  const header = ['billing_code', 'billing_code_type', 'service_name', 'category', `${reference?.id ?? 'reference'}_price_usd`,
    ...competitors.map((c) => `${c.id}_price_usd`), 'selected_avg_usd', 'overpayment_usd', 'variance_percent', 'claims_volume', 'potential_savings_usd'];
  const rows = records.map((r) => [r.service_code, r.billing_code_type, r.service_name, r.category, r.reference_price,
    ...competitors.map((c) => r.competitor_prices[c.id] ?? null), r.market_average, r.overpayment, r.reference_variance, r.claims_volume, r.potential_savings]);
  return { header, rows };
}

/** `live-comparison_category-lab_competitors-alpha_sort-savings_page-2.csv` (defaults left out). */
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
    ['page', `${s.page + 1}-of-${s.limit}`],
  ]);
}
