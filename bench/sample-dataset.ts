/**
 * The embedded sample dataset the benchmarks open: `data/dataset` when `npm start` has built it,
 * a copy of the test run's in a test run (test/shared-shapes.ts), otherwise the sample generated
 * and converted into `tmp` (about half a minute).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { convertCatalog } from '../scripts/convert/index';
import { generateSample } from '../scripts/sample/index';
import { SHARED_SHAPES_ENV, sharedShape } from '../test/shared-shapes';

/** The sample dataset's folder. @throws when the sample cannot be generated or converted. */
export async function sampleDataset(tmp: string): Promise<string> {
  const built = path.resolve(import.meta.dirname, '../data/dataset');
  if (existsSync(path.join(built, 'manifest.json'))) return built;
  if (process.env[SHARED_SHAPES_ENV]) {
    const dir = path.join(tmp, 'sample-dataset');
    await sharedShape('sample', dir);
    return dir;
  }
  const { catalogPath } = await generateSample(path.join(tmp, 'sample'));
  const dir = path.join(tmp, 'sample-dataset');
  await convertCatalog(catalogPath, dir, { quiet: true });
  return dir;
}
