/**
 * The page side of alerts: the spec's alerts client wraps every answer as `{ data, success, message }`
 * (product-spec §7). (Acknowledgements name the access token's `name` claim, read by
 * src/store/token-claims.ts, tested in test/ui.)
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { acknowledgeAlert, getAlerts } from '../../src/api/alerts-client';

afterEach(() => vi.unstubAllGlobals());

describe('alerts client', () => {
  it('wraps success, a server message, a bodiless failure and a network error', async () => {
    const answers = [
      new Response(JSON.stringify([{ id: 'a' }]), { status: 200 }),
      new Response(JSON.stringify({ message: 'unknown alert: x', error: { code: 'not_found', message: 'unknown alert: x' } }), { status: 404 }),
      new Response('oops', { status: 500 }),
    ];
    const calls: Array<[string, string | undefined]> = [];
    vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
      calls.push([url, init?.method]);
      const next = answers.shift();
      if (!next) throw new TypeError('Failed to fetch');
      return next;
    });
    expect(await getAlerts()).toEqual({ data: [{ id: 'a' }], success: true, message: 'OK' });
    expect(await acknowledgeAlert('x')).toEqual({ data: null, success: false, message: 'unknown alert: x' });
    expect(await acknowledgeAlert('y/z')).toEqual({ data: null, success: false, message: 'Request failed' });
    expect(await getAlerts()).toEqual({ data: null, success: false, message: 'Failed to fetch' });
    expect(calls).toEqual([['/api/alerts', 'GET'], ['/api/alerts/x/acknowledge', 'PUT'], ['/api/alerts/y%2Fz/acknowledge', 'PUT'], ['/api/alerts', 'GET']]);
  });
});
