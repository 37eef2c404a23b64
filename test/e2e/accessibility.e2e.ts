// Accessibility, checked: axe-core (test/e2e/axe.ts) on every screen of src/router.tsx a signed-in user
// reaches, and /login signed out, at 1280x800 and 390x844, after the screen has rendered its data (the
// waits of the other e2e tests), plus the states with a dialog, a menu or a list open. Every state must
// have no violation; a failure lists rule, impact, the element's selector and the rule's help. A state
// of a screen's route opens on the page its screen test left, as a user opens it. At each width, the
// screens are loaded from their URL until one that reads the dataset has booted the data worker;
// from there on each screen and state is opened inside the app, as its links do, and the worker stays
// (screens-shell.e2e.ts loads every screen from its URL at both widths).
// /auth/callback and /logout are not screens: they store or clear the token and redirect at once.
// The server of the global setup holds the fixture dataset (test/fixtures/e2e); the development
// sign-in gives the session cookie the live screens need for /data/.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { axeViolations } from './axe';
import { foreignRequests, launchBrowser, screenshot, signInDevelopment, type Browser } from './browser';
import { VIEWPORTS, navigateInApp, openRoute, storeToken } from './screens-helpers';
import { opensOnData } from '../../src/api/interceptor';

const BOOT = 150_000; // DuckDB-WASM boot + first Parquet reads on a 2-core machine
const baseUrl = inject('baseUrl');
const origin = new URL(baseUrl).origin;
let browser: Browser;
let token = '';

beforeAll(async () => {
  browser = await launchBrowser();
  token = await signInDevelopment(browser.context, baseUrl);
});
afterAll(async () => {
  await browser?.close();
});

/** Signs the page in (the development token in localStorage; the session cookie is already in the context). */
const signIn = (page: Page): Promise<void> => storeToken(page, baseUrl, token);

/** Runs axe on the page as it is and expects no violation; the message names `what`. */
async function expectAccessible(page: Page, what: string): Promise<void> {
  const lines = await axeViolations(page);
  expect(lines, `axe violations on ${what}:\n${lines.join('\n')}`).toEqual([]);
}

interface Screen {
  name: string;
  path: string;
  /** Resolves once the screen shows its data. */
  ready(page: Page): Promise<unknown>;
}

const heading = (page: Page, name: string) => page.getByRole('heading', { name, level: 1, exact: true }).waitFor();

/** Every route inside the shell (src/router.tsx), with the wait of its own e2e test. */
const SCREENS: Screen[] = [
  { name: 'dashboard', path: '/', ready: async (p) => {
    await heading(p, 'Data Comparison Tool');
    await p.locator('.plot-figure svg').nth(1).waitFor();
  } },
  { name: 'comparison', path: '/comparison', ready: (p) => p.locator('.cmp-table tbody tr').first().waitFor() },
  { name: 'alerts', path: '/alerts', ready: (p) => p.getByText('Alerts are coming soon.').waitFor() },
  { name: 'regional', path: '/regional', ready: (p) => p.getByText('Regional analysis is coming soon.').waitFor() },
  { name: 'settings', path: '/settings', ready: (p) => p.getByText('Settings are coming soon.').waitFor() },
  { name: 'old-dashboard', path: '/old-dashboard', ready: async (p) => {
    await p.getByRole('heading', { name: 'Recent Activity' }).waitFor({ timeout: 5_000 });
    await p.getByRole('img', { name: /Most common services/ }).locator('g[aria-label="bar"] rect').nth(7).waitFor({ timeout: 5_000 });
    await p.getByRole('img', { name: /Files published/ }).waitFor();
  } },
  { name: 'overview', path: '/overview', ready: (p) => p.locator('.specialty-list li').nth(4).waitFor() },
  { name: 'live-dashboard', path: '/live-dashboard', ready: async (p) => {
    // Every panel loaded: the cards (no longer aria-busy), both charts and the map's states.
    await p.locator('.card-grid:not([aria-busy="true"])').waitFor({ timeout: BOOT });
    await p.getByRole('img', { name: /Top 10 Overpaid Services/ }).locator('g[aria-label="bar"] rect').first().waitFor();
    await p.getByRole('img', { name: /Overpayment Trend Over Time/ }).waitFor();
    await p.locator('path[data-state="CA"]').waitFor({ timeout: BOOT });
    await p.getByText(/^\d+ open of \d+$/).waitFor({ timeout: 30_000 }); // the alerts loaded
  } },
  { name: 'live-comparison', path: '/live-comparison', ready: (p) => p.getByRole('row').filter({ hasText: '70551' }).waitFor({ timeout: BOOT }) },
  { name: 'live-search', path: '/live-search', ready: async (p) => {
    await p.getByRole('combobox', { name: 'Service Name', exact: true }).waitFor({ timeout: BOOT });
    await expect.poll(() => p.locator('.autocomplete__spinner').count(), { timeout: BOOT }).toBe(0); // the first services loaded
  } },
  { name: 'dataset', path: '/dataset', ready: (p) => expect.poll(() => p.getByTestId('dataset-origin').textContent(), { timeout: BOOT }).toBe('Server (/data/)') },
  { name: 'data-coverage', path: '/data-coverage', ready: (p) => p.getByRole('table', { name: 'Coverage per insurer and snapshot' }).waitFor({ timeout: BOOT }) },
  { name: 'methodology', path: '/methodology', ready: (p) => p.getByRole('heading', { name: 'CMS reference files and their notices' }).waitFor({ timeout: 30_000 }) },
  { name: 'not-found', path: '/no-such-screen', ready: (p) => p.getByText('There is no screen at this address.').waitFor() },
];

