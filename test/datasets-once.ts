/**
 * Generated shapes shared by one test run: `npm test` (scripts/test-all.sh) sets
 * COMPETE_TEST_DATASETS to a scratch directory, and the first test or tiny benchmark that asks for
 * a shape generates it there with the code under test (scripts/generate/shapes.ts generateShape);
 * every later one, in any process of the run, copies it. Without the variable (a test file run
 * alone, a benchmark at full size), each call generates, as generateShape does.
 */
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { DatasetManifest } from '../contract/files/dataset';
import { generateShape, type GenerateShapeOptions, type GeneratedShapeName } from '../scripts/generate/shapes';

/** The environment variable naming the run's directory of generated shapes. */
export const SHARED_SHAPES_ENV = 'COMPETE_TEST_DATASETS';

/**
 * Writes shape `shape` (with `options`) into `dir`, which must not exist or be empty, and returns
 * its manifest: a copy of the run's generated one when COMPETE_TEST_DATASETS is set (generated on
 * first use; two processes asking at once may both generate, and the first to finish is kept),
 * else generated into `dir`. The copy is the caller's to change.
 * @throws as generateShape; Error when the shared directory cannot be written.
 */
export async function sharedShape(shape: GeneratedShapeName, dir: string, options: GenerateShapeOptions = {}): Promise<DatasetManifest> {
  const cache = process.env[SHARED_SHAPES_ENV];
  if (!cache) return generateShape(shape, dir, options);
  const kept = path.join(cache, `${shape}${options.tiny ? '-tiny' : ''}`);
  if (!existsSync(path.join(kept, 'manifest.json'))) {
    const work = await mkdtemp(`${kept}.work-`);
    try {
      await generateShape(shape, path.join(work, 'dataset'), options);
      // another process's copy that landed first is as good: this one is dropped
      await rename(path.join(work, 'dataset'), kept).catch((e: unknown) => {
        if (!existsSync(path.join(kept, 'manifest.json'))) throw e;
      });
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }
  await cp(kept, dir, { recursive: true });
  return JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8')) as DatasetManifest;
}
