// Security headers on every kind of answer (docs/architecture.md): pages, assets, data, redirects,
// JSON errors of every status the server produces, including the ones answered before any route
// or hook runs (a malformed URL, an oversized or garbled header block, no Host, an unknown Expect). The CSP must allow nothing from other origins,
// no inline script and no eval; WebAssembly compiles under 'wasm-unsafe-eval'; inline styles only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../scripts/server/index';
import { CONTENT_SECURITY_POLICY } from '../../scripts/server/security-headers';
import { devSessionCookie, makeTempSite, rawRequest, socketRequest, type RawResponse, type TempSite } from './temp-site';

let site: TempSite;
let server: RunningServer;
let cookie: string;

beforeAll(async () => {
  site = await makeTempSite();
  server = await startServer({ distDir: site.distDir, dataDir: site.dataDir, port: 0, log: () => {}, env: {} });
  cookie = await devSessionCookie(server.url);
});
afterAll(async () => {
  await server?.close();
  await site?.remove();
});

describe('the Content-Security-Policy', () => {
  it('names only its own origin, forbids inline script and eval, allows WebAssembly and inline styles', () => {
    const directives = Object.fromEntries(
      CONTENT_SECURITY_POLICY.split(/;\s*/).map((d) => {
        const [name, ...values] = d.split(/\s+/);
        return [name, values];
      }),
    );
    expect(directives['default-src']).toEqual(["'self'"]);
    expect(directives['script-src']).toEqual(["'self'", "'wasm-unsafe-eval'"]);
    expect(directives['style-src']).toEqual(["'self'", "'unsafe-inline'"]);
    expect(directives['connect-src']).toEqual(["'self'"]);
    expect(directives['worker-src']).toEqual(["'self'"]);
    expect(directives['frame-ancestors']).toEqual(["'none'"]);
    expect(directives['object-src']).toEqual(["'none'"]);
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/'unsafe-eval'|https?:|\*/);
  });
});

describe('every answer carries the security headers', () => {
  const cases: Array<[string, string, Record<string, string> | 'session', number]> = [
    ['the app', '/', {}, 200],
    ['a client route', '/live-comparison', {}, 200],
    ['the login page', '/login', {}, 200],
    ['a hashed asset, gzipped', '/assets/app-abc123.js', { 'accept-encoding': 'gzip' }, 200],
    ['WebAssembly', '/engine.wasm', {}, 200],
    ['a missing file', '/favicon.ico', {}, 404],
    ['an unknown /api path', '/api/insurers', {}, 404],
    ['the auth config', '/api/auth/config', {}, 200],
    ['the sign-in redirect', '/api/auth/login', {}, 302],
    ['a refused logout target', '/api/auth/logout?redirect_uri=%2F%2Fevil.example', {}, 400],
    ['data without a session', '/data/manifest.json', {}, 401],
    ['data with a session', '/data/manifest.json', 'session', 200],
    ['a range of data', '/data/rates/part-0.parquet', 'session', 206],
    ['an unsatisfiable range', '/data/rates/part-0.parquet', 'session', 416],
    ['a traversal attempt', '/data/%2e%2e/secret.txt', 'session', 403],
  ];

  it.each(cases)('%s (%s)', async (_label, path, headers, status) => {
    const extra = headers === 'session' ? { cookie, range: status === 206 ? 'bytes=0-9' : status === 416 ? 'bytes=9000-' : '' } : headers;
    const clean = Object.fromEntries(Object.entries(extra).filter(([, v]) => v !== ''));
    const res = await rawRequest(server.url, path, clean);
    expect([status, status === 403 ? 404 : status]).toContain(res.status);
    expect(res.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
  });
});

function expectSecurityHeaders(res: RawResponse): void {
  expect(res.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['referrer-policy']).toBe('no-referrer');
  expect(res.headers['x-frame-options']).toBe('DENY');
  expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
}

describe('error answers, early ones included, carry the security headers', () => {
  const cases: Array<{ label: string; path: string; headers: Record<string, string> | 'session'; status: number }> = [
    { label: 'a malformed URL', path: '/%', headers: {}, status: 400 },
    { label: 'a bad percent escape', path: '/%zz', headers: {}, status: 400 },
    { label: 'a malformed /data/ URL', path: '/data/%', headers: {}, status: 400 },
    { label: 'a malformed /api URL', path: '/api/%zz', headers: {}, status: 400 },
    { label: 'an unknown /api path', path: '/api/nope', headers: {}, status: 404 },
    { label: 'data without a session', path: '/data/manifest.json', headers: {}, status: 401 },
    { label: 'an unsatisfiable range', path: '/data/rates/part-0.parquet', headers: 'session', status: 416 },
    { label: 'an unknown Expect', path: '/', headers: { expect: 'something-else' }, status: 417 },
  ];
  it.each(cases)('$label ($path) -> $status', async ({ path, headers, status }) => {
    const extra = headers === 'session' ? { cookie, range: 'bytes=9000-' } : headers;
    const res = await rawRequest(server.url, path, extra);
    expect(res.status).toBe(status);
    expectSecurityHeaders(res);
  });

  it('answers a malformed URL with 400 and the uniform JSON error body', async () => {
    const res = await rawRequest(server.url, '/%zz');
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = JSON.parse(res.text);
    expect(body.error.code).toBe('bad_request');
    expect(body.message).toBe(body.error.message);
  });

  it('answers a body that is not JSON with 400 and the headers', async () => {
    const res = await rawRequest(server.url, '/api/auth/logout', { 'content-type': 'application/json' }, 'POST', '{not json');
    expect(res.status).toBe(400);
    expectSecurityHeaders(res);
  });

  it.each([
    { label: 'a header block over the 16 KB limit', text: `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, status: 431 },
    { label: 'a garbled request line', text: 'GARBAGE\r\n\r\n', status: 400 },
    { label: 'an HTTP/1.1 request without Host', text: 'GET / HTTP/1.1\r\nConnection: close\r\n\r\n', status: 400 },
  ])('$label -> $status', async ({ text, status }) => {
    const res = await socketRequest(server.url, text);
    expect(res.status).toBe(status);
    expectSecurityHeaders(res);
  });
});
