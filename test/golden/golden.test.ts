/**
 * No number moves: each golden dataset (datasets.ts), made afresh by the current code, has every
 * table, its manifest, report and first view, and the data worker's answer to every request of
 * requests.ts equal to its recorded golden file (test/golden/<dataset>.json). A failure lists each
 * table or request that differs. A deliberate change of a rule or a table updates the files with
 * `npx tsx test/golden/update.ts` (README.md).
 *
 * The three datasets are made and recorded at the same time (`it.concurrent`): the converter and
 * DuckDB wait on files and threads often enough that the three together take less time than one
 * after the other on CI's two cores.
 */
import { describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { GOLDEN_DATASETS, goldenFile, prepareDataset } from './datasets';
import { goldenDifferences, goldenOf, type GoldenRecord } from './record';

describe('golden datasets', () => {
  for (const name of GOLDEN_DATASETS) {
    it.concurrent(`${name}: every table and /api answer is the recorded one`, async () => {
      const recorded = JSON.parse(await readFile(goldenFile(name), 'utf8')) as GoldenRecord;
      const work = await mkdtemp(path.join(os.tmpdir(), `compete-golden-${name}-`));
      try {
        const actual = await goldenOf(await prepareDataset(name, work));
        const differences = goldenDifferences(recorded, actual);
        expect(
          differences,
          `${name}: ${differences.length} tables or answers differ from ${path.relative(process.cwd(), goldenFile(name))}; ` +
            `if the change is deliberate, run npx tsx test/golden/update.ts ${name} and name the change in the commit:\n${differences.join('\n')}\n`,
        ).toEqual([]);
      } finally {
        await rm(work, { recursive: true, force: true });
      }
    }, 600_000);
  }
});
