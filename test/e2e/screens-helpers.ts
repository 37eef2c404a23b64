/**
 * Helpers of the screens-*.e2e.ts tests: a stand-in access token (an unsigned JWT whose `name`
 * claim the header shows; the shell only checks that a token is stored), opening a route with the
 * initial loader gone, and the two viewports every screen is looked at.
 */
import type { Page } from 'playwright-core';

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

/** Stores the stand-in token for `baseUrl`'s origin (from its /login page). */
export async function storeToken(page: Page, baseUrl: string, token = fakeJwt()): Promise<void> {
  await page.goto(new URL('login', baseUrl).href);
  await page.evaluate((t) => localStorage.setItem('access_token', t), token);
}

/** Opens `path` and waits until the initial page loader has been removed. */
export async function openRoute(page: Page, baseUrl: string, path: string): Promise<void> {
  await page.goto(new URL(path.replace(/^\//, ''), baseUrl).href);
  await page.locator('#page-loader').waitFor({ state: 'detached', timeout: 10_000 });
}
