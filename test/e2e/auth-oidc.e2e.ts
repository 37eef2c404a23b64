// OpenID Connect sign-in end to end in Debian's Chromium: a real identity provider (oidc-provider,
// test/server/test-idp.ts) started here on 127.0.0.1, the real server in OIDC mode over the built
// app and fixture dataset of test/e2e/setup.ts. Then the session cookie: it opens /data/, its loss
// shows 'Your session has expired' on /login, and logout clears it.
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startServer, type RunningServer } from '../../scripts/server/index';
import { ACCOUNT_NAMES, TEST_CLIENT_ID, TEST_CLIENT_SECRET, listenTestIdp, type TestIdp } from '../server/test-idp';
import { foreignRequests, launchBrowser, screenshot, type Browser } from './browser';

const SECRET = 'e2e-oidc-secret-0123456789abcdefghijkl';
let idp: TestIdp;
let server: RunningServer;
let browser: Browser;
let appOrigin: string;
/** Requests to any other origin than the app's and the provider's, aborted: [url, origin of the page that made it]. */
const blocked: Array<[string, string]> = [];

beforeAll(async () => {
  idp = await listenTestIdp();
  server = await startServer({
    distDir: inject('distDir'), dataDir: inject('dataDir'), port: 0, log: () => {},
    env: { OIDC_ISSUER: idp.issuer, OIDC_CLIENT_ID: TEST_CLIENT_ID, OIDC_CLIENT_SECRET: TEST_CLIENT_SECRET, COMPETE_JWT_SECRET: SECRET },
  });
  idp.start(new URL('api/auth/callback', server.url).href);
  appOrigin = new URL(server.url).origin;
  browser = await launchBrowser();
  // oidc-provider's development login page links a web font; no request may leave this machine.
  await browser.context.route(
    (url) => url.origin !== appOrigin && url.origin !== idp.issuer,
    (route) => {
      let from = 'unknown';
      try {
        from = new URL(route.request().frame().url()).origin;
      } catch {
        // a worker's request has no frame
      }
      blocked.push([route.request().url(), from]);
      return route.abort();
    },
  );
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await idp?.close();
});

/** Status of a same-origin fetch of the dataset's manifest, from the page (cookies as the worker sends them). */
const manifestStatus = () =>
  browser.page.evaluate(async () => (await fetch('/data/manifest.json', { credentials: 'same-origin' })).status);

describe('OpenID Connect sign-in in Chromium', () => {
  it('sends a visitor to /login, then through the identity provider back into the app', async () => {
    const { page } = browser;
    await page.goto(new URL('live-comparison', server.url).href);
    await page.waitForURL((u) => u.pathname === '/login', { timeout: 30_000 });
    await page.getByRole('button', { name: 'Sign in' }).waitFor({ timeout: 30_000 });
    // OIDC mode: the page does not offer the development sign-in.
    expect(await page.getByText('Development sign-in: no account needed').count()).toBe(0);
    expect(await manifestStatus()).toBe(401);

    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((u) => u.origin === idp.issuer, { timeout: 30_000 });
    await page.locator('input[name="login"]').fill('dana');
    await page.locator('input[name="password"]').fill('any-password');
    await screenshot(page, 'auth-oidc-provider-login');
    await page.getByRole('button', { name: 'Sign-in' }).click();

    await page.waitForURL((u) => u.origin === appOrigin && u.pathname === '/', { timeout: 30_000 });
    const token = (await page.evaluate(() => localStorage.getItem('access_token'))) ?? '';
    const claims = decodeJwt(token);
    expect(claims.sub).toBe('dana');
    expect(claims.name).toBe(ACCOUNT_NAMES.dana); // 'Dana Analyst', from the provider's UserInfo
    expect(claims.idp).toBe(`${idp.issuer}/`);
    // The header's user label shows the signed-in name instead of the placeholder.
    await page.getByRole('button', { name: /Dana Analyst/ }).waitFor({ timeout: 30_000 });
    await screenshot(page, 'auth-oidc-signed-in');
  });

  it('holds the session in an HttpOnly, SameSite=Lax cookie that opens /data/ and that scripts cannot read', async () => {
    const cookies = await browser.context.cookies(server.url);
    const session = cookies.find((c) => c.name === 'compete_session');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/', secure: false });
    expect(cookies.some((c) => c.name === 'compete_oidc')).toBe(false); // the sign-in transaction is spent
    // 8 h from now, within a minute.
    expect(Math.abs((session?.expires ?? 0) - (Date.now() / 1000 + 8 * 3600))).toBeLessThan(60);
    expect(await browser.page.evaluate(() => document.cookie)).not.toContain('compete_session');
    expect(await manifestStatus()).toBe(200);
  });

  it("shows 'Your session has expired' on /login when the dataset answers 401", async () => {
    const { page } = browser;
    await browser.context.clearCookies();
    expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeTruthy();
    await page.goto(new URL('live-comparison', server.url).href);
    await page.waitForURL((u) => u.pathname === '/login', { timeout: 120_000 });
    await page.getByText('Your session has expired').waitFor({ timeout: 30_000 });
    await screenshot(page, 'auth-session-expired');
    expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeNull();
  });

  it('signs in again, then signs out: logout clears the cookie', async () => {
    const { page } = browser;
    await page.getByRole('button', { name: 'Sign in' }).click();
    const login = page.locator('input[name="login"]');
    // The provider's own session cookie was cleared with the others: it asks for the login again.
    await login.waitFor({ timeout: 30_000 });
    await login.fill('dana');
    await page.locator('input[name="password"]').fill('any-password');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.waitForURL((u) => u.origin === appOrigin && u.pathname === '/', { timeout: 30_000 });
    expect(await manifestStatus()).toBe(200);

    await page.goto(new URL('logout', server.url).href);
    await page.waitForURL((u) => u.pathname === '/login', { timeout: 30_000 });
    expect((await browser.context.cookies(server.url)).some((c) => c.name === 'compete_session')).toBe(false);
    expect(await manifestStatus()).toBe(401);
  });

  it("the app's pages made no request outside their origin but to the provider, and threw no uncaught error", () => {
    expect(browser.requests.some((u) => u.startsWith(`${appOrigin}/data/`))).toBe(true);
    // Every foreign request came from the provider's own pages (its login page's web font).
    expect(blocked.filter(([, from]) => from !== idp.issuer)).toEqual([]);
    const foreign = foreignRequests(browser.requests, appOrigin).filter((u) => new URL(u).origin !== idp.issuer);
    expect(foreign.every((u) => blocked.some(([b]) => b === u))).toBe(true);
    expect(browser.pageErrors).toEqual([]);
  });
});
