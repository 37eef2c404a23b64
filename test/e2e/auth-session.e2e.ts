// The session cookie of the development sign-in in Chromium (server of test/e2e/setup.ts): a
// token in localStorage alone does not open the dataset; signInDevelopment() (browser.ts) does.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, signInDevelopment, type Browser } from './browser';

const baseUrl = inject('baseUrl');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const manifestStatus = () =>
  browser.page.evaluate(async () => (await fetch('/data/manifest.json', { credentials: 'same-origin' })).status);

describe('development session in Chromium', () => {
  it("a token in localStorage without the cookie: the dataset answers 401 and /login says 'Your session has expired'", async () => {
    const { page } = browser;
    await page.goto(new URL('login', baseUrl).href);
    await page.evaluate(() => localStorage.setItem('access_token', 'header.payload.signature'));
    expect(await manifestStatus()).toBe(401);
    await page.goto(new URL('live-comparison', baseUrl).href);
    await page.waitForURL((u) => u.pathname === '/login', { timeout: 120_000 });
    await page.getByText('Your session has expired').waitFor({ timeout: 30_000 });
  });

  it('signInDevelopment sets an HttpOnly session cookie that opens the dataset', async () => {
    const token = await signInDevelopment(browser.context, baseUrl);
    expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    const session = (await browser.context.cookies(baseUrl)).find((c) => c.name === 'compete_session');
    expect(session).toMatchObject({ value: token, httpOnly: true, sameSite: 'Lax' });
    expect(await manifestStatus()).toBe(200);
  });
});
