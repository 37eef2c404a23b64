// test/e2e/browser.ts's one Chromium per process: a context opened while the idle close of the
// process's Chromium comes due still opens (the close counts contexts on their way, not only those
// Chromium lists), and an idle Chromium is closed and replaced by the next launchBrowser.
import { afterAll, describe, expect, it } from 'vitest';
import { launchBrowser, setIdleCloseMs } from './browser';

const previous = setIdleCloseMs(0);
afterAll(() => void setIdleCloseMs(previous));

describe('one Chromium per process', () => {
  it('opens a context whose newContext is on its way when the idle close comes due', async () => {
    for (let i = 0; i < 5; i++) {
      const first = await launchBrowser();
      const chromium = first.context.browser();
      await first.close();
      // the idle close is due at once (0 ms): this context is asked for before the timer runs
      const second = await launchBrowser();
      try {
        expect(second.context.browser()).toBe(chromium);
        expect(chromium?.isConnected()).toBe(true);
        expect(await second.page.evaluate(() => 6 * 7)).toBe(42);
      } finally {
        await second.close();
      }
    }
  });

  it('closes an idle Chromium, and the next launchBrowser starts another', async () => {
    const first = await launchBrowser();
    const chromium = first.context.browser()!;
    await first.close();
    await expect.poll(() => chromium.isConnected(), { timeout: 10_000 }).toBe(false);
    const next = await launchBrowser();
    try {
      expect(next.context.browser()).not.toBe(chromium);
      expect(await next.page.evaluate(() => 6 * 7)).toBe(42);
    } finally {
      await next.close();
    }
  });
});
