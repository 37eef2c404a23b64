/**
 * `npm run generate` (scripts/generate): every shape at its tiny size writes a dataset the worker's
 * data service (Node platform: DuckDB-WASM, parquet-wasm) opens and answers the live dashboard's
 * first requests from; market-year holds 3 monthly snapshots and prices at shared providers; the
 * real-file shape is the same bytes from run to run; the command line refuses a non-empty --out and
 * an unknown shape.
 */
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Alert, ServicePricingResult, TrendPoint } from '../../contract/api';
import { DERIVED_TABLE_NAMES, TABLE_NAMES, type DatasetManifest } from '../../contract/files/dataset';
import { FIRST_VIEW_FILE, firstViewBandRequest, firstViewRequests, type FirstView } from '../../contract/files/first-view';
import type { LiveInsurer } from '../../contract/api';
import { runGenerateCli } from '../../scripts/generate/cli';
import { generateShape, GENERATED_SHAPES, type GeneratedShapeName } from '../../scripts/generate/shapes';
import { createDataService, type DataService } from '../../workers/data-service';
import { nodePlatform } from '../../workers/platform-node';
import { sharedShape } from '../datasets-once';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'compete-generate-test-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Opens `dir` with the data service, runs `use`, closes it. */
async function withService<T>(dir: string, use: (s: DataService) => Promise<T>): Promise<T> {
  const service = createDataService(nodePlatform);
  try {
    const state = await service.init({ dataUrl: dir + '/' });
    expect(state.status, JSON.stringify(state)).toBe('ready');
    return await use(service);
  } finally {
    await service.close();
  }
}

const get = (s: DataService, p: string, query: Record<string, string> = {}) => s.handle({ method: 'GET', path: p, query });

/** SHA-256 of every file of a dataset directory, by relative path. */
async function digests(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile()) continue;
    const file = path.join(e.parentPath, e.name);
    out[path.relative(dir, file)] = createHash('sha256').update(await readFile(file)).digest('hex');
  }
  return out;
}

