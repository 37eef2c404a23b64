// DuckDB's wasm in Debian's Chromium (docs/architecture.md, Cold start): the page fetches and
// compiles it with `WebAssembly.compileStreaming` as the app starts (src/api/duckdb-wasm.ts) and the
// data worker instantiates that module, so the 34 MB file is fetched once, by the page; a page that
// cannot compile it (no compileStreaming) leaves the worker to fetch and compile it itself.
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { launchBrowser, signInDevelopment, type Browser } from './browser';

const BOOT_TIMEOUT = 150_000;
const baseUrl = inject('baseUrl');
let browser: Browser | undefined;

afterEach(async () => {
  await browser?.close();
  browser = undefined;
});

const DUCKDB_WASM = /\/duckdb-(?:eh|mvp)-[^/]*\.wasm$/;

/** Who requested a DuckDB wasm file: `page` (a frame of the page) or `worker`, with its path. */
interface WasmRequest {
  by: 'page' | 'worker';
  path: string;
}

/**
 * A fresh browser, signed in by an init script (so the route below is the profile's only
 * document), noting every request for DuckDB's wasm and whether a frame or a worker made it
 * (Playwright gives a worker's request no frame). `pageInit` runs in the page before its scripts.
 */
async function signedInBrowser(pageInit?: () => void): Promise<{ b: Browser; wasm: WasmRequest[] }> {
  const b = await launchBrowser();
  const token = await signInDevelopment(b.context, baseUrl);
  await b.context.addInitScript(`localStorage.setItem('access_token', ${JSON.stringify(token)});`);
  if (pageInit) await b.context.addInitScript(pageInit);
  const wasm: WasmRequest[] = [];
  b.context.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (!DUCKDB_WASM.test(path)) return;
    let by: WasmRequest['by'] = 'page';
    try {
      r.frame();
    } catch {
      by = 'worker';
    }
    wasm.push({ by, path });
  });
  return { b, wasm };
}

/** Opens the Snapshot screen and asks the worker a question only DuckDB answers. */
async function bootWorker(page: Page): Promise<void> {
  await page.goto(new URL('dataset', baseUrl).href);
  const answer = await page.evaluate(async () => {
    const res = await fetch('/api/services-search?limit=1');
    return { status: res.status, body: await res.json() as { items: unknown[] } };
  });
  expect(answer.status).toBe(200);
  expect(answer.body.items).toHaveLength(1);
}

describe("DuckDB's wasm", () => {
  it('is fetched once, by the page, and the worker boots on the module the page compiled', async () => {
    const { b, wasm } = await signedInBrowser();
    browser = b;
    await bootWorker(b.page);
    // Chromium runs wasm exceptions: the EH build
    expect(wasm).toEqual([{ by: 'page', path: expect.stringMatching(/duckdb-eh-/) as unknown as string }]);
  }, BOOT_TIMEOUT);

  it('is fetched by the worker when the page cannot compile it, and the worker still boots', async () => {
    const { b, wasm } = await signedInBrowser(() => {
      Object.defineProperty(WebAssembly, 'compileStreaming', { value: undefined });
    });
    browser = b;
    await bootWorker(b.page);
    // the worker's own fetch is not always reported to Playwright (a worker attached late): what
    // counts is that the page fetched nothing and the worker answered
    expect(wasm.filter((r) => r.by === 'page')).toEqual([]);
  }, BOOT_TIMEOUT);
});
