// The session that guards /data/: the cookie set at sign-in (attributes, lifetime), the tokens
// that are refused (missing, expired, tampered, wrong key, wrong algorithm, foreign issuer or
// audience, a development token on an OIDC server), Secure behind a trusted proxy only, logout.
import { SignJWT, decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../scripts/server/index';
import { CONTENT_SECURITY_POLICY } from '../../scripts/server/security-headers';
import { DEV_USER, signAppToken, verifyAppToken } from '../../scripts/server/tokens';
import { makeTempSite, rawRequest, setCookies, type TempSite } from './temp-site';

const SECRET = 'session-test-secret-0123456789abcdef';
const KEY = new TextEncoder().encode(SECRET);
const MANIFEST = '/data/manifest.json';
let site: TempSite;
let server: RunningServer;

const start = (env: Record<string, string>) =>
  startServer({ distDir: site.distDir, dataDir: site.dataDir, port: 0, log: () => {}, env: { COMPETE_JWT_SECRET: SECRET, ...env } });

beforeAll(async () => {
  site = await makeTempSite();
  server = await start({});
});
afterAll(async () => {
  await server?.close();
  await site?.remove();
});

/** GET the manifest with `cookie` as the session cookie value. */
const withSession = (token: string) => rawRequest(server.url, MANIFEST, { cookie: `compete_session=${token}` });

/** A token like the server's, with `claims` overriding, signed by `key` with `alg`. */
function forge(claims: Record<string, unknown>, key: Uint8Array = KEY, alg = 'HS256'): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const base = { sub: 'mallory', iss: 'compete', aud: 'compete', iat: now, exp: now + 3600, idp: 'development', name: 'Mallory' };
  const payload = Object.fromEntries(Object.entries({ ...base, ...claims }).filter(([, v]) => v !== undefined));
  return new SignJWT(payload).setProtectedHeader({ alg }).sign(key);
}

describe('the session cookie of the development sign-in', () => {
  it('is HttpOnly, SameSite=Lax, Path=/, not Secure over plain HTTP, and lives as long as the token (8 h)', async () => {
    const res = await rawRequest(server.url, '/api/auth/login');
    const [cookie] = setCookies(res).filter((c) => c.startsWith('compete_session='));
    expect(cookie).toBeDefined();
    const attributes = (cookie ?? '').split(/;\s*/).slice(1).map((a) => a.toLowerCase());
    expect(attributes).toContain('httponly');
    expect(attributes).toContain('samesite=lax');
    expect(attributes).toContain('path=/');
    // 8 h x 3,600 s = 28,800 s, counted from the moment the cookie is set: a second may have
    // passed since the token was issued.
    const maxAge = Number(attributes.find((a) => a.startsWith('max-age='))?.slice('max-age='.length));
    expect(maxAge).toBeGreaterThanOrEqual(28_799);
    expect(maxAge).toBeLessThanOrEqual(28_800);
    expect(attributes).not.toContain('secure');
    // The cookie holds the same token as the redirect to /auth/callback.
    const value = (cookie ?? '').split(';')[0]?.slice('compete_session='.length);
    const location = new URL(String(res.headers.location), server.url);
    expect(value).toBe(location.searchParams.get('token'));
    expect(decodeJwt(value ?? '').name).toBe('Development User');
  });

  it('opens /data/ to the cookie and to an Authorization: Bearer header', async () => {
    const { token } = await signAppToken(DEV_USER, KEY);
    expect((await withSession(token)).status).toBe(200);
    const bearer = await rawRequest(server.url, MANIFEST, { authorization: `Bearer ${token}` });
    expect(bearer.status).toBe(200);
  });
});

