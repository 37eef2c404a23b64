/**
 * Debian's Chromium driven by playwright-core (common.md launch options) in a fresh temporary
 * profile, recording every request URL and every uncaught page error.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
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

/** Launches Chromium headless at 1280x800; `close()` ends the browser and deletes its profile. */
export async function launchBrowser(options: LaunchOptions = {}): Promise<Browser> {
  const liftoffOnly = options.liftoffOnly ?? process.env[LIFTOFF_ONLY_ENV] === '1';
  const profile = await mkdtemp(join(tmpdir(), 'compete-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 800 },
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--no-first-run', ...(liftoffOnly ? ['--js-flags=--liftoff-only'] : [])],
  });
  const requests: string[] = [];
  const pageErrors: string[] = [];
  const consoleErrors: string[] = [];
  context.on('request', (r) => requests.push(r.url()));
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (e) => pageErrors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  page.on('worker', (w) => w.on('console', (m) => m.type() === 'error' && consoleErrors.push(`worker: ${m.text()}`)));
  return {
    context, page, requests, pageErrors, consoleErrors,
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** URLs in `urls` that are neither on `origin` nor data: (blob: URLs count by their inner origin). */
export function foreignRequests(urls: string[], origin: string): string[] {
  return urls.filter((u) => !u.startsWith('data:') && new URL(u).origin !== origin);
}

/** Saves a full-page screenshot as test-results/screenshots/<name>.png; returns the path. */
export async function screenshot(page: Page, name: string): Promise<string> {
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
