/**
 * The api fixture (test/fixtures/api) converted by the real converter, without vitest: for the
 * worker tests' helpers (fixture-dataset.ts) and the unit run's global setup (test/unit-setup.ts),
 * which converts the two variants most files boot once per run.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Catalog } from '../../contract/files/catalog';
import type { ValidationSettings } from '../../contract/files/dataset';
import { convertCatalog } from '../../scripts/convert/index';

export const FIXTURE_CATALOG = fileURLToPath(new URL('../fixtures/api/catalog.json', import.meta.url));

/** The variants the global setup converts once per run, by name: the default settings, and `validation.min_providers: 1`. */
export const SHARED_VARIANTS = { strict: {}, loose: { validation: { min_providers: 1 } } } as const satisfies Record<string, FixtureOptions>;
export type SharedVariant = keyof typeof SHARED_VARIANTS;

/** The shared variant `options` ask for, or null when they ask for another (a claims file, other settings). */
export function sharedVariant(options: FixtureOptions): SharedVariant | null {
  const text = JSON.stringify(options);
  for (const [name, v] of Object.entries(SHARED_VARIANTS)) if (JSON.stringify(v) === text) return name as SharedVariant;
  return null;
}

/** Variants of the fixture catalog. */
export interface FixtureOptions {
  /** The catalog's `validation` settings (docs/methodology.md, Validation), e.g. `{ min_providers: 1 }`. */
  validation?: Partial<ValidationSettings>;
  /** The text of a claims-volume CSV replacing the fixture's (docs/converter.md, The catalog), e.g. with `npi` and `tin` columns. */
  claims?: string;
}

/**
 * Converts the fixture catalog (with `options` written into a copy of it, its paths made
 * absolute) into a fresh temporary directory; returns the dataset dir.
 * @throws as convertCatalog.
 */
export async function convertFixtureFresh(options: FixtureOptions = {}): Promise<{ root: string; dir: string }> {
  const root = await mkdtemp(join(tmpdir(), 'compete-api-'));
  const dir = join(root, 'dataset');
  let catalog = FIXTURE_CATALOG;
  if (options.validation || options.claims !== undefined) {
    const base = dirname(FIXTURE_CATALOG);
    const c = JSON.parse(await readFile(FIXTURE_CATALOG, 'utf8')) as Catalog;
    const abs = (p: string | undefined): string | undefined => (p === undefined ? undefined : resolve(base, p));
    const variant: Catalog = {
      ...c,
      insurers: c.insurers.map((i) => ({ ...i, files: i.files.map((f) => ({ ...f, url: abs(f.url) })) })),
      npi_registry: abs(c.npi_registry),
      claims_volume: abs(c.claims_volume),
      services: abs(c.services),
      ...(options.validation ? { validation: options.validation } : {}),
    } as Catalog;
    if (options.claims !== undefined) {
      variant.claims_volume = join(root, 'claims-volume.csv');
      await writeFile(variant.claims_volume, options.claims);
    }
    catalog = join(root, 'catalog.json');
    await writeFile(catalog, JSON.stringify(variant));
  }
  await convertCatalog(catalog, dir, { quiet: true });
  return { root, dir };
}

