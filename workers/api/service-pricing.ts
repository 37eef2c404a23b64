/**
 * `GET /api/service-pricing`: the reference insurer's price of every service against the selected
 * competitors (metrics.md "Per service", "Dashboard figures", "Which snapshot an insurer contributes").
 *
 * SQL does the per-service join and mean over the pre-computed medians of `price_stats`; the
 * figures derived from them (variance, overpayment, savings, Average Overpayment) use
 * contract/metrics.ts, so every screen computes them the same way.
 */
import {
  BILLING_CLASS_FILTERS,
  SERVICE_SORTS,
  type LiveServicePricingRecord,
  type ServicePricingParams,
  type ServicePricingResult,
  type ServiceSort,
} from '../../contract/api';
import { ALL_STATES } from '../../contract/dataset';
import { averageOverpayment, potentialSavings, referenceVariance, SERVICE_CODE_TYPES } from '../../contract/metrics';
import { sql } from '../db/sql';
import type { ApiContext } from './context';
import type { Endpoint } from './endpoint';
import { invalidParam } from './errors';
import { optional, parseBoolean, parseInteger, parseOneOf } from './params';

/** Largest page (rows). */
export const MAX_LIMIT = 1000;

function parse(query: Readonly<Record<string, string>>, { manifest }: ApiContext): ServicePricingParams {
  const p: ServicePricingParams = {};
  const limit = optional(query, 'limit');
  if (limit !== undefined) p.limit = parseInteger('limit', limit, 1, MAX_LIMIT);
  const offset = optional(query, 'offset');
  if (offset !== undefined) p.offset = parseInteger('offset', offset, 0, Number.MAX_SAFE_INTEGER);
  const category = optional(query, 'category');
  if (category !== undefined) p.category = category;
  const cls = optional(query, 'billing_class');
  if (cls !== undefined) p.billing_class = parseOneOf('billing_class', cls, BILLING_CLASS_FILTERS);
  const state = optional(query, 'state');
  if (state !== undefined) {
    if (!/^[A-Za-z]{2}$/.test(state)) throw invalidParam('state', state);
    p.state = state.toUpperCase();
  }
  const competitors = optional(query, 'competitors');
  if (competitors !== undefined) {
    const ids = [...new Set(competitors.split(',').map((s) => s.trim()).filter((s) => s !== ''))];
    for (const id of ids) {
      const known = manifest.insurers.some((i) => i.id === id);
      if (!known || id === manifest.reference_insurer) throw invalidParam('competitors', id);
    }
    if (ids.length > 0) p.competitors = ids;
  }
  const only = optional(query, 'only_overpaying');
  if (only !== undefined) p.only_overpaying = parseBoolean('only_overpaying', only);
  const sort = optional(query, 'sort');
  if (sort !== undefined) p.sort = parseOneOf('sort', sort, SERVICE_SORTS);
  const snapshot = optional(query, 'snapshot');
  if (snapshot !== undefined) {
    if (!manifest.snapshots.includes(snapshot)) throw invalidParam('snapshot', snapshot);
    p.snapshot = snapshot;
  }
  return p;
}

/** One row per service with a price from the reference or a selected competitor. */
interface ServiceRow {
  [key: string]: string | number | null | Array<{ id: string; price: number }>;
  service_code: string;
  billing_code_type: string;
  service_name: string;
  category: string;
  reference_price: number | null;
  market_average: number | null;
  competitor_prices: Array<{ id: string; price: number }> | null;
  claims_volume: number;
}

interface Selection {
  snapshot: string;
  reference: string;
  competitors: string[];
  classSelection: string;
  state: string;
  /** claims_volume.state to weigh by (metrics.md, Per-state claims weights). */
  claimsState: string;
  category: string | undefined;
}

/**
 * Per service: price(s, R), the competitors' medians and their mean, and the claims count.
 * Each insurer contributes its latest snapshot <= M having any price_stats row.
 */
