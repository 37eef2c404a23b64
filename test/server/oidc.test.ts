// OpenID Connect sign-in over HTTP against a real provider (oidc-provider, test-idp.ts): the
// authorization request (PKCE S256, state, nonce), the whole code flow driven request by request
// with a cookie jar, and the callbacks that must fail (no transaction, wrong state, provider
// error, replayed code). The same flow in Chromium is test/e2e/auth-oidc.e2e.ts.
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../scripts/server/index';
import { signAppToken, DEV_USER } from '../../scripts/server/tokens';
import { makeTempSite, rawRequest, type TempSite } from './temp-site';
import { TEST_CLIENT_ID, TEST_CLIENT_SECRET, listenTestIdp, type TestIdp } from './test-idp';

const SECRET = 'oidc-test-secret-0123456789abcdefghij';
let site: TempSite;
let idp: TestIdp;
let server: RunningServer;
const logLines: string[] = [];

beforeAll(async () => {
  site = await makeTempSite();
  idp = await listenTestIdp();
  server = await startServer({
    distDir: site.distDir, dataDir: site.dataDir, port: 0, log: (l) => logLines.push(l),
    env: { OIDC_ISSUER: idp.issuer, OIDC_CLIENT_ID: TEST_CLIENT_ID, OIDC_CLIENT_SECRET: TEST_CLIENT_SECRET, COMPETE_JWT_SECRET: SECRET },
  });
  idp.start(new URL('api/auth/callback', server.url).href);
});
afterAll(async () => {
  await server?.close();
  await idp?.close();
  await site?.remove();
});

/** Cookies per origin, as a browser would keep them (name=value only; paths ignored). */
class Jar {
  private readonly byOrigin = new Map<string, Map<string, string>>();
  store(url: string, res: Response): void {
    const jar = this.byOrigin.get(new URL(url).origin) ?? new Map<string, string>();
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = (pair ?? '').indexOf('=');
      const name = (pair ?? '').slice(0, eq);
      const value = (pair ?? '').slice(eq + 1);
      if (value === '' || /expires=thu, 01 jan 1970/i.test(line)) jar.delete(name);
      else jar.set(name, value);
    }
    this.byOrigin.set(new URL(url).origin, jar);
  }
  header(url: string): string {
    return [...(this.byOrigin.get(new URL(url).origin) ?? new Map<string, string>())].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  get(url: string, name: string): string | undefined {
    return this.byOrigin.get(new URL(url).origin)?.get(name);
  }
}

/** One request without following redirects, cookies from and into `jar`. */
async function step(jar: Jar, url: string, init: RequestInit = {}): Promise<Response> {
  const res = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string>), cookie: jar.header(url) } });
  jar.store(url, res);
  return res;
}

const location = (res: Response, base: string) => new URL(res.headers.get('location') ?? '', base).href;

/**
 * Drives the flow from /api/auth/login up to the provider's redirect back to the app, logging in
 * as `login`; returns the callback URL (with code and state) and the jar.
 */
async function signInAtProvider(login: string): Promise<{ callbackUrl: string; jar: Jar }> {
  const jar = new Jar();
  const start = await step(jar, new URL('api/auth/login', server.url).href);
  expect(start.status).toBe(302);
  let url = location(start, server.url);
  for (let hops = 0; hops < 10; hops++) {
    if (url.startsWith(server.url)) return { callbackUrl: url, jar };
    const res = await step(jar, url);
    if (res.status === 200) {
      // The provider's login form: POST login and password to its action.
      const html = await res.text();
      const action = /action="([^"]+)"/.exec(html)?.[1];
      if (!action) throw new Error(`no form at ${url}: ${html.slice(0, 300)}`);
      const post = await step(jar, new URL(action.replace(/&amp;/g, '&'), url).href, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ prompt: 'login', login, password: 'any-password' }).toString(),
      });
      url = location(post, url);
    } else {
      expect([302, 303]).toContain(res.status);
      url = location(res, url);
    }
  }
  throw new Error('the provider never redirected back to the app');
}

