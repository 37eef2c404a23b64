/**
 * The live dashboard's figures from `GET /api/service-pricing` records (docs/methodology.md, Dashboard
 * figures), and axis domains that fit the data (the fixed 0-30 % and 8-20 % axes are the sample
 * screens'). A record is one comparison unit; "service" in these figures means a unit that has a
 * variance and is not thin (a thin unit is listed elsewhere with its mark, and counts in none). Pure.
 */
import type { LiveServicePricingRecord } from '../../../contract/api';
import { averageOverpayment } from '../../../contract/metrics';
import { DEFAULT_STATE, writeLiveComparison } from '../../url-state/live-comparison-state';
import { compareCodeUnits } from './unit-format';

/** A unit that enters the dashboard figures: it has a variance and is not thin. */
export type CountedRecord = LiveServicePricingRecord & { reference_variance: number };

export interface DashboardKpis {
  /** Claims-weighted mean of reference_variance over the counted units, percent; null when there is none. */
  averageOverpayment: number | null;
  /** The counted unit with the largest variance (ties: code, then unit order), or null. */
  top: CountedRecord | null;
  /** Share of the counted units whose variance is above 0, percent; null when there is none. */
  claimsAboveMarket: number | null;
  /** Counted units (with a variance, not thin). */
  withVariance: number;
  /** Units with a variance left out because they are thin. */
  thinLeftOut: number;
}

/** The units the figures count (docs/methodology.md, Dashboard figures): a variance, and not thin. */
export function countedRecords(records: readonly LiveServicePricingRecord[]): CountedRecord[] {
  return records.filter((r): r is CountedRecord => r.reference_variance !== null && !r.thin);
}

/** The three KPI cards (docs/methodology.md, Dashboard figures). */
export function dashboardKpis(records: readonly LiveServicePricingRecord[]): DashboardKpis {
  const v = countedRecords(records);
  const top = topOverpaid(records, 1)[0] ?? null;
  return {
    averageOverpayment: averageOverpayment(v.map((r) => ({ variance: r.reference_variance, claims: r.claims_volume }))),
    top,
    claimsAboveMarket: v.length === 0 ? null : (100 * v.filter((r) => r.reference_variance > 0).length) / v.length,
    withVariance: v.length,
    thinLeftOut: records.filter((r) => r.reference_variance !== null && r.thin).length,
  };
}

/** The `n` largest variances of the counted units, descending; ties by code, then unit order. */
export function topOverpaid(records: readonly LiveServicePricingRecord[], n = 10): CountedRecord[] {
  return countedRecords(records)
    .sort((a, b) => b.reference_variance - a.reference_variance || compareCodeUnits(a, b))
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
 * also turns off 'Show only overpaying services', or the comparison would hide it; `sharedProviders`
 * (the dashboard's 'At shared providers') carries over, so the comparison shows the same prices.
 */
export function comparisonPathOf(serviceCode: string, variance: number, sharedProviders = false): string {
  const search = writeLiveComparison(new URLSearchParams(), {
    ...DEFAULT_STATE, services: [serviceCode], overpayingOnly: variance > 0, sharedProviders,
  });
  return `/live-comparison?${search.toString()}`;
}
