/**
 * The /api contract: one route map from "METHOD /path" to its parameters and result (Api), the
 * request and response as they cross into the worker, the error body, and how the worker matches a
 * request to its route as far as the page needs it too.
 *
 * The page calls `fetch('/api/...')`; the fetch interceptor (src/api) hands every `/api/` request
 * except `/api/auth/*` to the worker, whose registry (workers/api) answers by this map
 * (docs/architecture.md). Money is in USD, variances in percent.
 */
import type { Alert } from '../rules/alert-rules';
import type { CoverageResult, MarketBandParams, MarketBandResult, ProviderSearchResult, RateRowsParams, RateRowsResult } from './live';
import type { DashboardFiguresResult, LiveInsurer, ServicePricingParams, ServicePricingResult, SharedProvidersParam } from './pricing';
import type {
  AcknowledgeAllResult,
  AlertsPage,
  AlertsPageParams,
  DatasetInfo,
  InsurerListItem,
  PriceDetail,
  ProvidersForService,
  RegionalComparison,
  RegionalServiceRow,
  ServiceListItem,
  ServicesSearch,
  TrendPoint,
} from './records';
import type { RegionalServicesPage, RegionalServicesPageParams } from './regional';

/**
 * The route map. Adding an endpoint edits this and adds one file under workers/api/.
 * A `{name}` path segment is a path parameter: it reaches the endpoint's parser as `query[name]`.
 */
export interface Api {
  'GET /api/insurers': { params: Record<string, never>; result: LiveInsurer[] };
  'GET /api/service-pricing': { params: ServicePricingParams; result: ServicePricingResult };
  /**
   * The live dashboard's KPI cards and Top 10 (docs/methodology.md, Dashboard figures), from every
   * unit of service-pricing at the latest snapshot against every competitor: a few KB however
   * many units the dataset has.
   */
  'GET /api/dashboard-figures': { params: SharedProvidersParam; result: DashboardFiguresResult };
  /** Variance by Region (docs/methodology.md): one entry per state with rates, by state code. */
  'GET /api/regional-comparison': { params: { snapshot?: string } & SharedProvidersParam; result: RegionalComparison[] };
  /** The map modal's rows for one state (`state` required). */
  'GET /api/regional-services': { params: { state: string; snapshot?: string } & SharedProvidersParam; result: RegionalServiceRow[] };
  /**
   * The same rows a page at a time, searched and sorted in the worker, so that the state modal
   * receives only the rows it shows (a state has thousands of units at a national dataset's size).
   * 400 for a bad state, snapshot, sort, direction, offset or limit.
   */
  'GET /api/regional-services-page': { params: RegionalServicesPageParams; result: RegionalServicesPage };
  'GET /api/overpayment-trend': { params: SharedProvidersParam; result: TrendPoint[] };
  'GET /api/alerts': { params: Record<string, never>; result: Alert[] };
  /**
   * One page of the `GET /api/alerts` list, in its order, with the whole list's total and open
   * counts, so that a screen receives only the alerts it shows. 400 for an `offset` or `limit` that
   * is not a decimal integer in range (AlertsPageParams).
   */
  'GET /api/alerts-page': { params: AlertsPageParams; result: AlertsPage };
  'PUT /api/alerts/{id}/acknowledge': { params: { id: string }; result: Alert };
  'PUT /api/alerts/acknowledge-all': { params: Record<string, never>; result: AcknowledgeAllResult };
  'GET /api/service-names': { params: Record<string, never>; result: ServiceListItem[] };
  /**
   * The distinct non-empty categories of the CPT/HCPCS services (workers/api/service-categories.ts),
   * by name: the live comparison's category filter, without the whole service list.
   */
  'GET /api/service-categories': { params: Record<string, never>; result: string[] };
  /**
   * Service search for typing ahead (workers/api/services-search.ts): `q` a case-insensitive substring
   * of name, code, category, description or keywords; prefix matches (name or code) first, then by
   * name, then code; blank `q` = every service by name. `limit` 1..100, default 10; `total` counts all
   * matches (blank `q`: every service, the live comparison's Available Services).
   */
  'GET /api/services-search': { params: { q?: string; limit?: number }; result: ServicesSearch };
  'GET /api/providers-for-service': {
    params: { service_id: string; q?: string; limit?: number };
    result: ProvidersForService;
  };
  'GET /api/insurers-for-service': { params: { service_id: string }; result: InsurerListItem[] };
  'GET /api/service-price-details': {
    params: { service_id: string; provider_id: string; insurer_id: string };
    result: PriceDetail[];
  };
  /** Which dataset is open (origin or local, created when, snapshots). */
  'GET /api/dataset': { params: Record<string, never>; result: DatasetInfo };
  /** The distinct dollar rate rows behind one median, with their source files (contract/api/live.ts). */
  'GET /api/rate-rows': { params: RateRowsParams; result: RateRowsResult };
  /**
   * The market band of each unit of a few codes (the comparison's page), from their rate rows:
   * p25-p75 of the selected competitors' provider medians pooled. 400 without `services`.
   */
  'GET /api/market-band': { params: MarketBandParams; result: MarketBandResult };
  /** Files, rate rows, unresolved references and problems per insurer and snapshot (manifest + report.json). */
  'GET /api/coverage': { params: Record<string, never>; result: CoverageResult };
  /** Provider search over the whole dataset (name or id, case-insensitive substring; prefix first). */
  'GET /api/providers': { params: { q?: string; limit?: number }; result: ProviderSearchResult };
}

export type ApiRoute = keyof Api;

/** A request as it crosses into the worker: plain data, structured-clone safe. */
export interface ApiRequest {
  method: string;
  /** Path without query string, e.g. `/api/insurers`. */
  path: string;
  /** Query parameters; a repeated key keeps its last value. */
  query: Record<string, string>;
  body?: string;
  /** The signed-in user's name (the access token's `name` claim), when the page knows it. */
  user?: string;
}

/** A response as it comes back from the worker; the interceptor wraps it in a `Response`. */
export interface ApiResponse {
  status: number;
  body: unknown;
}

/** Error body of every non-2xx /api answer (docs/architecture.md). */
export interface ApiErrorBody {
  message: string;
  error: { code: ApiErrorCode; message: string };
}

export type ApiErrorCode = 'not_found' | 'bad_request' | 'internal' | 'unauthorized' | 'unavailable';

/** A request path without its trailing slashes (`/` stays `/`), as the worker matches routes. */
export function routePath(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

/**
 * Routes the worker answers from the dataset's manifest alone while its first boot runs
 * (workers/data-service.ts). The page sends these at once and every other request only once the
 * boot has ended (src/api/interceptor.ts), so that a request abandoned meanwhile costs the worker
 * nothing.
 */
export const MANIFEST_ROUTES: readonly ApiRoute[] = ['GET /api/dataset'];

/** Whether `request` calls one of MANIFEST_ROUTES (none of which has a path parameter). */
export function isManifestRequest(request: Pick<ApiRequest, 'method' | 'path'>): boolean {
  return (MANIFEST_ROUTES as readonly string[]).includes(`${request.method.toUpperCase()} ${routePath(request.path)}`);
}
