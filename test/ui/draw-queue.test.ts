/**
 * src/charts/draw-queue.ts: queued draws run in order, in slices that each end by yielding to the
 * page once they have run their time, and a cancelled draw never runs.
 */
import { describe, expect, it } from 'vitest';
import { drawSoon } from '../../src/charts/draw-queue';

const nextTask = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/** Keeps the thread busy `ms` milliseconds, as a chart's draw does. */
function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) { /* drawing */ }
}

describe('drawSoon', () => {
  it('runs the draws in order, none at once, and not a cancelled one', async () => {
    const drawn: number[] = [];
    const cancels = [1, 2, 3].map((k) => drawSoon(() => drawn.push(k)));
    expect(drawn).toEqual([]);
    cancels[1]!();
    await nextTask();
    await nextTask();
    expect(drawn).toEqual([1, 3]);
  });

  it('yields to the page between slices when the draws take long', async () => {
    const drawn: number[] = [];
    for (let k = 0; k < 20; k++) drawSoon(() => { busy(5); drawn.push(k); });
    // the page gets a task of its own (this one) before every draw has run
    await nextTask();
    expect(drawn.length).toBeGreaterThan(0);
    expect(drawn.length).toBeLessThan(20);
    while (drawn.length < 20) await nextTask();
    expect(drawn).toEqual(Array.from({ length: 20 }, (_, k) => k));
  });
});
