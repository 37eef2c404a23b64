// The logout redirect_uri check (no open redirect): the app's own /login and an exact
// COMPETE_LOGOUT_REDIRECTS entry pass; absolute URLs elsewhere, scheme-relative `//evil`, and their
// encoded, backslashed, credentialed and whitespace variants are refused, as a unit and over HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../scripts/server/index';
import { isAllowedLogoutRedirect } from '../../scripts/server/redirect';
import { makeTempSite, rawRequest, type TempSite } from './temp-site';

const ORIGIN = 'http://127.0.0.1:8080';
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
    'https://SSO.insurer.example/signed-out'])('allows %s', (value) => {
    expect(isAllowedLogoutRedirect(value, ORIGIN, ALLOWED)).toBe(true);
  });

  it.each(REFUSED)('refuses %j', (value) => {
    expect(isAllowedLogoutRedirect(value, ORIGIN, ALLOWED)).toBe(false);
  });

  it('refuses the listed URL when no list is configured', () => {
    expect(isAllowedLogoutRedirect(ALLOWED[0] ?? '', ORIGIN, [])).toBe(false);
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
