/**
 * Helpers of the screens-*.e2e.ts tests: a stand-in access token (an unsigned JWT whose `name`
 * claim the header shows; the shell only checks that a token is stored), opening a route with the
 * initial loader gone, and the two viewports every screen is looked at (also by the live-*.e2e.ts).
 */
import type { Page } from 'playwright-core';
import { screenshot, signInDevelopment } from './browser';

/** The name claim of the stand-in token. */
export const TEST_USER = 'Dana Whitfield';

/** An unsigned JWT `{ sub, name }` (the page decodes it without verification). */
export function fakeJwt(name = TEST_USER): string {
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${part({ alg: 'none', typ: 'JWT' })}.${part({ sub: 'e2e-user', name })}.signature`;
}

export const VIEWPORTS = [
  { name: '1280x800', width: 1280, height: 800 },
  { name: '390x844', width: 390, height: 844 },
] as const;

/**
 * Stores the stand-in token for `baseUrl`'s origin: from the page as it is when it shows that
 * origin, else from its /login page (a page load boots the data worker, seconds of CPU).
 */
export async function storeToken(page: Page, baseUrl: string, token = fakeJwt()): Promise<void> {
  // about:blank's origin is "null"
  if (new URL(page.url()).origin !== new URL(baseUrl).origin) await page.goto(new URL('login', baseUrl).href);
  await page.evaluate((t) => localStorage.setItem('access_token', t), token);
}

/** Signs `page` in at `baseUrl` through the development sign-in (browser.ts) and stores the app token it gives. */
export async function signIn(page: Page, baseUrl: string): Promise<void> {
  await storeToken(page, baseUrl, await signInDevelopment(page.context(), baseUrl));
}

/** The URL of the app's route `path` ('/live-search?x=1') on the server at `baseUrl`. */
export const routeUrl = (baseUrl: string, path: string): string => new URL(path.replace(/^\//, ''), baseUrl).href;

/** Opens `path` and waits until the initial page loader has been removed. */
export async function openRoute(page: Page, baseUrl: string, path: string): Promise<void> {
  await page.goto(routeUrl(baseUrl, path));
  await page.locator('#page-loader').waitFor({ state: 'detached', timeout: 10_000 });
}

/**
 * Opens `path` ('/live-search?x=1') inside the app `page` already shows, as a link of the app does:
 * a history entry the router follows, without loading the page again, so that a data worker the
 * page has booted (seconds of CPU) stays.
 */
export async function navigateInApp(page: Page, path: string): Promise<void> {
  await page.evaluate((p) => {
    history.pushState(null, '', p);
    dispatchEvent(new PopStateEvent('popstate', { state: null }));
  }, path);
  // the route's path (a screen may rewrite its query at once, from its own state)
  const to = new URL(path, page.url()).pathname;
  await page.waitForURL((u) => u.pathname === to);
}

/**
 * Screenshots the page as it is (at 1280x800, scrolled to the top) as `<name>-1280x800`, then as
 * `<name>-390x844` after a reload at that size (the phone loads it at its own size) and `ready`;
 * ends back at 1280x800.
 */
export async function bothWidths(page: Page, name: string, ready: () => Promise<unknown>): Promise<void> {
  const [wide, phone] = VIEWPORTS;
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, `${name}-${wide.name}`);
  await page.setViewportSize({ width: phone.width, height: phone.height });
  await page.reload();
  await ready();
  await screenshot(page, `${name}-${phone.name}`);
  await page.setViewportSize({ width: wide.width, height: wide.height });
}
