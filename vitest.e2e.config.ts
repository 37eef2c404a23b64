// End-to-end tests: Debian's Chromium (playwright-core) against the real server, the real build
// and a dataset made by the real converter from test/fixtures/e2e. One fork, files in sequence;
// test/e2e/setup.ts builds, converts and serves once for the whole run.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.ts'],
    environment: 'node',
    globalSetup: ['test/e2e/setup.ts'],
    pool: 'forks',
    fileParallelism: false,
    maxWorkers: 1,
    // the files share one module graph (importing Playwright, Vite and the app's modules once);
    // screens-charts.e2e.ts gives back the time zone it pins
    isolate: false,
    testTimeout: 240_000,
    hookTimeout: 240_000,
    teardownTimeout: 60_000,
  },
});
