/**
 * The /api registry: route key ("METHOD /path", `{name}` = one path segment) -> endpoint, and the
 * one dispatch function. Adding an endpoint: an entry in contract/api/index.ts `Api`, one file here, one
 * line below.
 */
import type { Api, ApiRequest, ApiResponse, ApiRoute } from '../../contract/api';
import { routePath } from '../../contract/api';
import { SourceError } from '../db/errors';
import type { ApiContext } from '../context';
import type { Endpoint } from './endpoint';
import { answerWeight } from '../memo';
import { ApiError, errorResponse } from './errors';
import { insurers } from './insurers';
import { servicePricing } from './service-pricing';
import { dashboardFigures } from './dashboard-figures';
import { regionalComparison } from './regional-comparison';
import { regionalServices, regionalServicesPage } from './regional-services';
import { overpaymentTrend } from './overpayment-trend';
import { alerts, alertsPage, acknowledgeAlert, acknowledgeAll } from './alerts';
import { serviceNames } from './service-names';
import { serviceCategories } from './service-categories';
import { servicesSearch } from './services-search';
import { providersForService } from './providers-for-service';
import { insurersForService } from './insurers-for-service';
import { servicePriceDetails } from './service-price-details';
import { dataset } from './dataset';
import { rateRows } from './rate-rows';
import { marketBand } from './market-band';
import { coverage } from './coverage';
import { providers } from './providers';

/** Every route of contract/api/index.ts `Api` must have its endpoint (checked by the type). */
export const ENDPOINTS: { [R in ApiRoute]: Endpoint<R> } = {
  'GET /api/insurers': insurers,
  'GET /api/service-pricing': servicePricing,
  'GET /api/dashboard-figures': dashboardFigures,
  'GET /api/regional-comparison': regionalComparison,
  'GET /api/regional-services': regionalServices,
  'GET /api/regional-services-page': regionalServicesPage,
  'GET /api/overpayment-trend': overpaymentTrend,
  'GET /api/alerts': alerts,
  'GET /api/alerts-page': alertsPage,
  'PUT /api/alerts/{id}/acknowledge': acknowledgeAlert,
  'PUT /api/alerts/acknowledge-all': acknowledgeAll,
  'GET /api/service-names': serviceNames,
  'GET /api/service-categories': serviceCategories,
  'GET /api/services-search': servicesSearch,
  'GET /api/providers-for-service': providersForService,
  'GET /api/insurers-for-service': insurersForService,
  'GET /api/service-price-details': servicePriceDetails,
  'GET /api/dataset': dataset,
  'GET /api/rate-rows': rateRows,
  'GET /api/market-band': marketBand,
  'GET /api/coverage': coverage,
  'GET /api/providers': providers,
};

const ROUTES = Object.keys(ENDPOINTS) as ApiRoute[];

/**
 * The routes answered from the first tables alone whatever their parameters (their endpoints
 * declare `reads: 'first-tables'`; service-pricing says it per request),
 * which need not wait for the provider tables and the Medicare benchmarks to load.
 * test/worker/staged-boot.test.ts runs each of them on a service that never loads the others.
 */
export const STATS_ROUTES: ReadonlySet<ApiRoute> = new Set(ROUTES.filter((r) => ENDPOINTS[r].reads === 'first-tables'));

/** The route matching `method path` and its path parameters, exact routes before patterned ones. */
export function matchRoute(method: string, path: string): { route: ApiRoute; pathParams: Record<string, string> } | null {
  const segs = path.split('/');
  let found: { route: ApiRoute; pathParams: Record<string, string> } | null = null;
  for (const route of ROUTES) {
    const [m, pattern] = route.split(' ') as [string, string];
    if (m !== method) continue;
    const parts = pattern.split('/');
    if (parts.length !== segs.length) continue;
    const pathParams: Record<string, string> = {};
    let exact = true;
    const ok = parts.every((p, i) => {
      const s = segs[i]!;
      if (p.startsWith('{') && p.endsWith('}')) {
        exact = false;
        if (s === '') return false;
        try {
          pathParams[p.slice(1, -1)] = decodeURIComponent(s);
        } catch {
          return false;
        }
        return true;
      }
      return p === s;
    });
    if (!ok) continue;
    if (exact) return { route, pathParams };
    found ??= { route, pathParams };
  }
  return found;
}

async function answer<R extends ApiRoute>(endpoint: Endpoint<R>, query: Record<string, string>, ctx: ApiContext, request: ApiRequest, active?: Active): Promise<ApiResponse> {
  const params = endpoint.parse(query, ctx);
  const reads = typeof endpoint.reads === 'function' ? endpoint.reads(params, ctx) : endpoint.reads;
  if (reads !== 'first-tables') {
    try {
      await (Array.isArray(reads) ? Promise.all(reads.map((t) => ctx.tableLoaded(t))) : ctx.laterTables);
    } catch (e) {
      throw new ApiError(503, 'unavailable', `dataset not loaded: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  active?.(1);
  try {
    return await answerLoaded(endpoint, params, ctx, request);
  } finally {
    active?.(-1);
  }
}

async function answerLoaded<R extends ApiRoute>(endpoint: Endpoint<R>, params: Api[R]['params'], ctx: ApiContext, request: ApiRequest): Promise<ApiResponse> {
  const need = endpoint.stats?.(params, ctx);
  if (need) await ctx.stats.ensure(need);
  const run = (): Promise<Api[R]['result']> => Promise.resolve(endpoint.run(params, ctx, request));
  // parse builds its parameters in one fixed order, so equal parameters give equal keys
  const body = endpoint.pure ? await ctx.memo.get(`${endpoint.route} ${JSON.stringify(params)}`, run, answerWeight) : await run();
  return { status: 200, body };
}

/**
 * Told +1 when a request's endpoint starts its work (its tables are in) and -1 when it ends: the
 * data service holds its background loads back meanwhile (data-service.ts).
 */
export type Active = (delta: 1 | -1) => void;

/**
 * Answers one request: 200 with the endpoint's result; 404 for an unknown route; 400 for a bad
 * parameter; 401 when the server refused a dataset read; 503 when a boot table the endpoint needs
 * failed to load; 500 with the reason for any other failure (a DuckDB error included). Endpoints
 * not answered from the first tables wait for every boot table; `active` is told when the
 * endpoint's work starts and ends. Never rejects.
 */
export async function dispatch(request: ApiRequest, ctx: ApiContext, active?: Active): Promise<ApiResponse> {
  const path = routePath(request.path);
  const method = request.method.toUpperCase();
  const match = matchRoute(method, path);
  if (!match) return errorResponse(404, 'not_found', `unknown endpoint: ${method} ${path}`);
  try {
    // Path parameters win over query parameters of the same name.
    const query = { ...request.query, ...match.pathParams };
    return await answer(ENDPOINTS[match.route] as Endpoint<ApiRoute>, query, ctx, request, active);
  } catch (e) {
    if (e instanceof ApiError) return errorResponse(e.status, e.code, e.message);
    if (e instanceof SourceError && e.httpStatus === 401) return errorResponse(401, 'unauthorized', e.message);
    return errorResponse(500, 'internal', e instanceof Error ? e.message : String(e));
  }
}
