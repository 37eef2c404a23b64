/**
 * UI helpers of the live dashboard: axis domains that fit the data (the fixed 0-30 % and 8-20 %
 * axes are the sample screens') and the way from a Top 10 bar into the live comparison. The
 * figures themselves (docs/methodology.md, Dashboard figures) are computed by
 * contract/rules/dashboard-figures.ts, re-exported here for the screens and their tests. Pure.
 */
import { DEFAULT_STATE, writeLiveComparison } from '../url-state/live-comparison-state';
import { NO_PROVIDER_OPTIONS, type ProviderOptionsState } from '../url-state/shared-providers';

export {
  countedRecords,
  dashboardKpis,
  topOverpaid,
  type CountedRecord,
  type DashboardKpis,
} from '../../../contract/rules/dashboard-figures';

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
 * also turns off 'Show only overpaying services', or the comparison would hide it; the provider
 * options (the dashboard's 'At shared providers' and 'Where we bill it') carry over, so the
 * comparison shows the same prices.
 */
export function comparisonPathOf(serviceCode: string, variance: number, options: ProviderOptionsState = NO_PROVIDER_OPTIONS): string {
  const search = writeLiveComparison(new URLSearchParams(), {
    ...DEFAULT_STATE, services: [serviceCode], overpayingOnly: variance > 0, sharedProviders: options.sharedProviders, billed: options.billed,
  });
  return `/live-comparison?${search.toString()}`;
}
