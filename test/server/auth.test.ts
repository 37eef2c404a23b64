// The auth endpoints: development sign-in (JWT), the config probe, logout redirect validation,
// the /api 404, and the production / OIDC switches read from the environment at start.
import { errors, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../scripts/server/index';
import { CONTENT_SECURITY_POLICY } from '../../scripts/server/security-headers';
import { makeTempSite, rawRequest, withEnv, type TempSite } from './temp-site';

const SECRET = 'test-secret-0123456789-abcdefghijklmnop';
const NO_OIDC = { OIDC_ISSUER: undefined, OIDC_CLIENT_ID: undefined, OIDC_CLIENT_SECRET: undefined };
let site: TempSite;
let server: RunningServer;
const logLines: string[] = [];

/** Starts a server with `env` applied while it reads its configuration. */
function startWith(env: Record<string, string | undefined>, log: (l: string) => void = () => {}): Promise<RunningServer> {
  return withEnv({ ...NO_OIDC, ...env }, () =>
    startServer({ distDir: site.distDir, dataDir: site.dataDir, port: 0, log }),
  );
}

beforeAll(async () => {
  site = await makeTempSite();
  server = await startWith({ COMPETE_JWT_SECRET: SECRET, NODE_ENV: 'test' }, (l) => logLines.push(l));
});
afterAll(async () => {
  await server?.close();
  await site?.remove();
});

describe('development sign-in', () => {
  it('says at start that development sign-in is on and needs no account', () => {
    expect(logLines.join('\n')).toMatch(/development sign-in is on.*no account/i);
  });

  it('GET /api/auth/config -> development', async () => {
    const res = await rawRequest(server.url, '/api/auth/config');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toEqual({ mode: 'development' });
    expect(res.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
  });

  it('login redirects to /auth/callback with a JWT signed by the server secret, expiring after 8 h', async () => {
    const res = await rawRequest(server.url, '/api/auth/login');
    expect(res.status).toBe(302);
    const location = new URL(String(res.headers.location), server.url);
    expect(location.pathname).toBe('/auth/callback');
    const token = location.searchParams.get('token') ?? '';
    const key = new TextEncoder().encode(SECRET);
    const { payload, protectedHeader } = await jwtVerify(token, key, { algorithms: ['HS256'] });
    expect(protectedHeader.alg).toBe('HS256');
    expect(payload.sub).toBe('dev-user');
    expect(payload.name).toBe('Development User');
    expect(payload.iss).toBe('compete');
    expect(payload.aud).toBe('compete');
    expect(payload.idp).toBe('development');
    const iat = payload.iat ?? 0;
    const exp = payload.exp ?? 0;
    expect(Math.abs(iat - Date.now() / 1000)).toBeLessThan(60);
    expect(exp - iat).toBe(8 * 3600); // 8 h = 28,800 s
    // One second past exp the same token is refused as expired.
    await expect(jwtVerify(token, key, { currentDate: new Date((exp + 1) * 1000) })).rejects.toBeInstanceOf(
      errors.JWTExpired,
    );
    // Another key does not verify it.
    await expect(jwtVerify(token, new TextEncoder().encode('another-secret-of-some-length'))).rejects.toBeInstanceOf(
      errors.JWSSignatureVerificationFailed,
    );
  });

  it('the OIDC callback endpoint sends a development-mode visitor to /login', async () => {
    const res = await rawRequest(server.url, '/api/auth/callback');
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/login');
  });
});

describe('logout redirect_uri', () => {
  const logout = (value: string, host?: string) =>
    rawRequest(server.url, `/api/auth/logout?redirect_uri=${encodeURIComponent(value)}`, host ? { host } : {});

  it('redirects to the relative /login', async () => {
    const res = await logout('/login');
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/login');
  });

  it("redirects to /login on the server's own origin", async () => {
    const own = new URL('login', server.url).href;
    const res = await logout(own);
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(own);
  });

  it('redirects to /login when redirect_uri is absent', async () => {
    const res = await rawRequest(server.url, '/api/auth/logout');
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/login');
  });

  it.each([
    'https://evil.example',
    'https://evil.example/login',
    '//evil.example',
    '//evil.example/login',
    '/%2F%2Fevil.example',
    '/\\evil.example',
    'http:evil',
    'javascript:alert(1)',
    '/logout',
    '/login/../admin',
  ])('refuses %s with 400 invalid redirect_uri', async (value) => {
    const res = await logout(value);
    expect(res.status).toBe(400);
    expect(res.headers.location).toBeUndefined();
    const body = JSON.parse(res.text);
    expect(body.message).toBe(`invalid redirect_uri: ${value}`);
    expect(body.error).toEqual({ code: 'bad_request', message: `invalid redirect_uri: ${value}` });
  });

  it('judges /login by the origin the server listens on, not by the Host header', async () => {
    expect((await logout('http://other.example/login', 'other.example')).status).toBe(400);
    expect((await logout(new URL('login', server.url).href, 'other.example')).status).toBe(302);
  });
});

describe('other /api paths', () => {
  it.each(['/api/insurers', '/api/auth/unknown', '/api'])('%s -> 404 JSON', async (path) => {
    const res = await rawRequest(server.url, path);
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = JSON.parse(res.text);
    expect(body.error.code).toBe('not_found');
    expect(body.message).toBe(body.error.message);
    expect(res.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(res.headers['x-frame-options']).toBe('DENY');
  });
});

describe('environment switches', () => {
  it('refuses development sign-in in production without COMPETE_DEV_AUTH', async () => {
    const lines: string[] = [];
    const prod = await startWith({ NODE_ENV: 'production', COMPETE_DEV_AUTH: undefined }, (l) => lines.push(l));
    try {
      const res = await rawRequest(prod.url, '/api/auth/login');
      expect(res.status).toBe(403);
      expect(res.headers.location).toBeUndefined();
      expect(JSON.parse(res.text).message).toMatch(/development sign-in is disabled in production.*COMPETE_DEV_AUTH=1/);
      expect(lines.join('\n')).toMatch(/refused/);
    } finally {
      await prod.close();
    }
  });

  it('allows development sign-in in production with COMPETE_DEV_AUTH=1, with a warning in the log', async () => {
    const lines: string[] = [];
    const prod = await startWith({ NODE_ENV: 'production', COMPETE_DEV_AUTH: '1' }, (l) => lines.push(l));
    try {
      expect(lines.join('\n')).toMatch(/WARNING: development sign-in is on in production.*no account needed/);
      const res = await rawRequest(prod.url, '/api/auth/login');
      expect(res.status).toBe(302);
      expect(String(res.headers.location)).toMatch(/^\/auth\/callback\?token=[\w-]+\.[\w-]+\.[\w-]+$/);
    } finally {
      await prod.close();
    }
  });

  it('reports oidc mode, and answers login with 502 while the identity provider cannot be reached', async () => {
    const lines: string[] = [];
    // Port 9 (discard) on loopback: nothing listens there, the connection is refused at once.
    const oidc = await startWith(
      { OIDC_ISSUER: 'http://127.0.0.1:9', OIDC_CLIENT_ID: 'compete', OIDC_CLIENT_SECRET: 's' },
      (l) => lines.push(l),
    );
    try {
      expect(JSON.parse((await rawRequest(oidc.url, '/api/auth/config')).text)).toEqual({ mode: 'oidc' });
      expect(lines.join('\n')).toMatch(/OpenID Connect through http:\/\/127\.0\.0\.1:9\//);
      expect(lines.join('\n')).not.toMatch(/development sign-in is on/);
      const res = await rawRequest(oidc.url, '/api/auth/login');
      expect(res.status).toBe(502);
      expect(JSON.parse(res.text).error.code).toBe('unavailable');
      expect(lines.some((l) => /discovery of http:\/\/127\.0\.0\.1:9\/ failed/.test(l))).toBe(true);
    } finally {
      await oidc.close();
    }
  });

  it('refuses to start with a plain-HTTP identity provider off loopback, or a short secret', async () => {
    await expect(startWith({ OIDC_ISSUER: 'http://id.example', OIDC_CLIENT_ID: 'c', OIDC_CLIENT_SECRET: 's' }))
      .rejects.toThrow(/invalid OIDC_ISSUER: http:\/\/id\.example\/ \(https is required/);
    await expect(startWith({ COMPETE_JWT_SECRET: 'too-short' })).rejects.toThrow(/invalid COMPETE_JWT_SECRET/);
  });

  it('warns that sessions end with the process when COMPETE_JWT_SECRET is unset', async () => {
    const lines: string[] = [];
    const dev = await startWith({ COMPETE_JWT_SECRET: undefined }, (l) => lines.push(l));
    await dev.close();
    expect(lines.join('\n')).toMatch(/COMPETE_JWT_SECRET is not set.*every session ends when the server stops/);
  });
});
