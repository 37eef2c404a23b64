/**
 * `GET /api/regional-services-page`: the state modal's rows a page at a time (docs/screens.md).
 */
import type { SortDirection } from '../rules/sort-rows';
import type { SharedProvidersParam } from './pricing';
import type { RegionalServiceRow } from './records';

/** `GET /api/regional-services-page` page size when `limit` is absent (the state modal's first page). */
export const REGIONAL_SERVICES_PAGE_DEFAULT_LIMIT = 50;
/** The largest `limit` of `GET /api/regional-services-page` (no screen renders more rows). */
export const REGIONAL_SERVICES_PAGE_MAX_LIMIT = 200;
/** The sort keys of `GET /api/regional-services-page`: the state modal's columns. */
export const REGIONAL_SERVICES_SORTS = ['service', 'your_price', 'market_avg', 'overpayment_pct'] as const;
/** One sort key of `GET /api/regional-services-page`. */
export type RegionalServicesSort = (typeof REGIONAL_SERVICES_SORTS)[number];

/** Query parameters of `GET /api/regional-services-page`: the state, the market, the search, the sort and the page. */
export interface RegionalServicesPageParams extends SharedProvidersParam {
  /** Two-letter state code (required). */
  state: string;
  snapshot?: string;
  /** Case-insensitive substring of the billing code or the service name; blank = every unit. */
  q?: string;
  /** The column sorted (default `overpayment_pct`); `service` sorts by 'code name'. Nulls last either way. */
  sort?: RegionalServicesSort;
  /** Default `desc`. */
  direction?: SortDirection;
  /** Units to skip, from 0 (default 0); past the end gives no items. */
  offset?: number;
  /** Units to return, 1..REGIONAL_SERVICES_PAGE_MAX_LIMIT (default REGIONAL_SERVICES_PAGE_DEFAULT_LIMIT). */
  limit?: number;
}

/** `GET /api/regional-services-page` result: one slice of the state's units, with the counts a screen shows. */
export interface RegionalServicesPage {
  /** Comparison units of the state (the `GET /api/regional-services` rows), whatever `q`. */
  total: number;
  /** Units matching `q` (= total without `q`). */
  matched: number;
  /** Units of the state marked thin (low confidence), whatever `q`. */
  thin: number;
  /** The matching units at [offset, offset + limit) in the order asked. */
  items: RegionalServiceRow[];
}
