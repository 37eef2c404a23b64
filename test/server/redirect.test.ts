// The logout redirect_uri check (no open redirect): the app's own /login and an exact
// COMPETE_LOGOUT_REDIRECTS entry pass; absolute URLs elsewhere, scheme-relative `//evil`, and their
// encoded, backslashed, credentialed and whitespace variants are refused, as a unit and over HTTP.
// "Own" is COMPETE_PUBLIC_URL, else the address the server listens on: never Host, X-Forwarded-*
// or Origin, which the client chooses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../scripts/server/index';
import type { NetworkInterfaceInfo } from 'node:os';
import { isAllowedLogoutRedirect, listeningOrigins, preferredOrigin } from '../../scripts/server/redirect';
import { makeTempSite, rawRequest, type RawResponse, type TempSite } from './temp-site';

const ORIGIN = 'http://127.0.0.1:8080';
const ORIGINS = [ORIGIN, 'http://localhost:8080'];
const ALLOWED = ['https://sso.insurer.example/signed-out'];

const REFUSED = [
  'https://evil.example',
  'https://evil.example/login',
  'http://127.0.0.1:8081/login', // same host, other port: another origin
  'https://127.0.0.1:8080/login', // other scheme
  '//evil.example',
  '//evil.example/login',
  '///evil.example/login',
  '/%2F%2Fevil.example',
  '%2F%2Fevil.example',
  'https:%2F%2Fevil.example',
  'https%3A%2F%2Fevil.example%2Flogin',
  '/\\evil.example',
  '\\\\evil.example',
  '/login\\@evil.example',
  'http:evil.example',
  'https:/evil.example/login',
  'javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  ' https://evil.example',
  '/login\t',
  '\t//evil.example',
  'http://127.0.0.1:8080@evil.example/login',
  'http://user:pass@127.0.0.1:8080/login',
  'https://sso.insurer.example/signed-out/extra', // a listed URL is not a prefix
  'https://sso.insurer.example.evil.example/signed-out',
  'https://sso.insurer.example/signed-out?next=https://evil.example',
  '/logout',
  '/login/../admin',
  '/loginx',
  '',
];

describe('isAllowedLogoutRedirect', () => {
  it.each(['/login', '/login?reason=expired', `${ORIGIN}/login`, 'HTTP://127.0.0.1:8080/login', ...ALLOWED,
    'https://SSO.insurer.example/signed-out', 'http://localhost:8080/login'])('allows %s', (value) => {
    expect(isAllowedLogoutRedirect(value, ORIGINS, ALLOWED)).toBe(true);
  });

  it.each(REFUSED)('refuses %j', (value) => {
    expect(isAllowedLogoutRedirect(value, ORIGINS, ALLOWED)).toBe(false);
  });

  it('refuses the listed URL when no list is configured', () => {
    expect(isAllowedLogoutRedirect(ALLOWED[0] ?? '', ORIGINS, [])).toBe(false);
  });

  it('refuses every absolute /login when no own origin is known, and keeps the relative one', () => {
    expect(isAllowedLogoutRedirect(`${ORIGIN}/login`, [], [])).toBe(false);
    expect(isAllowedLogoutRedirect('/login', [], [])).toBe(true);
  });
});

describe('listeningOrigins', () => {
  const iface = (address: string, family: 'IPv4' | 'IPv6', internal = false): NetworkInterfaceInfo =>
    family === 'IPv4'
      ? { address, family, internal, netmask: '255.0.0.0', mac: '00:00:00:00:00:00', cidr: null }
      : { address, family, internal, netmask: 'ffff::', mac: '00:00:00:00:00:00', cidr: null, scopeid: 0 };
  const interfaces = {
    lo: [iface('127.0.0.1', 'IPv4', true), iface('::1', 'IPv6', true)],
    eth0: [iface('192.168.1.5', 'IPv4'), iface('fd00::5', 'IPv6')],
  };

  it('is the loopback address and localhost when listening on loopback', () => {
    expect(listeningOrigins({ address: '127.0.0.1', family: 'IPv4', port: 8080 }, interfaces))
      .toEqual(['http://127.0.0.1:8080', 'http://localhost:8080']);
    expect(listeningOrigins({ address: '::1', family: 'IPv6', port: 8080 }, interfaces))
      .toEqual(['http://[::1]:8080', 'http://localhost:8080']);
  });

  it('is just that address when listening on one other interface', () => {
    expect(listeningOrigins({ address: '192.168.1.5', family: 'IPv4', port: 80 }, interfaces)).toEqual(['http://192.168.1.5']);
  });

  it("is every interface's address (of the family) and localhost when listening on all of them", () => {
    expect(listeningOrigins({ address: '0.0.0.0', family: 'IPv4', port: 8080 }, interfaces))
      .toEqual(['http://127.0.0.1:8080', 'http://192.168.1.5:8080', 'http://localhost:8080']);
    expect(listeningOrigins({ address: '::', family: 'IPv6', port: 8080 }, interfaces)).toEqual([
      'http://127.0.0.1:8080', 'http://[::1]:8080', 'http://192.168.1.5:8080', 'http://[fd00::5]:8080', 'http://localhost:8080',
    ]);
  });

  it('is empty when not listening on TCP', () => {
    expect(listeningOrigins(null, interfaces)).toEqual([]);
    expect(listeningOrigins('/tmp/compete.sock', interfaces)).toEqual([]);
  });
});

describe('preferredOrigin', () => {
  it("picks the own origin the request's Host names, else the first, never the Host itself", () => {
    expect(preferredOrigin(ORIGINS, 'localhost:8080')).toBe('http://localhost:8080');
    expect(preferredOrigin(ORIGINS, 'LOCALHOST:8080')).toBe('http://localhost:8080');
    expect(preferredOrigin(ORIGINS, 'evil.example')).toBe(ORIGIN);
    expect(preferredOrigin(ORIGINS, 'localhost:8081')).toBe(ORIGIN);
    expect(preferredOrigin(ORIGINS, undefined)).toBe(ORIGIN);
  });
});