function servicesQuery(s: Selection) {
  const insurers = [s.reference, ...s.competitors];
  const category = s.category === undefined ? sql`` : sql`AND s.category = ${s.category}`;
  return sql`
    WITH chosen AS (
      SELECT insurer_id, max(snapshot) AS snapshot FROM price_stats
      WHERE snapshot <= ${s.snapshot} AND insurer_id IN (${insurers})
      GROUP BY insurer_id
    ), prices AS (
      SELECT p.insurer_id, p.billing_code, p.median_rate::DOUBLE AS price
      FROM price_stats p JOIN chosen c ON p.insurer_id = c.insurer_id AND p.snapshot = c.snapshot
      WHERE p.class_selection = ${s.classSelection} AND p.state = ${s.state}
    ), claims AS (
      SELECT billing_code, sum(claims_count)::DOUBLE AS claims FROM claims_volume
      WHERE state = ${s.claimsState}
      GROUP BY billing_code
    )
    SELECT s.billing_code AS service_code, s.billing_code_type, s.name AS service_name, s.category,
      max(p.price) FILTER (WHERE p.insurer_id = ${s.reference}) AS reference_price,
      avg(p.price) FILTER (WHERE p.insurer_id <> ${s.reference}) AS market_average,
      list(struct_pack(id := p.insurer_id, price := p.price) ORDER BY p.insurer_id)
        FILTER (WHERE p.insurer_id <> ${s.reference}) AS competitor_prices,
      coalesce(any_value(cl.claims), 0) AS claims_volume
    FROM services s
    JOIN prices p ON p.billing_code = s.billing_code
    LEFT JOIN claims cl ON cl.billing_code = s.billing_code
    WHERE s.billing_code_type IN (${SERVICE_CODE_TYPES}) ${category}
    GROUP BY s.billing_code, s.billing_code_type, s.name, s.category`;
}

function toRecord(r: ServiceRow): LiveServicePricingRecord {
  const variance = referenceVariance(r.reference_price, r.market_average);
  const overpayment = variance == null ? null : r.reference_price! - r.market_average!;
  return {
    service_code: r.service_code,
    billing_code_type: r.billing_code_type,
    service_name: r.service_name,
    category: r.category,
    reference_price: r.reference_price,
    competitor_prices: Object.fromEntries((r.competitor_prices ?? []).map((c) => [c.id, c.price])),
    market_average: r.market_average,
    reference_variance: variance,
    overpayment,
    claims_volume: r.claims_volume,
    potential_savings: potentialSavings(overpayment, r.claims_volume),
    anthem_price: r.reference_price,
    anthem_variance: variance,
  };
}

const SORT_KEY: Record<ServiceSort, (r: LiveServicePricingRecord) => number | null> = {
  overpayment: (r) => r.overpayment,
  variance: (r) => r.reference_variance,
  savings: (r) => r.potential_savings,
};

/** Descending, nulls last, ties by service_code ascending. */
function compareBy(sort: ServiceSort) {
  const key = SORT_KEY[sort];
  return (a: LiveServicePricingRecord, b: LiveServicePricingRecord): number => {
    const x = key(a);
    const y = key(b);
    if (x !== y) {
      if (x === null) return 1;
      if (y === null) return -1;
      return y - x;
    }
    return a.service_code < b.service_code ? -1 : a.service_code > b.service_code ? 1 : 0;
  };
}

function run(params: ServicePricingParams, { db, manifest }: ApiContext): ServicePricingResult {
  const reference = manifest.reference_insurer;
  const snapshot = params.snapshot ?? manifest.snapshots[manifest.snapshots.length - 1] ?? '';
  const competitors = params.competitors ?? manifest.insurers.map((i) => i.id).filter((id) => id !== reference);
  const rows = db.all<ServiceRow>(
    servicesQuery({
      snapshot,
      reference,
      competitors,
      classSelection: params.billing_class ?? 'all',
      state: params.state ?? ALL_STATES,
      // metrics.md, Per-state claims weights: the state's rows when the input had a state column.
      claimsState: params.state !== undefined && manifest.claims_by_state ? params.state : ALL_STATES,
      category: params.category,
    }),
  );
  const all = rows.map(toRecord);
  const summary = {
    total_potential_savings: all.reduce((a, r) => a + r.potential_savings, 0),
    avg_overpayment: averageOverpayment(all.map((r) => ({ variance: r.reference_variance, claims: r.claims_volume }))),
    services_overpaying: all.filter((r) => r.overpayment !== null && r.overpayment > 0).length,
    services_total: all.length,
    comparing_against: competitors.length,
  };
  const kept = params.only_overpaying ? all.filter((r) => r.overpayment !== null && r.overpayment > 0) : all;
  kept.sort(compareBy(params.sort ?? 'overpayment'));
  const offset = params.offset ?? 0;
  const limit = params.limit ?? null;
  return {
    records: kept.slice(offset, limit === null ? undefined : offset + limit),
    total: kept.length,
    offset,
    limit,
    snapshot,
    reference_insurer: reference,
    competitors,
    summary,
  };
}

export const servicePricing: Endpoint<'GET /api/service-pricing'> = {
  route: 'GET /api/service-pricing',
  parse,
  run,
};
