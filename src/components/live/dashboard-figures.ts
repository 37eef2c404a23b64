/**
 * The live dashboard's figures from `GET /api/service-pricing` records (metrics.md, Dashboard
 * figures), and axis domains that fit the data (the fixed 0-30 % and 8-20 % axes are the sample
 * screens'). Pure.
 */
import type { LiveServicePricingRecord } from '../../../contract/api';
import { averageOverpayment } from '../../../contract/metrics';
import { DEFAULT_STATE, writeLiveComparison } from '../../url-state/live-comparison-state';

export interface DashboardKpis {
  /** Claims-weighted mean of reference_variance, percent; null when no service has a variance. */
  averageOverpayment: number | null;
  /** The service with the largest variance (ties: the smaller code), or null. */
  top: LiveServicePricingRecord | null;
  /** Share of the services with a variance whose variance is above 0, percent; null when none has one. */
  claimsAboveMarket: number | null;
  /** Services with a variance. */
  withVariance: number;
}

const withVar = (records: readonly LiveServicePricingRecord[]) =>
  records.filter((r): r is LiveServicePricingRecord & { reference_variance: number } => r.reference_variance !== null);

/** The three KPI cards (metrics.md, Dashboard figures). */
export function dashboardKpis(records: readonly LiveServicePricingRecord[]): DashboardKpis {
  const v = withVar(records);
  const top = topOverpaid(records, 1)[0] ?? null;
  return {
    averageOverpayment: averageOverpayment(records.map((r) => ({ variance: r.reference_variance, claims: r.claims_volume }))),
    top,
    claimsAboveMarket: v.length === 0 ? null : (100 * v.filter((r) => r.reference_variance > 0).length) / v.length,
    withVariance: v.length,
  };
}

/** The `n` largest variances, descending; ties by code ascending. */
export function topOverpaid(records: readonly LiveServicePricingRecord[], n = 10): Array<LiveServicePricingRecord & { reference_variance: number }> {
  return withVar(records)
    .sort((a, b) => b.reference_variance - a.reference_variance || (a.service_code < b.service_code ? -1 : 1))
    .slice(0, n);
}

/** A step of 1, 2, 5 x 10^k giving about `ticks` intervals over `span`. */
function niceStep(span: number, ticks: number): number {
  const raw = span / ticks;
  const p = 10 ** Math.floor(Math.log10(raw));
  const m = raw / p;
  return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

/**
 * An axis domain fitting `values` (percent), rounded out to nice steps. With `includeZero` the
 * domain reaches 0 (bars start there). An empty list gives [0, 10]; a single value gets room.
 */
export function fitDomain(values: readonly number[], includeZero: boolean): [number, number] {
  const finite = values.filter(Number.isFinite);
  if (finite.length === 0) return [0, 10];
  let lo = Math.min(...finite);
  let hi = Math.max(...finite);
  if (includeZero) {
    lo = Math.min(lo, 0);
    hi = Math.max(hi, 0);
  }
  if (hi - lo < 1e-9) {
    lo -= 1;
    hi += 1;
  }
  const step = niceStep(hi - lo, 5);
  const out: [number, number] = [Math.floor(lo / step) * step, Math.ceil(hi / step) * step];
  // A value on the edge gets one more step of room (its label or dot would touch the frame).
  if (!includeZero || out[0] < 0) out[0] = out[0] === lo ? out[0] - step : out[0];
  if (out[1] === hi) out[1] += step;
  return [Number(out[0].toPrecision(12)), Number(out[1].toPrecision(12))];
}

/**
 * The live comparison of one service (URL state `services=<code>`; from a bar of Top 10
 * Overpaid Services to the rows behind its prices). A service not above market (variance <= 0)
 * also turns off 'Show only overpaying services', or the comparison would hide it.
 */
export function comparisonPathOf(serviceCode: string, variance: number): string {
  const search = writeLiveComparison(new URLSearchParams(), { ...DEFAULT_STATE, services: [serviceCode], overpayingOnly: variance > 0 });
  return `/live-comparison?${search.toString()}`;
}
