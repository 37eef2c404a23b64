// Unit and integration tests (Node). End-to-end browser tests live in test/e2e and run apart.
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { longestFirst } from './test/longest-first.ts';

/**
 * The files that must run in a module graph and globals of their own: they mock modules (vi.mock),
 * share fake-indexeddb's global IndexedDB, or set process.env for the code they call (the S3
 * client, for one, is made from it once per process).
 * test/architecture/isolated-tests.test.ts keeps this list complete.
 */
export const ISOLATED_TESTS = [
  'test/bad-input/build-guards.test.ts',
  'test/bad-input/group-id-separator.test.ts',
  'test/bad-input/reader-dup-keys.test.ts',
  'test/bad-input/reader-sync.test.ts',
  'test/convert/fast-rates.test.ts',
  'test/convert/s3-store.test.ts',
  'test/convert/store-integrity.test.ts',
  'test/generate/datasets-once.test.ts',
  'test/mrf/open-container-7z.test.ts',
  'test/ui/client.test.ts',
  'test/ui/first-view-requests.test.ts',
  'test/ui/live-url-state.test.ts',
  'test/worker/alerts-page.test.ts',
  'test/worker/alerts.test.ts',
];

export default defineConfig({
  test: {
    environment: 'node',
    // the api fixture's two common variants, converted once for the run (test/unit-setup.ts)
    globalSetup: ['test/unit-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // one fork per core, not vitest's default of one fewer: a file spends part of its time in
    // child processes, DuckDB's threads or waits, which a second file fills on a 2-core machine
    maxWorkers: availableParallelism(),
    // the longest files first (test/longest-first.ts), by their time in a run of `npm test`
    sequence: {
      sequencer: longestFirst(['test/worker/selection-tables.test.ts', 'test/bench/tiny.test.ts', 'test/convert/two-stages.test.ts',
        'test/mrf/reader-fixtures.test.ts', 'test/convert/store-integrity.test.ts', 'test/golden/golden.test.ts',
        'test/convert/distributed.test.ts', 'test/bad-input/records.test.ts', 'test/generate/datasets-once.test.ts']),
    },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: ['test/e2e/**', 'node_modules/**', ...ISOLATED_TESTS],
          // A fork runs file after file in one module graph: every file importing the converter,
          // the worker and their dependencies anew cost a sixth of the run.
          isolate: false,
        },
      },
      { extends: true, test: { name: 'isolated', include: ISOLATED_TESTS } },
    ],
  },
});
