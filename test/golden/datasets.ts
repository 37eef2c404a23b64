/**
 * The three datasets of the golden test (golden.test.ts, update.ts), each prepared into a directory
 * by the code that makes it in production or in the benchmarks:
 * - `api-fixture`: test/fixtures/api converted by the converter (three insurers, two snapshots, two
 *   states, a services file), with `validation.min_providers` 1 as the worker tests' `loose`
 *   variant: at the default of 2 nearly every unit of so small a fixture is thin, and the map, the
 *   alerts and most summaries would be empty;
 * - `sample`: the embedded sample, generated and converted (scripts/generate/shapes.ts `sample`;
 *   default validation, so the thin rule is exercised);
 * - `real-file-tiny`: the generated real-file shape at its tiny size (51 states, rows at shared
 *   providers).
 * The two generated ones are made once per test run and copied (test/datasets-once.ts).
 */
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { convertCatalog } from '../../scripts/convert/index';
import { sharedShape } from '../datasets-once';

/** The datasets' names, as their golden files are named (`test/golden/<name>.json`). */
export const GOLDEN_DATASETS = ['api-fixture', 'sample', 'real-file-tiny'] as const;
export type GoldenDataset = (typeof GOLDEN_DATASETS)[number];

const API_FIXTURE = fileURLToPath(new URL('../fixtures/api/', import.meta.url));

/** The golden file of `name`. */
export function goldenFile(name: GoldenDataset): string {
  return fileURLToPath(new URL(`./${name}.json`, import.meta.url));
}

/**
 * Writes dataset `name` into `work`/dataset (`work` an empty scratch directory the caller removes)
 * and returns that directory.
 * @throws when generation or conversion fails.
 */
export async function prepareDataset(name: GoldenDataset, work: string): Promise<string> {
  const dir = path.join(work, 'dataset');
  if (name === 'real-file-tiny') {
    await sharedShape('real-file', dir, { tiny: true });
  } else if (name === 'sample') {
    await sharedShape('sample', dir);
  } else {
    // a copy of the fixture, so that the catalog's relative file names (kept in the manifest's
    // sources and in /api/coverage) are the same as the fixture's
    const input = path.join(work, 'input');
    await mkdir(input, { recursive: true });
    await cp(API_FIXTURE, input, { recursive: true });
    const catalog = path.join(input, 'catalog.json');
    const parsed = JSON.parse(await readFile(catalog, 'utf8')) as Record<string, unknown>;
    await writeFile(catalog, JSON.stringify({ ...parsed, validation: { min_providers: 1 } }, null, 2));
    await convertCatalog(catalog, dir, { quiet: true });
  }
  return dir;
}