describe('generated shapes (tiny)', () => {
  const dirs = new Map<GeneratedShapeName, { dir: string; manifest: DatasetManifest }>();
  // generateShape's datasets as the run's other files get them (test/datasets-once.ts: generated once
  // for the run by whichever asks first, with the same code and options); the test of the bytes
  // from run to run below generates its second copy itself. The sample has one size.
  beforeAll(async () => {
    for (const shape of GENERATED_SHAPES) {
      const dir = path.join(root, shape);
      dirs.set(shape, { dir, manifest: await sharedShape(shape, dir, shape === 'sample' ? {} : { tiny: true }) });
    }
  }, 180_000);

  // first-view.json holds the data service's own answers (scripts/convert/build/output/first-view.ts: only 200 answers are written)
  for (const shape of GENERATED_SHAPES) {
    it(`${shape}: every table, the manifest and the first view of the data service's 200 answers`, async () => {
      const { dir, manifest } = dirs.get(shape)!;
      expect(Object.keys(manifest.tables).sort()).toEqual([...TABLE_NAMES, ...DERIVED_TABLE_NAMES].sort());
      const view = JSON.parse(await readFile(path.join(dir, FIRST_VIEW_FILE), 'utf8')) as FirstView;
      expect(view.created_at).toBe(manifest.created_at);
      const insurers = view.answers.find((a) => a.path === '/api/insurers')!.body as LiveInsurer[];
      // the screens' requests, then the market bands of the comparison's first page at every provider
      const bands = view.answers.filter((a) => a.path === '/api/service-pricing')
        .flatMap((a) => firstViewBandRequest(a.query, (a.body as ServicePricingResult).records) ?? []);
      expect(bands.length).toBe(1);
      expect(view.answers.map((a) => [a.path, a.query, a.status])).toEqual([...firstViewRequests(insurers), ...bands].map((r) => [r.path, r.query, 200]));
    });
  }

  it('market-year: opened by the data service, 3 monthly snapshots, prices at shared providers with a reference price', async () => {
    const { dir, manifest } = dirs.get('market-year')!;
    expect(manifest.snapshots).toEqual(['2025-01', '2025-02', '2025-03']);
    await withService(dir, async (s) => {
      const insurers = (await get(s, '/api/insurers', {})).body as LiveInsurer[];
      for (const r of firstViewRequests(insurers)) expect((await get(s, r.path, r.query)).status, r.path).toBe(200);
      const shared = await get(s, '/api/service-pricing', { shared_providers: '1' });
      expect(shared.status).toBe(200);
      const body = shared.body as ServicePricingResult;
      expect(body.snapshot).toBe('2025-03');
      const priced = body.records.filter((r) => r.reference_price !== null && r.market_average !== null);
      expect(priced.length).toBeGreaterThan(0);
      // half of each competitor's rows are elsewhere: at shared providers the figures differ from the whole market's
      const market = (await get(s, '/api/service-pricing')).body as ServicePricingResult;
      const key = (r: ServicePricingResult['records'][number]) => `${r.service_code}|${r.billing_class}|${r.component}|${r.setting}`;
      const marketPrice = new Map(market.records.map((r) => [key(r), r.market_average]));
      expect(priced.some((r) => marketPrice.get(key(r)) !== r.market_average)).toBe(true);
      // one point a month, at shared providers too (a row per month M in price_stats)
      for (const query of [{}, { shared_providers: '1' }] as Array<Record<string, string>>) {
        const trend = await get(s, '/api/overpayment-trend', query);
        expect(trend.status).toBe(200);
        expect((trend.body as TrendPoint[]).map((p) => p.month)).toEqual(manifest.snapshots);
      }
      // alerts compare the last two months
      const alerts = await get(s, '/api/alerts');
      expect(alerts.status).toBe(200);
      expect((alerts.body as Alert[]).length).toBeGreaterThan(0);
      expect(new Set((alerts.body as Alert[]).map((a) => a.createdAt.slice(0, 7)))).toEqual(new Set(['2025-03']));
    });
  });

  it('real-file: the same manifest and table bytes from run to run', async () => {
    const again = path.join(root, 'real-file-again');
    const manifest = await generateShape('real-file', again, { tiny: true });
    const first = dirs.get('real-file')!;
    expect(manifest).toEqual(first.manifest);
    expect(await readFile(path.join(again, 'manifest.json'), 'utf8')).toBe(await readFile(path.join(first.dir, 'manifest.json'), 'utf8'));
    expect(await digests(again)).toEqual(await digests(first.dir));
  }, 60_000);
});

describe('npm run generate', () => {
  const run = async (argv: string[]): Promise<{ code: number; out: string; err: string }> => {
    let out = '';
    let err = '';
    const code = await runGenerateCli(argv, (t) => { out += t; }, (t) => { err += t; });
    return { code, out, err };
  };

  it('refuses an unknown shape, naming the allowed ones', async () => {
    const r = await run(['--shape', 'huge', '--out', path.join(root, 'cli-unknown')]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/unknown --shape 'huge': one of sample, real-file, market-year/);
  });

  it('refuses a non-empty --out, naming it, and leaves it as it was', async () => {
    const out = path.join(root, 'cli-full');
    await mkdir(out, { recursive: true });
    await writeFile(path.join(out, 'keep.txt'), 'x');
    const r = await run(['--shape', 'real-file', '--tiny', '--out', out]);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`--out ${out} is not empty`);
    expect(await readdir(out)).toEqual(['keep.txt']);
  });

  it('writes the tiny real-file shape into an absent --out and prints one summary line', async () => {
    const out = path.join(root, 'cli-ok');
    const r = await run(['--shape', 'real-file', '--tiny', '--out', out]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^generate: real-file \(tiny\) -> .+: 20000 rate rows, 2 snapshots, [\d.]+ s, \d+ bytes\n$/);
    expect((await readdir(out)).sort()).toEqual(['alerts.parquet', 'billing_providers.parquet', 'claims_volume.parquet', FIRST_VIEW_FILE, 'manifest.json', 'medicare_benchmarks.parquet',
      'price_stats.parquet', 'provider_groups.parquet', 'providers.parquet', 'rates', 'services.parquet', 'unit_pivot.parquet']);
    expect((await readdir(root)).filter((n) => n.includes('tmp-compete'))).toEqual([]);
  }, 60_000);
});
