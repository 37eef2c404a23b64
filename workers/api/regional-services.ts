/**
 * `GET /api/regional-services?state=XX[&snapshot=YYYY-MM][&shared_providers=1][&billed=1]`: the rows of the map
 * modal (Service, Your Price, Market Avg, Overpayment %; docs/screens.md, Live dashboard) for one state, one per
 * comparison unit, by docs/methodology.md "Per comparison unit" over that state's price_stats rows (at shared
 * providers with `shared_providers=1`, at billing providers with `billed=1`, as the dashboard's map then is), each marked thin or not.
 * Sorted by Overpayment % descending, nulls last, then code, then the unit (compareUnits).
 *
 * `GET /api/regional-services-page` answers the same rows a page at a time, searched (`q`) and
 * sorted (`sort`, `direction`) here, so that the state modal receives at most the rows it shows.
 * Both read one list per state and market, kept in ctx.memo.
 */
import {
  REGIONAL_SERVICES_PAGE_DEFAULT_LIMIT,
  REGIONAL_SERVICES_PAGE_MAX_LIMIT,
  REGIONAL_SERVICES_SORTS,
  type RegionalServiceRow,
  type RegionalServicesPageParams,
  type RegionalServicesSort,
} from '../../contract/api';
import { compareUnits } from '../../contract/rules/metrics';
import { sortRows } from '../../contract/rules/sort-rows';
import type { ApiContext } from '../context';
import type { Endpoint } from './endpoint';
import { optional, parseInteger, parseOneOf, parseProviderOptions, parseSnapshot, parseStateCode, required } from './params';
import { monthNeed, priceMarket } from '../pricing/pricing-core';

/** The market of a state's rows: the state, the snapshot, the provider options (every provider, shared ones, billing ones). */
interface StateMarket {
  state: string;
  snapshot?: string;
  shared_providers?: boolean;
  billed?: boolean;
}

/** Parses the market parameters. @throws ApiError 400 for a bad state or snapshot. */
function parseMarket(query: Readonly<Record<string, string>>, ctx: ApiContext): StateMarket {
  return {
    state: parseStateCode('state', required(query, 'state')),
    ...parseSnapshot(query, ctx.manifest.snapshots),
    ...parseProviderOptions(query, ctx.manifest),
  };
}

/** The state's rows in the default order (module comment), computed once per market and kept in ctx.memo. */
function stateRows(ctx: ApiContext, market: StateMarket): RegionalServiceRow[] {
  const key = `regional-services|${market.state}|${market.snapshot ?? ''}|${market.shared_providers ? 1 : 0}|${market.billed ? 1 : 0}`;
  return ctx.memo.get(key, () => computeStateRows(ctx, market), (rows) => rows.length);
}

function computeStateRows(ctx: ApiContext, market: StateMarket): RegionalServiceRow[] {
  return priceMarket(ctx, market.state, market)
    .map((r): RegionalServiceRow => ({
      service_code: r.service_code,
      service_name: r.service_name,
      billing_class: r.billing_class,
      component: r.component,
      setting: r.setting,
      your_price: r.reference_price,
      market_avg: r.market_average,
      overpayment_pct: r.reference_variance,
      thin: r.thin,
    }))
    .sort((a, b) => {
      if (a.overpayment_pct !== b.overpayment_pct) {
        if (a.overpayment_pct === null) return 1;
        if (b.overpayment_pct === null) return -1;
        return b.overpayment_pct - a.overpayment_pct;
      }
      return a.service_code < b.service_code ? -1 : a.service_code > b.service_code ? 1 : compareUnits(a, b);
    });
}

export const regionalServices: Endpoint<'GET /api/regional-services'> = {
  route: 'GET /api/regional-services',
  stats: (params, ctx) => monthNeed(ctx, params, params.state),
  parse: parseMarket,
  run: (params, ctx) => stateRows(ctx, params).slice(),
};

/** The value a sort key orders by: the modal's column ('code name' for the service). */
const SORT_VALUE: Record<RegionalServicesSort, (r: RegionalServiceRow) => number | string | null> = {
  service: (r) => `${r.service_code} ${r.service_name}`,
  your_price: (r) => r.your_price,
  market_avg: (r) => r.market_avg,
  overpayment_pct: (r) => r.overpayment_pct,
};

/**
 * A unit matches `q` (trimmed, lower-cased) when it is a substring of its billing code or of its
 * service name, case-insensitively (product spec, section 5: search matching).
 */
function matches(r: RegionalServiceRow, q: string): boolean {
  return r.service_code.toLowerCase().includes(q) || r.service_name.toLowerCase().includes(q);
}

/**
 * `GET /api/regional-services-page?state=XX[&snapshot][&shared_providers][&billed][&q][&sort][&direction][&offset][&limit]`:
 * see the module comment and contract/api/index.ts RegionalServicesPageParams. The sort is contract/rules/sort-rows.ts
 * `sortRows` over the default order (so ties keep it), the one the table applies to a whole list.
 * @throws ApiError 400 for a bad state, snapshot, sort, direction, offset or limit
 */
export const regionalServicesPage: Endpoint<'GET /api/regional-services-page'> = {
  route: 'GET /api/regional-services-page',
  stats: (params, ctx) => monthNeed(ctx, params, params.state),
  parse(query, ctx) {
    const p: RegionalServicesPageParams = parseMarket(query, ctx);
    const q = optional(query, 'q')?.trim().toLowerCase();
    if (q) p.q = q;
    const sort = optional(query, 'sort');
    if (sort !== undefined) p.sort = parseOneOf('sort', sort, REGIONAL_SERVICES_SORTS);
    const direction = optional(query, 'direction');
    if (direction !== undefined) p.direction = parseOneOf('direction', direction, ['asc', 'desc'] as const);
    const offset = optional(query, 'offset');
    if (offset !== undefined) p.offset = parseInteger('offset', offset, 0, Number.MAX_SAFE_INTEGER);
    const limit = optional(query, 'limit');
    if (limit !== undefined) p.limit = parseInteger('limit', limit, 1, REGIONAL_SERVICES_PAGE_MAX_LIMIT);
    return p;
  },
  run(params, ctx) {
    const all = stateRows(ctx, params);
    const q = params.q;
    const found = q ? all.filter((r) => matches(r, q)) : all;
    const sort = params.sort ?? 'overpayment_pct';
    const direction = params.direction ?? 'desc';
    const ordered = sort === 'overpayment_pct' && direction === 'desc' ? found : sortRows(found, SORT_VALUE[sort], direction);
    const offset = params.offset ?? 0;
    const limit = params.limit ?? REGIONAL_SERVICES_PAGE_DEFAULT_LIMIT;
    return {
      total: all.length,
      matched: found.length,
      thin: all.reduce((n, r) => n + (r.thin ? 1 : 0), 0),
      items: ordered.slice(offset, offset + limit),
    };
  },
};
