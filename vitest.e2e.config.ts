// End-to-end tests: Debian's Chromium (playwright-core) against the real server, the real build
// and a dataset made by the real converter from test/fixtures/e2e; test/e2e/setup.ts builds,
// converts and serves once for the whole run (both projects below share it).
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { longestFirst } from './test/longest-first.ts';

/**
 * The files that time the page itself (its long tasks): they run after every other file, alone on
 * the machine, since a browser sharing the cores makes the page's tasks longer.
 */
export const TIMED_E2E = ['test/e2e/real-shape.e2e.ts'];

export default defineConfig({
  test: {
    environment: 'node',
    globalSetup: ['test/e2e/setup.ts'],
    pool: 'forks',
    // the files of a fork share one module graph (importing Playwright, Vite and the app's modules
    // once); screens-charts.e2e.ts gives back the time zone it pins
    isolate: false,
    testTimeout: 240_000,
    hookTimeout: 240_000,
    teardownTimeout: 60_000,
    // the longest files first (test/longest-first.ts), by their time in a run of two browsers
    sequence: {
      sequencer: longestFirst(['accessibility.e2e.ts', 'live-screens.e2e.ts', 'billed.e2e.ts', 'live-comparison.e2e.ts',
        'screens-shell.e2e.ts', 'shared-providers.e2e.ts', 'confidence.e2e.ts', 'sample.e2e.ts', 'live-dashboard.e2e.ts']),
    },
    projects: [
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.e2e.ts'],
          exclude: ['node_modules/**', ...TIMED_E2E],
          // one browser per core: a test spends much of its time waiting for its page, which a
          // second browser fills
          maxWorkers: availableParallelism(),
          sequence: { groupOrder: 0 },
          // V8's baseline compilers only: these files check what the pages do, not how fast (test/e2e/browser.ts LIFTOFF_ONLY_ENV)
          env: { COMPETE_E2E_LIFTOFF_ONLY: '1' },
        },
      },
      {
        extends: true,
        test: { name: 'e2e-timed', include: TIMED_E2E, maxWorkers: 1, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
