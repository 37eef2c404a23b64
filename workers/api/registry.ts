/**
 * The /api registry: route key ("METHOD /path") -> endpoint, and the one dispatch function.
 * Adding an endpoint: an entry in contract/api.ts `Api`, one file here, one line below.
 */
import type { ApiRequest, ApiResponse, ApiRoute } from '../../contract/api';
import type { ApiContext } from './context';
import type { Endpoint } from './endpoint';
import { ApiError, errorResponse } from './errors';
import { insurers } from './insurers';
import { servicePricing } from './service-pricing';

/** Every route of contract/api.ts `Api` must have its endpoint (checked by the type). */
export const ENDPOINTS: { [R in ApiRoute]: Endpoint<R> } = {
  'GET /api/insurers': insurers,
  'GET /api/service-pricing': servicePricing,
};

function isRoute(key: string): key is ApiRoute {
  return Object.hasOwn(ENDPOINTS, key);
}

function answer<R extends ApiRoute>(endpoint: Endpoint<R>, request: ApiRequest, ctx: ApiContext): ApiResponse {
  return { status: 200, body: endpoint.run(endpoint.parse(request.query, ctx), ctx) };
}

/**
 * Answers one request: 200 with the endpoint's result; 404 for an unknown route; 400 for a bad
 * parameter; 500 with the reason for any other failure (a DuckDB error included). Never throws.
 */
export function dispatch(request: ApiRequest, ctx: ApiContext): ApiResponse {
  const path = request.path.length > 1 ? request.path.replace(/\/+$/, '') : request.path;
  const key = `${request.method.toUpperCase()} ${path}`;
  if (!isRoute(key)) return errorResponse(404, 'not_found', `unknown endpoint: ${key}`);
  try {
    return answer(ENDPOINTS[key] as Endpoint<ApiRoute>, request, ctx);
  } catch (e) {
    if (e instanceof ApiError) return errorResponse(e.status, e.code, e.message);
    return errorResponse(500, 'internal', e instanceof Error ? e.message : String(e));
  }
}
