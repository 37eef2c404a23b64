/**
 * The fetch interceptor's routing decision (docs/architecture.md): which requests the data worker
 * answers. Pure, so it runs in Node tests without a window.
 */
import type { ApiRequest } from '../../contract/api';

/**
 * True when `pathname` belongs to the worker: it starts with `/api/` and is not under
 * `/api/auth` (the server's sign-in endpoints, docs/deployment.md, The server).
 */
export function isWorkerPath(pathname: string): boolean {
  if (!pathname.startsWith('/api/')) return false;
  return !(pathname === '/api/auth' || pathname.startsWith('/api/auth/'));
}

/**
 * Turns a fetch target into the plain-data request the worker handles, or `null` when the request
 * must pass through to the network (another origin, a non-/api path, or /api/auth/*).
 * `url` may be relative; it resolves against `origin` (e.g. `http://localhost:5173`).
 * Query parameters: a repeated key keeps its last value (contract/api/index.ts ApiRequest).
 */
export function toWorkerRequest(url: string, method: string, origin: string, body?: string): ApiRequest | null {
  let parsed: URL;
  try {
    parsed = new URL(url, origin);
  } catch {
    return null;
  }
  if (parsed.origin !== new URL(origin).origin) return null;
  if (!isWorkerPath(parsed.pathname)) return null;
  const query: Record<string, string> = {};
  parsed.searchParams.forEach((value, key) => {
    query[key] = value;
  });
  const request: ApiRequest = { method: method.toUpperCase(), path: parsed.pathname, query };
  if (body !== undefined) request.body = body;
  return request;
}

/** HTTP statuses whose `Response` must not carry a body (Fetch standard "null body status"). */
export function isNullBodyStatus(status: number): boolean {
  return status === 101 || status === 103 || status === 204 || status === 205 || status === 304;
}
