/**
 * The live screens' fixture converted by the real converter, for the end-to-end run's global setup
 * (test/e2e/setup.ts, once for the run) and for live-table.ts serveLiveFixture (its variants).
 * No vitest import: the global setup runs outside the test context.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { convertCatalog } from '../../scripts/convert/index';
import { writeLiveCatalog } from '../fixtures/live/live-mrfs';

/** A variant of the live screens' fixture: `claims` replaces the claims-volume file's text (e.g. claims by provider); `groups` gives insurers a catalog `group` (insurer id -> company). */
export interface LiveVariant {
  claims?: string;
  groups?: Record<string, string>;
}

/**
 * Writes the live screens' fixture (test/fixtures/live/live-mrfs.ts, figures in its README) with
 * `variant` into `root` and converts it with the real converter; returns the dataset directory.
 * Its prices mostly rest on one provider each, so it is converted with `min_providers: 1`
 * (docs/methodology.md, Validation): no unit is thin and the README's figures hold.
 * @throws as convertCatalog
 */
export async function convertLiveFixture(root: string, variant: LiveVariant = {}): Promise<string> {
  const catalog = await writeLiveCatalog(join(root, 'in'));
  if (variant.claims !== undefined) await writeFile(join(root, 'in', 'claims-volume.csv'), variant.claims);
  const written = JSON.parse(await readFile(catalog, 'utf8')) as { insurers: Array<{ id: string }> };
  const insurers = written.insurers.map((i) => (variant.groups?.[i.id] ? { ...i, group: variant.groups[i.id] } : i));
  await writeFile(catalog, JSON.stringify({ ...written, insurers, validation: { min_providers: 1 } }));
  return (await convertCatalog(catalog, join(root, 'dataset'), { quiet: true })).outDir;
}
