/**
 * The page's one /api client over `fetch` (the interceptor answers it), driven by the route map of
 * contract/api/index.ts: `apiCall('GET /api/service-pricing', { limit: 50, offset: 0 })`,
 * `apiCall('PUT /api/alerts/{id}/acknowledge', { id })`. Every call resolves to the route's typed
 * result or throws `ApiError`. One 401 rule for every call: a 401 (the dataset was refused: the
 * session is over) signs the user out with the notice 'Your session has expired'; the protected
 * shell then sends them to /login.
 */
import type { Api, ApiErrorCode, ApiRoute } from '../../contract/api';
import { useAppStore } from '../store';
import { encodeQuery } from './query-string';

/** Routes of the map answered by GET. */
export type GetRoute = Extract<ApiRoute, `GET ${string}`>;

/** Notice shown on /login after a 401. */
export const SESSION_EXPIRED = 'Your session has expired';

/**
 * The error of a failed /api call (docs/architecture.md: errors reach the page as a JSON body
 * `{ message, error: { code, message } }` with the HTTP status).
 */
export class ApiError extends Error {
  /** HTTP status; 0 when the request never got an answer (network error). */
  readonly status: number;
  /** Method and path of the call, without the query: 'PUT /api/alerts/a1/acknowledge'. */
  readonly endpoint: string;
  /** The body's `error.code`, or null when the body has none. */
  readonly code: ApiErrorCode | null;
  /** The parsed JSON body, or null when there was none or it was not JSON. */
  readonly body: unknown;

  constructor(endpoint: string, status: number, message: string, body: unknown = null) {
    super(message);
    this.name = 'ApiError';
    this.endpoint = endpoint;
    this.status = status;
    this.body = body;
    this.code = errorField(body)?.code ?? null;
  }
}

/** The text of anything a call rejected with (an `ApiError`'s message, an abort reason...). */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The body's `error` field when it is an object. */
function errorField(body: unknown): { code?: ApiErrorCode; message?: unknown } | null {
  if (!body || typeof body !== 'object' || !('error' in body)) return null;
  const error = (body as { error: unknown }).error;
  return error && typeof error === 'object' ? (error as { code?: ApiErrorCode; message?: unknown }) : null;
}

const nonEmpty = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

/**
 * The message of an error body, docs/screens.md (API calls): the body's `message`, else its
 * `error.message`, when a non-empty string; else 'Request failed'.
 */
export function messageOf(body: unknown): string {
  const top = body && typeof body === 'object' && 'message' in body ? (body as { message: unknown }).message : undefined;
  if (nonEmpty(top)) return top;
  const inner = errorField(body)?.message;
  return nonEmpty(inner) ? inner : 'Request failed';
}

/** `'PUT /api/alerts/{id}/acknowledge'` + `{ id: 'a/1' }` -> method, path and the params left for the query. */
function requestOf(route: ApiRoute, params: object): { method: string; path: string; query: Record<string, unknown> } {
  const space = route.indexOf(' ');
  const query: Record<string, unknown> = { ...params };
  const path = route.slice(space + 1).replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = query[name];
    delete query[name];
    return encodeURIComponent(String(value));
  });
  return { method: route.slice(0, space), path, query };
}

/**
 * Calls one route of the map and resolves to its typed result. `{name}` path segments are filled
 * from `params` (URL-encoded); the other params form the query string. Throws `ApiError` with the
 * body's message (see `messageOf`; the network error's text for a network error) and the HTTP
 * status (0 for a network error); a 401 first ends the session. An abort rejects with the
 * signal's reason.
 */
export async function apiCall<R extends ApiRoute>(
  route: R,
  params: Api[R]['params'],
  options: { signal?: AbortSignal } = {},
): Promise<Api[R]['result']> {
  const { method, path, query } = requestOf(route, params);
  const endpoint = `${method} ${path}`;
  let response: Response;
  try {
    response = await fetch(`${path}${encodeQuery(query)}`, {
      method,
      headers: { accept: 'application/json' },
      signal: options.signal,
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new ApiError(endpoint, 0, errorMessage(error));
  }
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    if (response.status === 401) useAppStore.getState().expireSession(SESSION_EXPIRED);
    throw new ApiError(endpoint, response.status, messageOf(body), body);
  }
  return body as Api[R]['result'];
}
