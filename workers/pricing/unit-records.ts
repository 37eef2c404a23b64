/**
 * Records as `GET /api/service-pricing` answers them, from pricing-core.ts's priced units, and the
 * records of a few units with the competitors' lists of prices: the endpoints price every unit of a
 * selection without those lists (which cost about two thirds of a pass at a national dataset) and
 * add them to the records they send only (service-pricing.ts, dashboard-figures.ts).
 */
import type { LiveServicePricingRecord } from '../../contract/api';
import { unitRowKey, type CodeUnit } from '../../contract/rules/metrics';
import type { ApiContext } from '../context';
import { priceServices, type PricedService, type PricingSelection } from './pricing-core';

/** The records answered for `units`: without the state and the support total. */
export function serviceRecords(units: readonly PricedService[]): LiveServicePricingRecord[] {
  return units.map(({ state: _state, competitor_provider_total: _total, ...record }): LiveServicePricingRecord => record);
}

/**
 * Every unit of `codes` in `selection`, priced with the competitors' lists, by unitRowKey. A unit's
 * record does not depend on the other codes priced with it, so these equal a full pass's.
 * @throws DatabaseError
 */
export function unitsWithLists(ctx: ApiContext, selection: PricingSelection, codes: readonly string[]): Map<string, LiveServicePricingRecord> {
  if (codes.length === 0) return new Map();
  const units = priceServices(ctx, { ...selection, competitorPrices: true, services: [...new Set(codes)] });
  return new Map(serviceRecords(units).map((r) => [unitRowKey(r), r]));
}

/** `unit`'s record in `priced` (unitsWithLists). @throws Error naming `what` when it was not priced */
export function recordWithLists(priced: ReadonlyMap<string, LiveServicePricingRecord>, unit: CodeUnit, what: string): LiveServicePricingRecord {
  const record = priced.get(unitRowKey(unit));
  if (!record) throw new Error(`${what}: unit ${unitRowKey(unit)} was not priced again`);
  return record;
}