const readyOf = (name: string): Screen['ready'] => {
  const screen = SCREENS.find((s) => s.name === name);
  if (!screen) throw new Error(`no screen ${name}`);
  return screen.ready;
};

/** States opened on top of a screen: a dialog, a menu, a list. `phoneOnly`: the state exists at 390 px only. */
interface State extends Screen {
  open(page: Page): Promise<unknown>;
  phoneOnly?: boolean;
}

const STATES: State[] = [
  { name: 'user-menu', path: '/settings', ready: readyOf('settings'), open: async (p) => {
    await p.getByRole('banner').locator('button[aria-haspopup="menu"]').click();
    await p.getByRole('menuitem', { name: 'Sign out' }).waitFor();
  } },
  { name: 'nav-menu', path: '/alerts', phoneOnly: true, ready: readyOf('alerts'), open: async (p) => {
    await p.getByRole('button', { name: 'Open menu' }).click();
    await p.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Alerts' }).waitFor({ state: 'visible' });
    await p.getByRole('button', { name: 'Close menu' }).waitFor();
  } },
  { name: 'dashboard-state-modal', path: '/', ready: readyOf('dashboard'), open: async (p) => {
    await p.locator('path[data-state="CA"]').click();
    await p.getByRole('dialog', { name: 'California (West) - Service Price Comparison' }).getByRole('table').waitFor();
  } },
  { name: 'comparison-autocomplete', path: '/comparison', ready: readyOf('comparison'), open: async (p) => {
    await p.getByRole('combobox', { name: 'Search services and providers' }).fill('card');
    await expect.poll(() => p.getByRole('listbox').getByRole('option').count()).toBe(10);
  } },
  { name: 'live-dashboard-state-modal', path: '/live-dashboard?state=CA', ready: readyOf('live-dashboard'), open: async (p) => {
    await p.getByRole('dialog', { name: /^California \(West\)/ }).getByRole('table').waitFor({ timeout: 60_000 });
  } },
  { name: 'live-comparison-rate-rows', path: '/live-comparison', ready: readyOf('live-comparison'), open: async (p) => {
    await p.getByRole('row').filter({ hasText: '99213' }).getByRole('button', { name: /price of 99213/ }).first().click();
    const dialog = p.getByRole('dialog', { name: /Rate rows behind the prices/ });
    await dialog.getByRole('table', { name: /^Rate rows of / }).first().waitFor({ timeout: 60_000 });
  } },
  { name: 'live-search-results', path: '/live-search?service=99213&provider=1234567893&insurer=alpha&run=1',
    ready: (p) => p.getByRole('button', { name: /^Clear service / }).waitFor({ timeout: BOOT }),
    open: (p) => p.getByRole('table', { name: 'Price details' }).waitFor({ timeout: 60_000 }) },
];

/**
 * The route and width the page shows with its screen ready and nothing opened on it, as the last
 * screen test left it (`<width> <path>`), else null: a state of that route opens on top of it
 * instead of loading the route again (each load boots the data worker); run alone, it loads it.
 */
let shown: string | null = null;

/** The width (VIEWPORTS name) at which the page has booted the data worker and not been loaded again since, else null. */
let booted: string | null = null;

/**
 * Opens `path` at width `vp`, signed in: inside the app when the page has booted the data worker at
 * this width, else from its URL (the interceptor's opensOnData says whether that load boots the worker).
 */
async function open(page: Page, vp: (typeof VIEWPORTS)[number], path: string): Promise<void> {
  if (booted === vp.name) {
    await navigateInApp(page, path);
    return;
  }
  await page.setViewportSize({ width: vp.width, height: vp.height });
  await signIn(page);
  await openRoute(page, baseUrl, path);
  const url = new URL(path, baseUrl);
  booted = opensOnData(url.pathname, url.search, token) ? vp.name : null;
}

for (const vp of VIEWPORTS) {
  describe(`axe at ${vp.name}`, () => {
    it('/login, signed out', async () => {
      const { page } = browser;
      await page.setViewportSize({ width: vp.width, height: vp.height });
      await page.goto(new URL('login', baseUrl).href);
      await page.evaluate(() => localStorage.removeItem('access_token'));
      await page.reload();
      booted = null;
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      await page.getByText('Development sign-in: no account needed').waitFor({ timeout: 30_000 });
      await expectAccessible(page, `/login at ${vp.name}`);
    });

    const states = STATES.filter((s) => !s.phoneOnly || vp.width < 900);
    const stateTest = (state: State): void => {
      it(`${state.path} with the ${state.name} open`, async () => {
        const { page } = browser;
        if (shown !== `${vp.name} ${state.path}`) {
          await open(page, vp, state.path);
          await state.ready(page);
        }
        shown = null;
        await state.open(page);
        await screenshot(page, `a11y-${state.name}-${vp.name}`);
        await expectAccessible(page, `${state.path} with the ${state.name} open at ${vp.name}`);
      });
    };

    // each screen, then the states opened on it
    for (const screen of SCREENS) {
      it(`${screen.path} (${screen.name})`, async () => {
        const { page } = browser;
        shown = null;
        await open(page, vp, screen.path);
        await screen.ready(page);
        await expectAccessible(page, `${screen.path} at ${vp.name}`);
        shown = `${vp.name} ${screen.path}`;
      });
      for (const state of states.filter((s) => s.path === screen.path)) stateTest(state);
    }
    // the states of a URL that no screen test opens
    for (const state of states.filter((s) => !SCREENS.some((screen) => screen.path === s.path))) stateTest(state);
  });
}

describe('the run itself', () => {
  it('made no request outside its own origin (axe-core comes from node_modules) and threw no uncaught error', () => {
    expect(foreignRequests(browser.requests, origin)).toEqual([]);
    expect(browser.pageErrors).toEqual([]);
  });
});
