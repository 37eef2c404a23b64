/**
 * The same catalog converted twice gives byte-identical Parquet files (the manifest's SHA-256), even
 * with two parser threads that share the batches differently from run to run and a rates sort whose
 * leading keys tie often (README, The dataset: every table is written in a total order). Auditors
 * re-run a conversion to check a snapshot they were given.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { DatasetManifest } from '../../contract/dataset';
import { convertCatalog } from '../../scripts/convert/index';
import { generateLargeMrf } from '../../scripts/mrf/generate-large-mrf';

let tmp: string;
const hashes: Array<Record<string, string[]>> = [];

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'compete-repro-'));
  // ~30 MB of JSON (~450k rate rows: DuckDB sorts them on both threads): 2 provider groups per rate on average, rates drawn from few values, so rows
  // equal on (code, group, rate) are many; split items (256 KB) send rates to both threads
  await generateLargeMrf(path.join(tmp, 'in.json.gz'), { targetBytes: 3e7, itemBytes: 400_000, bigItemBytes: 5e6, providerReferences: 2000 });
  await writeFile(path.join(tmp, 'catalog.json'), JSON.stringify({
    reference_insurer: 'a', insurers: [{ id: 'a', name: 'A', files: [{ snapshot: '2025-01', url: 'in.json.gz' }] }],
  }));
  for (const run of ['one', 'two']) {
    await convertCatalog(path.join(tmp, 'catalog.json'), path.join(tmp, run), { quiet: true, jobs: 2, splitBytes: 256 * 1024 });
    const m = JSON.parse(await readFile(path.join(tmp, run, 'manifest.json'), 'utf8')) as DatasetManifest;
    hashes.push(Object.fromEntries(Object.entries(m.tables).map(([name, t]) => [name, t.sha256])));
  }
}, 120_000);

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('a conversion run twice', () => {
  it('writes the same bytes for every table', () => {
    expect(Object.keys(hashes[0]!).sort()).toEqual(['claims_volume', 'price_stats', 'provider_groups', 'providers', 'rates', 'services']);
    expect(hashes[1]).toEqual(hashes[0]);
  });
});
