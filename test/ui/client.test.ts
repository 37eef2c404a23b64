// The one /api client over fetch: URL building, typed result, ApiError (status, endpoint, message),
// and the one 401 rule (the session ends) for every call, the alerts calls included.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiCall, messageOf, SESSION_EXPIRED } from '../../src/api/client';
import { useAppStore } from '../../src/store';

function answer(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

const refused = { message: 'dataset refused', error: { code: 'unauthorized', message: 'dataset refused' } };

afterEach(() => {
  vi.unstubAllGlobals();
  useAppStore.setState({ token: null, notice: null });
});

describe('apiCall', () => {
  it('GETs the route path with encoded params and returns the JSON body', async () => {
    const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) => answer(200, [{ id: 'ref' }]));
    vi.stubGlobal('fetch', fetchMock);
    const result = await apiCall('GET /api/service-pricing', { limit: 25, offset: 50, category: 'Lab' });
    // page index 2 x 25 rows = offset 50, passed through as given
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/service-pricing?limit=25&offset=50&category=Lab');
    expect(fetchMock.mock.calls[0]?.[1]?.method).toBe('GET');
    expect(result).toEqual([{ id: 'ref' }]);
  });

  it('fills {name} path segments (URL-encoded) and sends the route method', async () => {
    const calls: Array<[string, string | undefined]> = [];
    vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
      calls.push([url, init?.method]);
      return answer(200, { id: 'y/z' });
    });
    expect(await apiCall('PUT /api/alerts/{id}/acknowledge', { id: 'y/z' })).toEqual({ id: 'y/z' });
    await apiCall('PUT /api/alerts/acknowledge-all', {});
    await apiCall('GET /api/alerts', {});
    expect(calls).toEqual([['/api/alerts/y%2Fz/acknowledge', 'PUT'], ['/api/alerts/acknowledge-all', 'PUT'], ['/api/alerts', 'GET']]);
  });

  it("throws ApiError with the status, the endpoint, the body's message and its error code", async () => {
    vi.stubGlobal('fetch', async () => answer(400, { message: 'invalid category: X', error: { code: 'bad_request', message: 'invalid category: X' } }));
    const error = await apiCall('GET /api/service-pricing', { category: 'X' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, endpoint: 'GET /api/service-pricing', message: 'invalid category: X', code: 'bad_request' });
  });

  it('the alerts calls fail the same way: status, endpoint and message', async () => {
    vi.stubGlobal('fetch', async () => answer(404, { message: 'unknown alert: x', error: { code: 'not_found', message: 'unknown alert: x' } }));
    const error = await apiCall('PUT /api/alerts/{id}/acknowledge', { id: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, endpoint: 'PUT /api/alerts/x/acknowledge', message: 'unknown alert: x', code: 'not_found' });
  });

  it("says 'Request failed' for a body without message, and the network error text (status 0) on a network failure", async () => {
    vi.stubGlobal('fetch', async () => new Response('oops', { status: 500 }));
    await expect(apiCall('GET /api/insurers', {})).rejects.toMatchObject({ message: 'Request failed', status: 500, code: null });
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(apiCall('GET /api/alerts', {})).rejects.toMatchObject({ message: 'Failed to fetch', status: 0, endpoint: 'GET /api/alerts' });
  });

  it('an abort rejects with the signal reason, not an ApiError', async () => {
    vi.stubGlobal('fetch', async (_url: string, init?: RequestInit) => {
      throw init?.signal?.reason;
    });
    const controller = new AbortController();
    controller.abort(new DOMException('stop', 'AbortError'));
    const error = await apiCall('GET /api/alerts', {}, { signal: controller.signal }).catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(ApiError);
    expect((error as DOMException).name).toBe('AbortError');
  });

  it('on 401 signs out with the session-expired notice', async () => {
    useAppStore.getState().signIn('t0ken');
    expect(useAppStore.getState().token).toBe('t0ken');
    vi.stubGlobal('fetch', async () => answer(401, refused));
    await expect(apiCall('GET /api/insurers', {})).rejects.toMatchObject({ status: 401 });
    expect(useAppStore.getState().token).toBeNull();
    expect(useAppStore.getState().notice).toBe(SESSION_EXPIRED);
    expect(SESSION_EXPIRED).toBe('Your session has expired');
  });

  it.each([
    ['GET /api/alerts', {}],
    ['PUT /api/alerts/{id}/acknowledge', { id: 'a1' }],
    ['PUT /api/alerts/acknowledge-all', {}],
  ] as const)('a 401 from %s ends the session too', async (route, params) => {
    useAppStore.getState().signIn('t0ken');
    vi.stubGlobal('fetch', async () => answer(401, refused));
    await expect(apiCall(route, params)).rejects.toMatchObject({ status: 401, message: 'dataset refused', code: 'unauthorized' });
    expect(useAppStore.getState().token).toBeNull();
    expect(useAppStore.getState().notice).toBe(SESSION_EXPIRED);
  });
});

describe('messageOf', () => {
  it("reads the body's message, else its error.message, else 'Request failed'", () => {
    expect(messageOf({ message: 'a', error: { code: 'internal', message: 'b' } })).toBe('a');
    expect(messageOf({ error: { code: 'internal', message: 'b' } })).toBe('b');
    expect(messageOf({ message: ' ', error: { code: 'internal', message: '' } })).toBe('Request failed');
  });
});
