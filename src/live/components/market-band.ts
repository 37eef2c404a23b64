/**
 * The market bands of the live comparison's page (docs/methodology.md, Confidence and distribution;
 * `GET /api/market-band`): asked once the page's prices have stayed on screen a moment, for the page's codes under the
 * page's own selection, and matched to its rows by unit. Pure.
 */
import type { LiveServicePricingRecord, MarketBand, MarketBandParams, ServicePricingParams } from '../../../contract/api';
import { unitRowKey } from '../../../contract/rules/metrics';

/**
 * How long a page's prices stay on screen before its bands are asked for, ms: a user changing
 * filters in a row never waits behind a band they would not see.
 */
export const BAND_DELAY_MS = 1000;

/**
 * The band request of a page priced with `p` whose records are `records`; null without a record
 * (nothing to draw) or while the page's prices are not those of `p`.
 */
export function marketBandParams(p: ServicePricingParams | null, records: readonly LiveServicePricingRecord[]): MarketBandParams | null {
  if (p === null || records.length === 0) return null;
  const q: MarketBandParams = { services: [...new Set(records.map((r) => r.service_code))].sort() };
  if (p.competitors) q.competitors = p.competitors;
  if (p.snapshot) q.snapshot = p.snapshot;
  if (p.state) q.state = p.state;
  if (p.providers) q.providers = p.providers;
  if (p.shared_providers) q.shared_providers = true;
  if (p.billed) q.billed = true;
  return q;
}

/** The bands by unit (contract/rules/metrics.ts unitRowKey). */
export function bandsByUnit(bands: readonly MarketBand[] | undefined): ReadonlyMap<string, MarketBand> {
  return new Map((bands ?? []).map((b) => [unitRowKey(b), b]));
}
