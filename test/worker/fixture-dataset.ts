/**
 * Test helper: converts test/fixtures/api/catalog.json with the real converter into a temporary
 * directory and boots the data service on it with the Node platform (DuckDB-WASM's Node build,
 * parquet-wasm's Node build), so the SQL that ships is the SQL under test. Also a generated
 * dataset booted the same way (bootGenerated).
 */
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateApiDataset, type GeneratedShape } from '../../scripts/generate/dataset';
import type { ApiResponse, LiveServicePricingRecord, ServicePricingResult } from '../../contract/api';
import type { BootState } from '../../contract/api';
import { createDataService, type DataService } from '../../workers/data-service';
import { nodePlatform } from '../../workers/platform-node';
import { convertFixtureFresh, sharedVariant, type FixtureOptions, type SharedVariant } from './fixture-convert';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The api fixture's shared variants, converted once by test/unit-setup.ts: dataset directory by variant. */
    apiFixtures: Record<SharedVariant, string>;
  }
}

export { FIXTURE_CATALOG, type FixtureOptions } from './fixture-convert';

export interface BootedFixture {
  service: DataService;
  state: BootState;
  dir: string;
  bootMs: number;
  /** GET `path` with `query`, through `handle`. */
  get(path: string, query?: Record<string, string>): Promise<ApiResponse>;
  dispose(): Promise<void>;
}

/**
 * Converts the fixture catalog with `options` into a fresh temporary directory; returns the dataset
 * dir. The two shared variants (fixture-convert.ts SHARED_VARIANTS) are copied from the unit run's
 * global setup, which converted them with the same converter (a copy, so that a test may change or
 * delete its dataset); the others are converted here.
 * @throws as convertCatalog.
 */
export async function convertFixture(options: FixtureOptions = {}): Promise<{ root: string; dir: string }> {
  const variant = sharedVariant(options);
  const converted = variant === null ? undefined : inject('apiFixtures')?.[variant];
  if (converted === undefined) return convertFixtureFresh(options);
  const root = await mkdtemp(join(tmpdir(), 'compete-api-'));
  const dir = join(root, 'dataset');
  await cp(converted, dir, { recursive: true });
  return { root, dir };
}

/** Converts and boots; `dispose()` closes DuckDB and removes the directory. */
export async function bootFixture(options: FixtureOptions = {}): Promise<BootedFixture> {
  const { root, dir } = await convertFixture(options);
  const service = createDataService(nodePlatform);
  const t0 = performance.now();
  const state = await service.init({ dataUrl: dir + '/' });
  const bootMs = performance.now() - t0;
  return {
    service,
    state,
    dir,
    bootMs,
    get: (path, query = {}) => service.handle({ method: 'GET', path, query }),
    async dispose() {
      await service.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

/**
 * The fixture booted twice for a test file, by its beforeAll/afterAll: `strict` with the default
 * settings (min_providers 2) and `loose` with `validation.min_providers: 1`; read the fields inside
 * tests (they are set once the hooks ran). `options` apply to both (FixtureOptions: another claims file).
 */
export function bootStrictAndLoose(options: Omit<FixtureOptions, 'validation'> = {}): { strict: BootedFixture; loose: BootedFixture } {
  const booted = {} as { strict: BootedFixture; loose: BootedFixture };
  beforeAll(async () => {
    [booted.strict, booted.loose] = await Promise.all([bootFixture(options), bootFixture({ ...options, validation: { min_providers: 1 } })]);
    expect(booted.strict.state.status).toBe('ready');
    expect(booted.loose.state.status).toBe('ready');
  });
  afterAll(async () => {
    await booted.strict?.dispose();
    await booted.loose?.dispose();
  });
  return booted;
}

/** A record's unit as the fixture tests name it: `<code> <billing class>` ('99213 professional'). */
export const unitName = (x: LiveServicePricingRecord): string => `${x.service_code} ${x.billing_class}`;

/** The record of `result` whose unitName is `name`. @throws Error listing the units when none is. */
export function byUnit(result: ServicePricingResult, name: string): LiveServicePricingRecord {
  const x = result.records.find((rec) => unitName(rec) === name);
  if (!x) throw new Error(`no unit ${name} in ${result.records.map(unitName).join(', ')}`);
  return x;
}

/** GET `path` with `query` from `fx`, expecting 200; the body. */
export async function okBody<T>(fx: BootedFixture, path: string, query: Record<string, string> = {}): Promise<T> {
  const res = await fx.get(path, query);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as T;
}

/**
 * A generated dataset (scripts/generate/dataset.ts generateApiDataset: `rateRows`, `shape`) booted
 * for a test file by its beforeAll/afterAll, in a temporary directory removed after; read
 * `service` inside tests (set once the hooks ran).
 */
export function bootGenerated(rateRows: number, shape: GeneratedShape): { service: DataService } {
  const booted = {} as { service: DataService };
  let root: string | undefined;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'compete-generated-'));
    await generateApiDataset(join(root, 'generated'), rateRows, shape);
    booted.service = createDataService(nodePlatform);
    expect((await booted.service.init({ dataUrl: join(root, 'generated') + '/' })).status).toBe('ready');
  }, 300_000);
  afterAll(async () => {
    await booted.service?.close();
    if (root) await rm(root, { recursive: true, force: true });
  });
  return booted;
}