describe('GET /api/auth/logout over HTTP', () => {
  let site: TempSite;
  let server: RunningServer;
  beforeAll(async () => {
    site = await makeTempSite();
    server = await startServer({
      distDir: site.distDir, dataDir: site.dataDir, port: 0, log: () => {},
      env: { COMPETE_LOGOUT_REDIRECTS: ALLOWED.join(',') },
    });
  });
  afterAll(async () => {
    await server?.close();
    await site?.remove();
  });

  it('redirects to a configured URL', async () => {
    const res = await rawRequest(server.url, `/api/auth/logout?redirect_uri=${encodeURIComponent(ALLOWED[0] ?? '')}`);
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(ALLOWED[0]);
  });

  it.each(REFUSED.filter(Boolean))('refuses %j with 400 and no Location', async (value) => {
    const res = await rawRequest(server.url, `/api/auth/logout?redirect_uri=${encodeURIComponent(value)}`);
    expect(res.status).toBe(400);
    expect(res.headers.location).toBeUndefined();
    expect(JSON.parse(res.text).message).toBe(`invalid redirect_uri: ${value}`);
  });

  it('refuses a doubly encoded //evil sent raw, and a repeated redirect_uri', async () => {
    const doubly = await rawRequest(server.url, '/api/auth/logout?redirect_uri=%252F%252Fevil.example');
    expect(doubly.status).toBe(400);
    const twice = await rawRequest(server.url, '/api/auth/logout?redirect_uri=/login&redirect_uri=//evil.example');
    expect(twice.status).toBe(400);
    expect(twice.headers.location).toBeUndefined();
  });

  it('refuses an empty redirect_uri', async () => {
    const res = await rawRequest(server.url, '/api/auth/logout?redirect_uri=');
    expect(res.status).toBe(400);
  });
});

describe('the logout target is checked against the server, never against request headers', () => {
  let site: TempSite;
  /** Listens on 127.0.0.1, believes X-Forwarded-* from anyone: still no header may widen the check. */
  let server: RunningServer;
  /** The same with COMPETE_PUBLIC_URL set. */
  let published: RunningServer;
  const PUBLIC = 'https://compete.insurer.example';
  beforeAll(async () => {
    site = await makeTempSite();
    server = await startServer({ distDir: site.distDir, dataDir: site.dataDir, port: 0, log: () => {}, env: { COMPETE_TRUST_PROXY: '1' } });
    published = await startServer({
      distDir: site.distDir, dataDir: site.dataDir, port: 0, log: () => {}, env: { COMPETE_PUBLIC_URL: PUBLIC, COMPETE_TRUST_PROXY: '1' },
    });
  });
  afterAll(async () => {
    await server?.close();
    await published?.close();
    await site?.remove();
  });

  const logout = (on: RunningServer, target: string, headers: Record<string, string> = {}): Promise<RawResponse> =>
    rawRequest(on.url, `/api/auth/logout?redirect_uri=${encodeURIComponent(target)}`, headers);
  const port = () => new URL(server.url).port;

  const forged: Array<{ label: string; target: string; headers: Record<string, string> }> = [
    { label: 'Host', target: 'http://evil.example/login', headers: { host: 'evil.example' } },
    { label: 'Host with a port', target: 'http://evil.example:8080/login', headers: { host: 'evil.example:8080' } },
    { label: 'X-Forwarded-Host', target: 'http://evil.example/login', headers: { 'x-forwarded-host': 'evil.example' } },
    { label: 'X-Forwarded-Host and -Proto', target: 'https://evil.example/login', headers: { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' } },
    { label: 'Origin', target: 'http://evil.example/login', headers: { origin: 'http://evil.example' } },
    { label: 'Referer', target: 'http://evil.example/login', headers: { referer: 'http://evil.example/' } },
  ];
  it.each(forged)('refuses /login of the origin a $label header names', async ({ target, headers }) => {
    const res = await logout(server, target, headers);
    expect(res.status).toBe(400);
    expect(res.headers.location).toBeUndefined();
  });

  it('refuses https on the listening host when X-Forwarded-Proto says https (the server listens on http)', async () => {
    const res = await logout(server, `https://127.0.0.1:${port()}/login`, { 'x-forwarded-proto': 'https' });
    expect(res.status).toBe(400);
  });

  it("redirects to the listening origin's /login whatever the Host header says", async () => {
    const own = new URL('login', server.url).href;
    const res = await logout(server, own, { host: 'evil.example' });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(own);
  });

  it('redirects to http://localhost:<port>/login, the same loopback socket', async () => {
    const res = await logout(server, `http://localhost:${port()}/login`);
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(`http://localhost:${port()}/login`);
  });

  it('keeps the relative /login, whatever the headers', async () => {
    const res = await logout(server, '/login', { host: 'evil.example', 'x-forwarded-host': 'evil.example' });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/login');
  });

  it('with COMPETE_PUBLIC_URL: its /login only, not the listening origin, not a Host of the same name over http', async () => {
    const ok = await logout(published, `${PUBLIC}/login`);
    expect(ok.status).toBe(302);
    expect(ok.headers.location).toBe(`${PUBLIC}/login`);
    expect((await logout(published, new URL('login', published.url).href)).status).toBe(400);
    expect((await logout(published, 'http://compete.insurer.example/login', { host: 'compete.insurer.example' })).status).toBe(400);
    expect((await logout(published, 'http://evil.example/login', { host: 'evil.example' })).status).toBe(400);
  });
});
