/**
 * Debian's Chromium driven by playwright-core (common.md launch options), each page in a context of
 * its own (a fresh profile), recording every request URL and every uncaught page error.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser as PlaywrightBrowser, type BrowserContext, type Page } from 'playwright-core';
import { PROJECT_ROOT } from '../../scripts/server/build-app';

export const CHROMIUM = '/usr/bin/chromium';
export const SCREENSHOT_DIR = join(PROJECT_ROOT, 'test-results/screenshots');

export interface Browser {
  context: BrowserContext;
  page: Page;
  /** Every URL requested by the pages and their workers, in order. */
  requests: string[];
  /** Uncaught exceptions of the page. */
  pageErrors: string[];
  /** console.error messages. */
  consoleErrors: string[];
  close(): Promise<void>;
}

/**
 * The environment variable under which launchBrowser runs the pages' WebAssembly and JavaScript on
 * V8's baseline compilers only (`--js-flags=--liftoff-only`, no TurboFan tier-up), set to `1` by
 * vitest.e2e.config.ts for its functional project. Every page load of the app compiles DuckDB-WASM
 * anew in its data worker (a worker gets no code cache), and the tier-up of the functions it runs
 * hot costs about a fifth of the browser's CPU over a run of the functional files; the code runs
 * the same either way, only slower. The timed files and the benchmarks at full size run V8 as a user's
 * browser does; a benchmark's tiny run (bench/tiny.ts), whose figures mean nothing, does not.
 */
export const LIFTOFF_ONLY_ENV = 'COMPETE_E2E_LIFTOFF_ONLY';

/** launchBrowser's options. */
export interface LaunchOptions {
  /** Baseline compilers only (LIFTOFF_ONLY_ENV); default: whether that variable is `1`. */
  liftoffOnly?: boolean;
}

/** Chromium's command line, but V8's flags. */
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--no-first-run'];

/** The process's Chromium of one V8 mode, and its contexts opened or being opened. */
interface Shared {
  browser: Promise<PlaywrightBrowser>;
  /**
   * Counted from the moment a launchBrowser asks for a context: the idle close reads this, not
   * `contexts()`, which lacks a context whose `newContext` is still on its way.
   */
  users: number;
}

/**
 * One Chromium per process and V8 mode, which every launchBrowser of the process opens a context
 * in: a launch costs about 2 CPU s more than a context, and the end-to-end run and the browser
 * benchmarks open dozens. A context is a fresh profile for its pages: cookies, storage, the HTTP
 * cache and the code cache kept in it are its own.
 */
const launched = new Map<boolean, Shared>();

/** How long the process's Chromium stays without a context before it is closed, ms (the next file of a fork opens one at once). */
let idleCloseMs = 10_000;

/** Sets how long an idle Chromium stays open, ms (browser-reuse.e2e.ts shortens it); returns the previous value. */
export function setIdleCloseMs(ms: number): number {
  const previous = idleCloseMs;
  idleCloseMs = ms;
  return previous;
}

function sharedChromium(liftoffOnly: boolean): Shared {
  const open = launched.get(liftoffOnly);
  if (open) return open;
  const shared: Shared = {
    browser: chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [...CHROMIUM_ARGS, ...(liftoffOnly ? ['--js-flags=--liftoff-only'] : [])],
    }),
    users: 0,
  };
  launched.set(liftoffOnly, shared);
  const forget = () => {
    if (launched.get(liftoffOnly) === shared) launched.delete(liftoffOnly);
  };
  shared.browser.then((b) => b.on('disconnected', forget), forget);
  return shared;
}

/** Ends one user of `shared`; once it has had none for idleCloseMs, closes it (the timer never holds the process open). */
function release(liftoffOnly: boolean, shared: Shared): void {
  shared.users--;
  setTimeout(() => {
    if (shared.users > 0 || launched.get(liftoffOnly) !== shared) return;
    // the next launchBrowser starts another
    launched.delete(liftoffOnly);
    void shared.browser.then((b) => b.close()).catch(() => {});
  }, idleCloseMs).unref();
}

/** Closes the process's Chromium processes now (a script's end: an open one keeps Node running). */
export async function closeBrowsers(): Promise<void> {
  const open = [...launched.values()];
  launched.clear();
  await Promise.all(open.map(async (s) => (await s.browser.catch(() => null))?.close()));
}

/**
 * Opens a page at 1280x800 in a new context of the process's headless Chromium (sharedChromium);
 * `close()` ends the context.
 */
export async function launchBrowser(options: LaunchOptions = {}): Promise<Browser> {
  const liftoffOnly = options.liftoffOnly ?? process.env[LIFTOFF_ONLY_ENV] === '1';
  const shared = sharedChromium(liftoffOnly);
  shared.users++;
  let context: BrowserContext;
  try {
    context = await (await shared.browser).newContext({ viewport: { width: 1280, height: 800 } });
  } catch (e) {
    release(liftoffOnly, shared);
    throw e;
  }
  let open = true;
  const requests: string[] = [];
  const pageErrors: string[] = [];
  const consoleErrors: string[] = [];
  context.on('request', (r) => requests.push(r.url()));
  const page = await context.newPage();
  page.on('pageerror', (e) => pageErrors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  page.on('worker', (w) => w.on('console', (m) => m.type() === 'error' && consoleErrors.push(`worker: ${m.text()}`)));
  return {
    context, page, requests, pageErrors, consoleErrors,
    close: async () => {
      await context.close();
      if (open) release(liftoffOnly, shared);
      open = false;
    },
  };
}

/** URLs in `urls` that are neither on `origin` nor data: (blob: URLs count by their inner origin). */
export function foreignRequests(urls: string[], origin: string): string[] {
  return urls.filter((u) => !u.startsWith('data:') && new URL(u).origin !== origin);
}

/**
 * The environment variable that turns the end-to-end run's screenshots on (`1`) or off (`0`).
 * Default: on, except under CI=true: the screenshots are for a person to look at, a CI run keeps
 * none of its files, and the run's hundred full-page captures cost about a minute of CPU there.
 */
export const SCREENSHOTS_ENV = 'COMPETE_E2E_SCREENSHOTS';

/** Whether screenshot() writes its file (SCREENSHOTS_ENV). */
export const SCREENSHOTS = process.env[SCREENSHOTS_ENV] === undefined ? process.env.CI !== 'true' : process.env[SCREENSHOTS_ENV] === '1';

/**
 * Saves a full-page screenshot as test-results/screenshots/<name>.png and returns the path; when
 * screenshots are off (SCREENSHOTS), captures nothing and returns null.
 */
export async function screenshot(page: Page, name: string): Promise<string | null> {
  if (!SCREENSHOTS) return null;
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/**
 * Signs `context` in through the development sign-in of the server at `baseUrl`: the session
 * cookie lands in the context's cookie store (the page may then read /data/), and the returned
 * app token is what /auth/callback would store in localStorage. Throws when no token comes back.
 */
export async function signInDevelopment(context: BrowserContext, baseUrl: string): Promise<string> {
  const res = await context.request.get(new URL('api/auth/login', baseUrl).href, { maxRedirects: 0 });
  const token = new URL(res.headers().location ?? '/', baseUrl).searchParams.get('token');
  if (!token) throw new Error(`development sign-in gave no token (status ${res.status()})`);
  return token;
}
