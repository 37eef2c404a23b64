/**
 * The embedded sample dataset the benchmarks open: `data/dataset` when `npm start` has built it,
 * otherwise the `sample` shape (scripts/generate/shapes.ts: generated and converted, about 15 s),
 * a copy of the test run's in a test run (test/datasets-once.ts).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { sharedShape } from '../test/datasets-once';

/** The sample dataset's folder. @throws when the sample cannot be generated or converted. */
export async function sampleDataset(tmp: string): Promise<string> {
  const built = path.resolve(import.meta.dirname, '../data/dataset');
  if (existsSync(path.join(built, 'manifest.json'))) return built;
  const dir = path.join(tmp, 'sample-dataset');
  await sharedShape('sample', dir);
  return dir;
}
