/**
 * The named shapes of a generated dataset (`npm run generate -- --shape <name>`, cli.ts), each a
 * complete dataset as the app reads a converted one: every table of contract/files/dataset.ts
 * TABLE_NAMES, `manifest.json` and `first-view.json` (scripts/convert/build/output/first-view.ts), the same
 * bytes from run to run (fixed `created_at`; the sample's conversion is itself reproducible).
 * - `sample`: the embedded sample (scripts/sample) converted by the converter.
 * - `real-file`: REAL_FILE_SHAPE (dataset.ts), with the rows at shared providers (every competitor
 *   rates the reference's providers).
 * - `market-year`: the real-file shape over 12 monthly snapshots (24 M rate rows), each competitor
 *   rating half its rows at the reference's providers, so that `shared_providers=1` compares them.
 * `tiny`: the same at a size of seconds (REAL_FILE_SHAPE_TINY; 3 snapshots for market-year), with
 * `validation.min_providers` 1, since each unit there rests on one provider.
 */
import { mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DatasetManifest } from '../../contract/files/dataset';
import { FIRST_VIEW_FILE } from '../../contract/files/first-view';
import { convertCatalog } from '../convert/index';
import { writeFirstView } from '../convert/build/output/first-view';
import { generateSample } from '../sample/index';
import { GENERATED_CREATED_AT, generateApiDataset, REAL_FILE_SHAPE, REAL_FILE_SHAPE_TINY, type GeneratedShape } from './dataset';

/** The shapes generateShape writes. */
export const GENERATED_SHAPES = ['sample', 'real-file', 'market-year'] as const;
export type GeneratedShapeName = (typeof GENERATED_SHAPES)[number];

/** Options of generateShape. */
export interface GenerateShapeOptions {
  /** The shape at a size of seconds (tests, CI). */
  tiny?: boolean;
}

/** Snapshots of the market-year shape, full and tiny. */
const MARKET_YEAR_SNAPSHOTS = { full: 12, tiny: 3 } as const;

/** The generator's sizes of a generated shape (not `sample`): rate rows and GeneratedShape. */
export function shapeSizes(shape: Exclude<GeneratedShapeName, 'sample'>, tiny: boolean): { rateRows: number; options: GeneratedShape } {
  const base = tiny ? REAL_FILE_SHAPE_TINY : REAL_FILE_SHAPE;
  // at the tiny size a unit rests on one provider: min_providers 1 lets it enter the figures
  const { rateRows, ...sizes } = { ...base, ...(tiny ? { minProviders: 1 } : {}) };
  if (shape === 'real-file') return { rateRows, options: { ...sizes, sharedStats: true } };
  // the real-file shape's rate rows per snapshot, month after month
  const snapshots = tiny ? MARKET_YEAR_SNAPSHOTS.tiny : MARKET_YEAR_SNAPSHOTS.full;
  return { rateRows: (rateRows / 2) * snapshots, options: { ...sizes, snapshots, sharedFraction: 0.5, sharedStats: true } };
}

/** Whether `name` is one of GENERATED_SHAPES. */
export function isGeneratedShape(name: string): name is GeneratedShapeName {
  return (GENERATED_SHAPES as readonly string[]).includes(name);
}

/**
 * Writes the dataset of `shape` into `dir` (absent or empty; generateApiDataset and the converter
 * write into it directly: cli.ts makes it a temporary directory swapped in at the end) and returns
 * its manifest.
 * @throws Error on an unknown shape; when generation, conversion or the first view fails (the
 *   first view: when the data service cannot answer the dashboard on the dataset).
 */
export async function generateShape(shape: GeneratedShapeName, dir: string, options: GenerateShapeOptions = {}): Promise<DatasetManifest> {
  if (!isGeneratedShape(shape)) throw new Error(`generate: unknown shape '${String(shape)}' (one of ${GENERATED_SHAPES.join(', ')})`);
  if (shape === 'sample') return sampleInto(dir);
  const { rateRows, options: sizes } = shapeSizes(shape, options.tiny === true);
  const manifest = await generateApiDataset(dir, rateRows, sizes);
  const derived = await writeFirstView(dir, manifest.created_at);
  manifest.tables.alerts = derived.alerts;
  if (derived.unitPivot) manifest.tables.unit_pivot = derived.unitPivot;
  return manifest;
}

/**
 * The embedded sample, generated and converted (first view included) into `dir`. The converter
 * writes a directory of its own, in a scratch directory beside `dir` (one file system: its files
 * are renamed into `dir`); its `created_at`, the time of the conversion, becomes the fixed
 * GENERATED_CREATED_AT in manifest.json, report.json and first-view.json alike, written as the
 * converter writes them, so that two runs give the same files.
 */
async function sampleInto(dir: string): Promise<DatasetManifest> {
  const abs = path.resolve(dir);
  await mkdir(abs, { recursive: true });
  const scratch = await mkdtemp(path.join(path.dirname(abs), `.${path.basename(abs)}.sample-`));
  try {
    const { catalogPath } = await generateSample(path.join(scratch, 'sample'));
    const converted = path.join(scratch, 'dataset');
    await convertCatalog(catalogPath, converted, { quiet: true });
    const manifest = await setCreatedAt(path.join(converted, 'manifest.json'), (t) => JSON.stringify(t, null, 2)) as DatasetManifest;
    await setCreatedAt(path.join(converted, 'report.json'), (t) => JSON.stringify(t, null, 2));
    await setCreatedAt(path.join(converted, FIRST_VIEW_FILE), (t) => JSON.stringify(t));
    for (const name of await readdir(converted)) await rename(path.join(converted, name), path.join(abs, name));
    return manifest;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** Sets `created_at` of the JSON object in `file` to GENERATED_CREATED_AT, written back by `format`; returns the object. */
async function setCreatedAt(file: string, format: (value: unknown) => string): Promise<unknown> {
  const value = JSON.parse(await readFile(file, 'utf8')) as { created_at: string };
  value.created_at = GENERATED_CREATED_AT;
  await writeFile(file, format(value));
  return value;
}
