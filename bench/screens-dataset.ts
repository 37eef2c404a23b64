/**
 * The datasets of the screens benchmark, behind one function (prepareDataset): the embedded sample
 * (bench/sample-dataset.ts: `data/dataset` when `npm start` built it) and the generated shapes of
 * `npm run generate` (scripts/generate/shapes.ts generateShape: `real-file`, `market-year`; tiny
 * sizes in tiny mode, shared with the rest of the test run: test/datasets-once.ts), each with the
 * first view the converter adds.
 */
import type { DatasetManifest } from '../contract/files/dataset';
import { sharedShape } from '../test/datasets-once';
import { sampleDataset } from './sample-dataset';

/** The shapes `--shape` takes. */
export const SHAPES = ['sample', 'real-file', 'market-year'] as const;
export type ShapeName = (typeof SHAPES)[number];

/** A dataset ready to serve: its folder and the line that names it in the report. */
export interface PreparedDataset {
  dir: string;
  label: string;
}

const count = (n: number) => n.toLocaleString('en-US');

/** The report's line of a generated dataset. */
function describe(shape: ShapeName, m: DatasetManifest, took: string): string {
  return `${shape} shape: ${count(m.tables.rates.rows)} rate rows, ${count(m.counts.services)} services, ${count(m.counts.providers)} providers, ` +
    `${m.snapshots.length} snapshots (generated, first view included, in ${took})`;
}

/**
 * Writes (or finds, for the sample) the dataset of `shape` under `dir` (absent or empty), first
 * view included, at the tiny size when `tiny`. @throws when generation, conversion or the first
 * view fails.
 */
export async function prepareDataset(shape: ShapeName, dir: string, tiny: boolean): Promise<PreparedDataset> {
  const t = performance.now();
  const took = () => `${((performance.now() - t) / 1000).toFixed(0)} s`;
  if (shape === 'sample') {
    const sampleDir = await sampleDataset(dir);
    return { dir: sampleDir, label: `sample dataset (ready in ${took()})` };
  }
  const manifest = await sharedShape(shape, dir, { tiny });
  return { dir, label: describe(shape, manifest, took()) };
}
