/**
 * Benchmark (run by `npm run bench`): the live dashboard's cold start as a user meets it, in Debian's
 * Chromium (headless, playwright-core) with the dataset served by the project's own server
 * (scripts/server): the time from navigation to the first KPI figure on screen (the first
 * `.summary-card__value` of /live-dashboard, noted by a MutationObserver in the page), the bytes the
 * page and its data worker received until then, and the main thread's long tasks (Long Tasks API:
 * the longest, and the time over 50 ms in all). Each dataset is opened twice: a first visit in a
 * fresh profile (nothing cached) and a second visit of the same dataset in the same profile (HTTP
 * cache with validators; V8's code cache of the compiled WASM). The server has answered one request
 * before the first visit.
 * Datasets: the embedded sample and the real-file shape (bench/api-generate.ts REAL_FILE_SHAPE).
 * Targets (docs/benchmarks.md): first figure < 1.5 s on the sample, < 2.5 s at the real-file shape, on a
 * 2-core machine. Tiny mode (bench/tiny.ts): the tiny real-file shape only.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { writeFirstView } from '../scripts/convert/build/output/first-view';
import { buildApp } from '../scripts/server/build-app';
import { startServer } from '../scripts/server/index';
import { closeBrowsers, launchBrowser, signInDevelopment } from '../test/e2e/browser';
import { routeUrl } from '../test/e2e/screens-helpers';
import { generateApiDataset, REAL_FILE_SHAPE, REAL_FILE_SHAPE_TINY, type GeneratedShape } from './api-generate';
import { sampleDataset } from './sample-dataset';
import { sized, TINY } from './tiny';

/** What one visit measured. */
interface Visit {
  /** Navigation start to the first KPI figure, ms. */
  firstFigureMs: number;
  /** Response bytes (headers and body, as received: a cache hit counts 0) until the first figure. */
  bytes: number;
  requests: number;
  /** The longest task of the main thread until the first figure, ms (0: none over 50 ms). */
  longestTaskMs: number;
  /** The time over 50 ms of every long task until the first figure, ms. */
  blockingMs: number;
}

/** Notes the first KPI figure's time and the long tasks, from the page's first script on. */
const PAGE_PROBE = `(() => {
  const w = window;
  w.__longTasks = [];
  try {
    new PerformanceObserver((list) => { for (const e of list.getEntries()) w.__longTasks.push(e.duration); })
      .observe({ type: 'longtask', buffered: true });
  } catch {}
  const seen = () => {
    if (w.__firstFigure === undefined && document.querySelector('.summary-card__value')) w.__firstFigure = performance.now();
  };
  new MutationObserver(seen).observe(document, { childList: true, subtree: true });
})();`;

async function visit(browser: Awaited<ReturnType<typeof launchBrowser>>, url: string): Promise<Visit> {
  const page = await browser.context.newPage();
  let bytes = 0;
  let requests = 0;
  let counting = true;
  const onFinished = (request: import('playwright-core').Request): void => {
    if (!counting) return;
    requests++;
    void request.sizes().then((s) => { bytes += s.responseBodySize + s.responseHeadersSize; }, () => undefined);
  };
  let lastResponseAt = performance.now();
  const onAnyResponse = (): void => { lastResponseAt = performance.now(); };
  browser.context.on('requestfinished', onFinished);
  browser.context.on('requestfinished', onAnyResponse);
  await page.addInitScript(PAGE_PROBE);
  await page.goto(url, { waitUntil: 'commit' });
  await page.waitForFunction(() => (window as unknown as { __firstFigure?: number }).__firstFigure !== undefined, undefined, { timeout: 120_000, polling: 50 });
  counting = false;
  const probe = await page.evaluate(() => {
    const w = window as unknown as { __firstFigure: number; __longTasks: number[] };
    return { first: w.__firstFigure, tasks: w.__longTasks.filter((d) => d > 0) };
  });
  browser.context.off('requestfinished', onFinished);
  // The page stays open until its worker has read the dataset (no response for 1.5 s), as a user's
  // would: a second visit then finds in the cache what a finished first visit leaves there.
  const until = performance.now() + 120_000;
  while (performance.now() - lastResponseAt < 1500 && performance.now() < until) await new Promise((r) => setTimeout(r, 250));
  browser.context.off('requestfinished', onAnyResponse);
  await page.close();
  return {
    firstFigureMs: probe.first,
    bytes,
    requests,
    longestTaskMs: Math.max(0, ...probe.tasks),
    blockingMs: probe.tasks.reduce((a, d) => a + Math.max(0, d - 50), 0),
  };
}

async function benchDataset(label: string, distDir: string, dataDir: string): Promise<void> {
  const server = await startServer({ distDir, dataDir, port: 0, log: () => {} });
  // One request before the visits: the server's own first-request start (its code compiled, its
  // files opened) belongs to the server's start, which a user's page does not meet.
  await (await fetch(server.url)).text();
  const browser = await launchBrowser({ liftoffOnly: TINY });
  try {
    // signed in without loading a page (which would fetch the app and the dataset before the first visit)
    const token = await signInDevelopment(browser.context, server.url);
    await browser.context.addInitScript(`localStorage.setItem('access_token', ${JSON.stringify(token)});`);
    const url = routeUrl(server.url, '/live-dashboard');
    console.log(`\n${label}`);
    for (const name of ['first visit (nothing cached)', 'second visit (same profile)']) {
      const v = await visit(browser, url);
      console.log(`  ${name.padEnd(30)} first figure at ${v.firstFigureMs.toFixed(0).padStart(5)} ms, ${v.bytes.toLocaleString('en-US').padStart(11)} bytes ` +
        `in ${v.requests} responses, longest task ${v.longestTaskMs.toFixed(0)} ms, blocking ${v.blockingMs.toFixed(0)} ms`);
    }
  } finally {
    await browser.close();
    await server.close();
  }
}

const tmp = await mkdtemp(path.join(os.tmpdir(), 'compete-cold-start-'));
try {
  const t = performance.now();
  const { outDir: distDir } = await buildApp(path.join(tmp, 'dist'), { reusePrebuilt: TINY });
  console.log(`(app built in ${((performance.now() - t) / 1000).toFixed(0)} s; targets: first figure < 1500 ms on the sample, < 2500 ms at the real-file shape)`);
  if (TINY) console.log('tiny mode: the sample dataset is left out');
  else {
    const sampleDir = await sampleDataset(tmp);
    await benchDataset('sample dataset', distDir, sampleDir);
  }
  const shape = sized<GeneratedShape & { rateRows: number; services: number; providers: number }>(REAL_FILE_SHAPE, REAL_FILE_SHAPE_TINY);
  const real = path.join(tmp, 'real-shape');
  const manifest = await generateApiDataset(real, shape.rateRows, shape);
  // what the converter adds to every conversion: the first view (scripts/convert/build/output/first-view.ts)
  const tf = performance.now();
  const firstViewBytes = (await writeFirstView(real, manifest.created_at)).bytes;
  console.log(`first view written in ${((performance.now() - tf) / 1000).toFixed(1)} s (${firstViewBytes.toLocaleString('en-US')} bytes; the converter's cost, DuckDB-WASM's boot included)`);
  await benchDataset(`real-file shape: ${shape.rateRows.toLocaleString('en-US')} rate rows, ${shape.services.toLocaleString('en-US')} services, ` +
    `${shape.providers.toLocaleString('en-US')} providers, 51 states`, distDir, real);
} finally {
  await closeBrowsers();
  await rm(tmp, { recursive: true, force: true });
}
