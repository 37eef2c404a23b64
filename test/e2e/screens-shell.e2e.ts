// The shell and the sign-in routes in Debian's Chromium, docs/screens.md (Shell and sign-in, Routes):
// redirects, the initial loader, navigation with exact-path highlighting, the small-screen menu's
// open/close paths, the user label and menu, logout, the placeholders; a screenshot of every
// screen at 1280x800 and 390x844 (test-results/screenshots, git-ignored), named `shell-<screen>-<size>`:
// taken as soon as the heading shows (the live screens still loading), they must not overwrite the
// screens' own tests' captures of the same name (live-dashboard-1280x800, live-search-..., login-...).
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { foreignRequests, launchBrowser, screenshot, type Browser } from './browser';
import { TEST_USER, VIEWPORTS, fakeJwt, openRoute, storeToken } from './screens-helpers';

const baseUrl = inject('baseUrl');
const origin = new URL(baseUrl).origin;
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const NAV = [
  ['Dashboard', '/'], ['Price Comparison', '/comparison'], ['Alerts', '/alerts'],
  ['Regional Analysis', '/regional'], ['Settings', '/settings'],
] as const;

describe('sign-in routes', () => {
  it('sends a visitor without a token to /login and removes the initial loader', async () => {
    const { page } = browser;
    const response = await page.goto(new URL('comparison', baseUrl).href);
    expect(await response?.text()).toContain('id="page-loader"');
    await page.waitForURL((u) => u.pathname === '/login');
    await page.locator('#page-loader').waitFor({ state: 'detached', timeout: 5_000 });
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    // a page that leaves the app starts no data worker: no worker script, no DuckDB-WASM download
    expect(browser.requests.filter((u) => /data-worker|duckdb/.test(u))).toEqual([]);
  });

  it('stores the token of /auth/callback and goes to /, showing the name claim', async () => {
    const { page } = browser;
    const token = fakeJwt();
    await page.goto(new URL(`auth/callback?token=${token}`, baseUrl).href);
    await page.waitForURL((u) => u.pathname === '/');
    expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBe(token);
    await page.getByRole('heading', { name: 'Data Comparison Tool', level: 1 }).waitFor();
    expect(await page.getByRole('button', { name: new RegExp(TEST_USER) }).count()).toBe(1);
    // a sign-in's landing starts the data worker for the screens the user goes on to
    expect(browser.requests.some((u) => /data-worker/.test(u))).toBe(true);
  });

  it('shows the placeholder label for a token without a name', async () => {
    const { page } = browser;
    await storeToken(page, baseUrl, 'opaque-token');
    await openRoute(page, baseUrl, '/alerts');
    await page.getByRole('button', { name: /Analyst/ }).waitFor();
  });

  it('logs out: "Logging out...", token cleared, then the logout endpoint with redirect_uri', async () => {
    const { context } = browser;
    // A page of its own: the bindings below must not outlive this test.
    const page = await context.newPage();
    try {
      await storeToken(page, baseUrl);
      // The page reports its text on every change (an exposed binding survives the held redirect,
      // when locators and evaluate wait for the pending navigation).
      const texts: string[] = [];
      await page.exposeFunction('reportText', (t: string) => texts.push(t));
      await page.addInitScript(() => {
        const report = () => (window as unknown as { reportText(t: string): void }).reportText(document.body?.innerText ?? '');
        new MutationObserver(report).observe(document, { subtree: true, childList: true, characterData: true });
      });
      let release: () => void = () => {};
      const held = new Promise<void>((r) => { release = r; });
      let logoutUrl = '';
      await page.route('**/api/auth/logout**', async (route) => {
        logoutUrl = route.request().url();
        await held;
        await route.fulfill({ status: 302, headers: { location: new URL('login', baseUrl).href } });
      });
      await page.goto(new URL('logout', baseUrl).href, { waitUntil: 'commit' });
      await expect.poll(() => logoutUrl, { timeout: 10_000 }).not.toBe('');
      await expect.poll(() => texts.some((t) => t.includes('Logging out...')), { timeout: 10_000 }).toBe(true);
      expect(new URL(logoutUrl).searchParams.get('redirect_uri')).toBe(`${origin}/login`);
      release();
      await page.waitForURL((u) => u.pathname === '/login');
      expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeNull();
    } finally {
      await page.close();
    }
  });
});

