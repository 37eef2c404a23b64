/**
 * Typed /api client over `fetch` (the interceptor answers it), driven by the route map of
 * contract/api.ts. A 401 (the dataset was refused: the session is over) signs the user out with the
 * notice 'Your session has expired'; the protected shell then sends them to /login.
 */
import type { Api } from '../../contract/api';
import { useAppStore } from '../store';
import { ApiError, messageOf } from './api-error';
import { encodeQuery } from './query-string';

export { ApiError } from './api-error';

/** Routes of the map answered by GET. */
export type GetRoute = Extract<keyof Api, `GET ${string}`>;

/** Notice shown on /login after a 401. */
export const SESSION_EXPIRED = 'Your session has expired';

/**
 * `GET` one route: `apiGet('GET /api/service-pricing', { limit: 50, offset: 0 })`.
 * Resolves to the route's typed result. Throws `ApiError` with the body's `message` (else
 * 'Request failed', else the network error text) and the HTTP status (0 for a network error);
 * an abort rejects with the signal's reason.
 */
export async function apiGet<R extends GetRoute>(
  route: R,
  params: Api[R]['params'],
  options: { signal?: AbortSignal } = {},
): Promise<Api[R]['result']> {
  const path = route.slice('GET '.length);
  let response: Response;
  try {
    response = await fetch(`${path}${encodeQuery(params)}`, {
      headers: { accept: 'application/json' },
      signal: options.signal,
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new ApiError(error instanceof Error ? error.message : String(error), 0, null);
  }
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    if (response.status === 401) useAppStore.getState().expireSession(SESSION_EXPIRED);
    throw new ApiError(messageOf(body), response.status, body);
  }
  return body as Api[R]['result'];
}
