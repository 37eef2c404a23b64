/**
 * How the worker matches a request to its route, as far as the page needs it too: the path
 * normalisation of workers/api/registry.ts dispatch, and the routes answered from the manifest
 * alone while the worker boots.
 */
import type { ApiRequest, ApiRoute } from './api';

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