describe('authorization request', () => {
  it('derives redirect_uri from the listening origin, never from the Host header', async () => {
    const own = new URL('api/auth/callback', server.url).href;
    const redirectUri = async (headers: Record<string, string>) =>
      new URL(String((await rawRequest(server.url, '/api/auth/login', headers)).headers.location)).searchParams.get('redirect_uri');
    expect(await redirectUri({ host: 'evil.example' })).toBe(own);
    expect(await redirectUri({ host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' })).toBe(own);
    // A browser on http://localhost:<port> (the same loopback socket) keeps its own origin, so its cookies.
    const port = new URL(server.url).port;
    expect(await redirectUri({ host: `localhost:${port}` })).toBe(`http://localhost:${port}/api/auth/callback`);
  });

  it('redirects to the provider with code flow, PKCE S256, state and nonce, and keeps them in an HttpOnly cookie', async () => {
    const res = await rawRequest(server.url, '/api/auth/login');
    expect(res.status).toBe(302);
    const target = new URL(String(res.headers.location));
    expect(target.origin).toBe(idp.issuer);
    const q = target.searchParams;
    expect(q.get('response_type')).toBe('code');
    expect(q.get('client_id')).toBe(TEST_CLIENT_ID);
    expect(q.get('redirect_uri')).toBe(new URL('api/auth/callback', server.url).href);
    expect(q.get('scope')).toBe('openid profile');
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('code_challenge')).toMatch(/^[\w-]{43}$/); // base64url of a SHA-256 digest: 32 bytes -> 43 chars
    expect(q.get('state')?.length).toBeGreaterThanOrEqual(43);
    expect(q.get('nonce')?.length).toBeGreaterThanOrEqual(43);
    expect(q.get('state')).not.toBe(q.get('nonce'));
    const raw = res.headers['set-cookie'];
    const cookie = (Array.isArray(raw) ? raw : [raw ?? '']).find((c) => c.startsWith('compete_oidc=')) ?? '';
    const attributes = cookie.toLowerCase().split(/;\s*/);
    expect(attributes).toEqual(expect.arrayContaining(['httponly', 'samesite=lax', 'path=/api/auth/callback', 'max-age=600']));
    // The transaction is encrypted: neither the state nor the verifier shows in the cookie.
    expect(cookie).not.toContain(q.get('state') ?? '-');
    // No session yet.
    expect((Array.isArray(raw) ? raw : [raw ?? '']).some((c) => c.startsWith('compete_session='))).toBe(false);
  });
});

describe('the code flow', () => {
  it("signs in: app token with the provider's sub and name, session cookie that opens /data/", async () => {
    const { callbackUrl, jar } = await signInAtProvider('dana');
    const transaction = jar.get(server.url, 'compete_oidc') ?? '';
    expect(transaction).not.toBe('');
    const back = await step(jar, callbackUrl);
    expect(back.status).toBe(302);
    const final = new URL(back.headers.get('location') ?? '', server.url);
    expect(final.pathname).toBe('/auth/callback');
    const token = final.searchParams.get('token') ?? '';
    const claims = decodeJwt(token);
    expect(claims).toMatchObject({ sub: 'dana', name: 'Dana Analyst', idp: `${idp.issuer}/`, iss: 'compete', aud: 'compete' });
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(8 * 3600);
    expect(jar.get(server.url, 'compete_session')).toBe(token);
    expect(jar.get(server.url, 'compete_oidc')).toBeUndefined(); // the transaction is spent
    const data = await step(jar, new URL('data/manifest.json', server.url).href);
    expect(data.status).toBe(200);
    expect(await data.json()).toEqual({ format: 'compete-dataset' });

    // The same code with the same transaction cookie a second time: the provider refuses the spent
    // code (invalid_grant), the app answers 400 and sets no session.
    const replayJar = new Jar();
    const replay = await fetch(callbackUrl, { redirect: 'manual', headers: { cookie: `compete_oidc=${transaction}` } });
    replayJar.store(callbackUrl, replay);
    expect(replay.status).toBe(400);
    expect((await replay.json()).message).toMatch(/invalid_grant/);
    expect(replayJar.get(server.url, 'compete_session')).toBeUndefined();
  });

  it('signs in an account without a name: the token has no name claim', async () => {
    const { callbackUrl, jar } = await signInAtProvider('lee');
    const back = await step(jar, callbackUrl);
    const token = new URL(back.headers.get('location') ?? '', server.url).searchParams.get('token') ?? '';
    const claims = decodeJwt(token);
    expect(claims.sub).toBe('lee');
    expect(claims.name).toBeUndefined();
  });

  it('refuses a callback whose state was changed, with 400 and no session', async () => {
    const { callbackUrl, jar } = await signInAtProvider('dana');
    const tampered = new URL(callbackUrl);
    tampered.searchParams.set('state', 'attacker-state');
    const res = await step(jar, tampered.href);
    expect(res.status).toBe(400);
    expect((await res.json()).message).toMatch(/^sign-in failed: /);
    expect(jar.get(server.url, 'compete_session')).toBeUndefined();
  });

  it("refuses a callback without this browser's transaction cookie (login CSRF), with 400", async () => {
    const { callbackUrl } = await signInAtProvider('dana');
    const res = await fetch(callbackUrl, { redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(res.headers.getSetCookie().some((c) => c.startsWith('compete_session=') && !c.startsWith('compete_session=;'))).toBe(false);
    expect(logLines.some((l) => /without a valid sign-in transaction/.test(l))).toBe(true);
  });

  it('refuses an error answer of the provider (access_denied), with 400', async () => {
    const jar = new Jar();
    const start = await step(jar, new URL('api/auth/login', server.url).href);
    const state = new URL(location(start, server.url)).searchParams.get('state') ?? '';
    const url = new URL('api/auth/callback', server.url);
    url.search = new URLSearchParams({ error: 'access_denied', state, iss: idp.issuer }).toString();
    const res = await step(jar, url.href);
    expect(res.status).toBe(400);
    expect((await res.json()).message).toMatch(/access_denied/);
  });

  it('refuses a development token on /data/ of an OIDC server with the same secret', async () => {
    const { token } = await signAppToken(DEV_USER, new TextEncoder().encode(SECRET));
    const res = await rawRequest(server.url, '/data/manifest.json', { cookie: `compete_session=${token}` });
    expect(res.status).toBe(401);
  });

  it('offers no development sign-in', async () => {
    expect(JSON.parse((await rawRequest(server.url, '/api/auth/config')).text)).toEqual({ mode: 'oidc' });
    expect(logLines.join('\n')).not.toMatch(/development sign-in is on/);
  });
});