describe('shell', () => {
  it('highlights the entry of the exact path only, and navigates', async () => {
    const { page } = browser;
    await storeToken(page, baseUrl);
    await openRoute(page, baseUrl, '/');
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    for (const [label, path] of NAV) {
      await nav.getByRole('link', { name: label }).click();
      await page.waitForURL((u) => u.pathname === path);
      await expect.poll(async () => (await nav.locator('a[aria-current="page"]').allInnerTexts()).map((t) => t.trim()))
        .toEqual([label]);
    }
    // /old-dashboard has no entry: none is highlighted ('/' is not a prefix match).
    await openRoute(page, baseUrl, '/old-dashboard');
    expect(await nav.locator('a[aria-current="page"]').count()).toBe(0);
    expect(await page.getByRole('banner').count()).toBe(1);
    expect(await page.getByRole('main').count()).toBe(1);
  });

  it('opens the user menu with Sign out -> /logout and closes it with Escape', async () => {
    const { page } = browser;
    await openRoute(page, baseUrl, '/settings');
    const button = page.getByRole('button', { name: new RegExp(TEST_USER) });
    await button.click();
    const item = page.getByRole('menuitem', { name: 'Sign out' });
    expect(await item.getAttribute('href')).toBe('/logout');
    await expect.poll(() => item.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Escape');
    await item.waitFor({ state: 'hidden' });
    expect(await button.evaluate((el) => el === document.activeElement)).toBe(true);
  });

  it('shows the placeholders of /alerts, /regional and /settings', async () => {
    const { page } = browser;
    for (const [path, text] of [['/alerts', 'Alerts are coming soon.'], ['/regional', 'Regional analysis is coming soon.'], ['/settings', 'Settings are coming soon.']]) {
      await openRoute(page, baseUrl, path!);
      await page.getByText(text!).waitFor();
    }
  });

  it('keeps the live screens inside the shell', async () => {
    const { page } = browser;
    for (const [path, title] of [['/live-dashboard', 'Data Comparison Tool (Live)'], ['/live-search', 'Live Service Price Search']]) {
      await openRoute(page, baseUrl, path!);
      await page.getByRole('heading', { name: title, level: 1 }).waitFor();
      expect(await page.getByRole('navigation', { name: 'Main navigation' }).count()).toBe(1);
    }
  });
});

describe('small-screen menu (390x844)', () => {
  it('opens by the menu button and closes by the close button, the backdrop, Escape and an entry', async () => {
    const { page } = browser;
    await page.setViewportSize({ width: 390, height: 844 });
    await openRoute(page, baseUrl, '/');
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    const menuButton = page.getByRole('button', { name: 'Open menu' });
    const open = async () => {
      await menuButton.click();
      await nav.getByRole('link', { name: 'Alerts' }).waitFor({ state: 'visible' });
      expect(await menuButton.getAttribute('aria-expanded')).toBe('true');
    };
    const closed = async () => {
      await nav.getByRole('link', { name: 'Alerts' }).waitFor({ state: 'hidden' });
      expect(await menuButton.getAttribute('aria-expanded')).toBe('false');
    };
    await nav.getByRole('link', { name: 'Alerts' }).waitFor({ state: 'hidden' });

    await open();
    expect(await page.getByRole('button', { name: 'Close menu' }).evaluate((el) => el === document.activeElement)).toBe(true);
    await screenshot(page, 'shell-menu-open-390x844');
    await page.getByRole('button', { name: 'Close menu' }).click();
    await closed();
    await expect.poll(() => menuButton.evaluate((el) => el === document.activeElement)).toBe(true);

    await open();
    await page.mouse.click(370, 420); // the backdrop, right of the 264 px-wide panel
    await closed();

    await open();
    await page.keyboard.press('Escape');
    await closed();

    await open();
    await nav.getByRole('link', { name: 'Settings' }).click();
    await page.waitForURL((u) => u.pathname === '/settings');
    await closed();
  });
});

describe('every screen at both widths', () => {
  const SCREENS = [
    ['dashboard', '/', 'Data Comparison Tool'], ['comparison', '/comparison', 'Price Comparison'],
    ['alerts', '/alerts', 'Alerts'], ['regional', '/regional', 'Regional Analysis'], ['settings', '/settings', 'Settings'],
    ['old-dashboard', '/old-dashboard', 'Healthcare Price Transparency Dashboard'],
    ['overview', '/overview', 'Transparency Data Overview'], ['live-dashboard', '/live-dashboard', 'Data Comparison Tool (Live)'],
    ['live-search', '/live-search', 'Live Service Price Search'],
  ] as const;

  for (const vp of VIEWPORTS) {
    it(`renders each screen at ${vp.name} without horizontal page overflow`, async () => {
      const { page } = browser;
      await page.setViewportSize({ width: vp.width, height: vp.height });
      await storeToken(page, baseUrl);
      await screenshot(page, `shell-login-${vp.name}`);
      for (const [name, path, title] of SCREENS) {
        await openRoute(page, baseUrl, path);
        await page.getByRole('heading', { name: title, level: 1, exact: true }).waitFor();
        if (name === 'old-dashboard') await page.getByRole('heading', { name: 'Recent Activity' }).waitFor();
        if (name === 'dashboard') await page.locator('.plot-figure svg').nth(1).waitFor();
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${name} overflows by ${overflow}px`).toBeLessThanOrEqual(0);
        await screenshot(page, `shell-${name}-${vp.name}`);
      }
    });
  }

  it('made no request outside its own origin and threw no uncaught error', () => {
    expect(foreignRequests(browser.requests, origin)).toEqual([]);
    expect(browser.pageErrors).toEqual([]);
  });
});
