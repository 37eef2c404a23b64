/**
 * One visit of a route for the screens benchmark: a new page of `browser`'s profile opens the URL
 * (navigation from nothing, as a bookmark or a reload does) and the page-side probe
 * (bench/screens-probe.ts) notes its first content and its completion; meanwhile the bytes every
 * response of the page and its worker brought (headers and body as received; a cache hit counts
 * 0) are added up until completion, the main thread's longest task until then is taken from the
 * Long Tasks API, and the data worker's memory is read at completion (bench/screens-worker.ts).
 * After completion the page stays open until no response has come for `quietMs` (its worker goes
 * on loading tables), as a user's would, so a second visit finds what a finished first one leaves.
 */
import type { Request } from 'playwright-core';
import type { Browser } from '../test/e2e/browser';
import { isComplete, probeScript, RESULT_CALL, watchCall, type WatchConfig, type WatchResult } from './screens-probe';
import { probeWorkers, type WorkerMemory } from './screens-worker';

/** What one visit measured. */
export interface Visit {
  /** Navigation start to the first content, ms. */
  firstMs: number;
  /** Navigation start to complete (the start of the complete state), ms. */
  completeMs: number;
  /** Bytes received until complete (page and worker). */
  bytes: number;
  /** The longest main-thread task until complete, ms (0: none over 50 ms). */
  longestTaskMs: number;
  /** The data worker's memory at completion; null when the route started no worker. */
  worker: WorkerMemory | null;
}

/** Limits of a visit, ms. */
export interface VisitLimits {
  /** Until complete (the benchmark's failure to measure past it). */
  timeoutMs: number;
  /** The silence after which the page is closed. */
  quietMs: number;
}

/**
 * Opens `url` in a new page of `browser` and measures it (see the module comment).
 * @throws when the route is not complete within `limits.timeoutMs`, naming what was still loading.
 */
export async function visit(browser: Browser, url: string, watch: WatchConfig, limits: VisitLimits): Promise<Visit> {
  const { context } = browser;
  const page = await context.newPage();
  const finished: Array<{ at: number; request: Request }> = [];
  let lastResponseAt = Date.now();
  const onFinished = (request: Request): void => {
    lastResponseAt = Date.now();
    finished.push({ at: lastResponseAt, request });
  };
  context.on('requestfinished', onFinished);
  try {
    const workers = await probeWorkers(context, page);
    await page.addInitScript(`${probeScript()}\n${watchCall(watch)};`);
    await page.goto(url, { waitUntil: 'commit', timeout: limits.timeoutMs });
    try {
      await page.waitForFunction(isComplete, undefined, { timeout: limits.timeoutMs, polling: 100 });
    } catch (e) {
      const r = await page.evaluate(RESULT_CALL).catch(() => null) as WatchResult | null;
      throw new Error(`${url}: not complete within ${limits.timeoutMs / 1000} s (${r ? `content ${r.content ? 'present' : `missing: ${watch.content.join(' + ')}`}, ` +
        `last loading indicator ${r.loading ?? 'none'}` : 'page gone'}): ${(e as Error).message.split('\n')[0]}`);
    }
    const worker = await workers.measure();
    const r = await page.evaluate(RESULT_CALL) as WatchResult;
    const complete = r.complete ?? 0;
    const completeAt = r.timeOrigin + complete;
    // the 'requestfinished' events of responses before completion have arrived by now (CDP's lag is milliseconds)
    const counted = finished.filter((f) => f.at <= completeAt + 50);
    const sizes = await Promise.all(counted.map((f) => f.request.sizes().then((s) => s.responseBodySize + s.responseHeadersSize, () => 0)));
    const until = Date.now() + limits.timeoutMs;
    while (Date.now() - lastResponseAt < limits.quietMs && Date.now() < until) await new Promise((res) => setTimeout(res, 100));
    return {
      firstMs: r.first ?? complete,
      completeMs: complete,
      bytes: sizes.reduce((a, b) => a + b, 0),
      longestTaskMs: Math.max(0, ...r.longTasks.filter(([start]) => start < complete).map(([, d]) => d)),
      worker,
    };
  } finally {
    context.off('requestfinished', onFinished);
    await page.close();
  }
}
