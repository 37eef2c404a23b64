/**
 * National prices of the sample (docs/methodology.md "Per comparison unit": price(s, i) = median of i's dollar rates
 * for s, one row per provider, both billing classes) and the band the competitors' prices keep.
 *
 * Commercial insurers' negotiated levels for the same code rarely differ by more than a few tens of
 * percent nationally; the sample's per-service noise (level x state mix x provider mix) would
 * sometimes put one competitor 40-50 % from the others on a code, which an analyst would read as a
 * data error. So each competitor's per-service level is pulled, where needed, into
 * ±COMPETITOR_BAND of the competitors' mean for that service in the latest snapshot.
 */
import { groupProviderCount, type NetworkGroup } from './networks';
import type { ServiceTemplates } from './price-templates';

/** Largest relative distance of a competitor's national price from the competitors' mean (0.25 = 25 %). */
export const COMPETITOR_BAND = 0.25;

const DOLLAR = new Set(['negotiated', 'derived', 'fee schedule']);

/** Median of a non-empty list (midpoint of the two middle values when the count is even). */
export function median(values: readonly number[]): number {
  const v = values.slice().sort((a, b) => a - b);
  const m = v.length >> 1;
  return v.length % 2 ? (v[m] as number) : ((v[m - 1] as number) + (v[m] as number)) / 2;
}

/**
 * price(s, i) in USD of a service's templates at an insurer whose level for it is `level` (drift 1,
 * as in the latest snapshot): the median of the dollar amounts, each rounded to cents, one value per
 * provider of a group (its NPIs, or 1 for a TIN-only group). Null without any dollar amount.
 */
export function nationalMedian(st: ServiceTemplates, network: readonly NetworkGroup[], level: number): number | null {
  const values: number[] = [];
  for (const { group, prices } of st.groups) {
    const n = groupProviderCount(network[group] as NetworkGroup);
    for (const p of prices) if (DOLLAR.has(p.negotiatedType)) for (let i = 0; i < n; i++) values.push(Math.round(p.amount * level * 100) / 100);
  }
  return values.length ? median(values) : null;
}

/**
 * Pulls national prices into ±`band` of their mean: `prices` maps an insurer id to price(s, i) in
 * USD; returns the factor to multiply each insurer's level by (1 for those already inside). Clamps
 * the outliers to just inside the band around the current mean and repeats, since moving an outlier
 * moves the mean (the spread shrinks at every pass; at most 100 passes).
 */
export function bandFactors(prices: ReadonlyMap<string, number>, band: number = COMPETITOR_BAND): Map<string, number> {
  const current = new Map(prices);
  const inner = band * 0.96;
  for (let pass = 0; pass < 100 && current.size > 1; pass++) {
    const values = [...current.values()];
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    if (values.every((v) => Math.abs(v / mean - 1) <= band)) break;
    for (const [id, v] of current) current.set(id, Math.min(mean * (1 + inner), Math.max(mean * (1 - inner), v)));
  }
  return new Map([...prices].map(([id, v]) => [id, (current.get(id) as number) / v]));
}