describe('/data/ refuses with 401', () => {
  it('(a forged token with the right claims and key passes: the refusals below are each for one fault)', async () => {
    expect((await withSession(await forge({}))).status).toBe(200);
  });

  const expect401 = async (res: Awaited<ReturnType<typeof rawRequest>>) => {
    expect(res.status).toBe(401);
    expect(res.text).not.toContain('compete-dataset');
    const body = JSON.parse(res.text);
    expect(body.error.code).toBe('unauthorized');
    expect(body.message).toBe(body.error.message);
    expect(res.headers['www-authenticate']).toBe('Bearer realm="compete"');
    expect(res.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
  };

  it('a request without a session, for a file that exists and one that does not', async () => {
    await expect401(await rawRequest(server.url, MANIFEST));
    await expect401(await rawRequest(server.url, '/data/rates/part-0.parquet', { range: 'bytes=0-9' }));
    await expect401(await rawRequest(server.url, '/data/missing.parquet'));
    const head = await rawRequest(server.url, MANIFEST, {}, 'HEAD');
    expect(head.status).toBe(401);
    expect(head.body.length).toBe(0);
  });

  it('an expired token (exp one second ago)', async () => {
    const now = Math.floor(Date.now() / 1000);
    await expect401(await withSession(await forge({ exp: now - 1, iat: now - 3601 })));
  });

  it('a tampered token: payload changed, signature kept', async () => {
    const { token } = await signAppToken(DEV_USER, KEY);
    const [header, , signature] = token.split('.');
    const payload = Buffer.from(JSON.stringify({ ...decodeJwt(token), sub: 'admin', name: 'Admin' })).toString('base64url');
    await expect401(await withSession(`${header}.${payload}.${signature}`));
    // One character of the signature changed.
    const flipped = token.slice(0, -2) + (token.at(-2) === 'A' ? 'B' : 'A') + token.slice(-1);
    await expect401(await withSession(flipped));
  });

  it('a token signed with another key', async () => {
    await expect401(await withSession(await forge({}, new TextEncoder().encode('another-secret-of-32-bytes-or-more!!'))));
  });

  it('an unsigned token (alg none) and another HMAC algorithm (HS512)', async () => {
    const unsigned = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(
      JSON.stringify({ sub: 'mallory', idp: 'development', iss: 'compete', aud: 'compete', exp: 4102444800 }),
    ).toString('base64url')}.`;
    await expect401(await withSession(unsigned));
    await expect401(await withSession(await forge({}, KEY, 'HS512')));
  });

  it('a token of another issuer or audience, or without a subject', async () => {
    await expect401(await withSession(await forge({ iss: 'someone-else' })));
    await expect401(await withSession(await forge({ aud: 'another-app' })));
    await expect401(await withSession(await forge({ sub: undefined })));
  });

  it('garbage in the cookie', async () => {
    await expect401(await withSession('not-a-jwt'));
    await expect401(await rawRequest(server.url, MANIFEST, { authorization: 'Basic dXNlcjpwYXNz' }));
  });
});

describe('tokens', () => {
  it('a development token is refused by a server configured for OpenID Connect with the same secret', async () => {
    const { token } = await signAppToken(DEV_USER, KEY);
    expect(await verifyAppToken(token, KEY, 'development')).toEqual(DEV_USER);
    expect(await verifyAppToken(token, KEY, 'https://id.example/')).toBeNull();
  });
});

describe('behind a proxy', () => {
  it('marks the cookie Secure for X-Forwarded-Proto: https only when COMPETE_TRUST_PROXY allows it', async () => {
    const trusting = await start({ COMPETE_TRUST_PROXY: '127.0.0.1' });
    try {
      const viaProxy = await rawRequest(trusting.url, '/api/auth/login', { 'x-forwarded-proto': 'https' });
      const cookie = setCookies(viaProxy).find((c) => c.startsWith('compete_session=')) ?? '';
      expect(cookie.toLowerCase().split(/;\s*/)).toContain('secure');
      expect(viaProxy.headers['strict-transport-security']).toBe('max-age=31536000');
    } finally {
      await trusting.close();
    }
    const untrusted = await rawRequest(server.url, '/api/auth/login', { 'x-forwarded-proto': 'https' });
    const cookie = setCookies(untrusted).find((c) => c.startsWith('compete_session=')) ?? '';
    expect(cookie.toLowerCase().split(/;\s*/)).not.toContain('secure');
    expect(untrusted.headers['strict-transport-security']).toBeUndefined();
  });
});

describe('logout', () => {
  it('clears the session cookie (empty, expired, same path)', async () => {
    const res = await rawRequest(server.url, '/api/auth/logout?redirect_uri=%2Flogin');
    expect(res.status).toBe(302);
    const cookie = setCookies(res).find((c) => c.startsWith('compete_session=')) ?? '';
    expect(cookie).toMatch(/^compete_session=;/);
    expect(cookie.toLowerCase()).toContain('path=/');
    expect(cookie).toMatch(/Expires=Thu, 01 Jan 1970/);
  });
});
