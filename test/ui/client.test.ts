// The typed /api client over fetch: URL building, typed result, errors, and the 401 sign-out.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiGet, SESSION_EXPIRED } from '../../src/api/client';
import { useAppStore } from '../../src/store';

function answer(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

afterEach(() => {
  vi.unstubAllGlobals();
  useAppStore.setState({ token: null, notice: null });
});

describe('apiGet', () => {
  it('GETs the route path with encoded params and returns the JSON body', async () => {
    const fetchMock = vi.fn(async (_url: string) => answer(200, [{ id: 'ref' }]));
    vi.stubGlobal('fetch', fetchMock);
    const result = await apiGet('GET /api/service-pricing', { limit: 25, offset: 50, category: 'Lab' });
    // page index 2 x 25 rows = offset 50, passed through as given
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/service-pricing?limit=25&offset=50&category=Lab');
    expect(result).toEqual([{ id: 'ref' }]);
  });

  it("throws ApiError with the body's message and the status", async () => {
    vi.stubGlobal('fetch', async () => answer(400, { message: 'invalid category: X', error: { code: 'bad_request', message: 'invalid category: X' } }));
    const error = await apiGet('GET /api/insurers', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('invalid category: X');
    expect((error as ApiError).status).toBe(400);
  });

  it("says 'Request failed' for a body without message, and the network error text on a network failure", async () => {
    vi.stubGlobal('fetch', async () => new Response('oops', { status: 500 }));
    await expect(apiGet('GET /api/insurers', {})).rejects.toMatchObject({ message: 'Request failed', status: 500 });
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(apiGet('GET /api/insurers', {})).rejects.toMatchObject({ message: 'Failed to fetch', status: 0 });
  });

  it('on 401 signs out with the session-expired notice', async () => {
    useAppStore.getState().signIn('t0ken');
    expect(useAppStore.getState().token).toBe('t0ken');
    vi.stubGlobal('fetch', async () => answer(401, { message: 'dataset refused', error: { code: 'unauthorized', message: 'x' } }));
    await expect(apiGet('GET /api/insurers', {})).rejects.toMatchObject({ status: 401 });
    expect(useAppStore.getState().token).toBeNull();
    expect(useAppStore.getState().notice).toBe(SESSION_EXPIRED);
    expect(SESSION_EXPIRED).toBe('Your session has expired');
  });
});
