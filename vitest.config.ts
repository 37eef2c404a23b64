// Unit and integration tests (Node). End-to-end browser tests live in test/e2e and run apart.
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/e2e/**', 'node_modules/**'],
    environment: 'node',
    // the api fixture's two common variants, converted once for the run (test/unit-setup.ts)
    globalSetup: ['test/unit-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // one fork per core, not vitest's default of one fewer: a file spends part of its time in
    // child processes, DuckDB's threads or waits, which a second file fills on a 2-core machine
    maxWorkers: availableParallelism(),
  },
});
