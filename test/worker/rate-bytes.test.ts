/**
 * Rate rows load by billing code on demand (docs/architecture.md), counted in bytes: opening reads the
 * manifest and the small tables only; a service's detail reads the rates footer and its own row
 * groups only; a code read once is not read again. The rates file is rewritten with 4 rows per row
 * group so one code spans several groups:
 *   rows by code: 470 x1, 70450 x9, 80053 x3, 99213 x8, 99283 x1, G0008 x3 (25 in all)
 *   groups of 4: [470 70450x3] [70450x4] [70450x2 80053x2] [80053 99213x3] [99213x4] [99213 99283 G0008x2] [G0008]
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { BOOT_TABLES, createDataService, type DataService } from '../../workers/data-service';
import { nodePlatform } from '../../workers/platform-node';
import { memoryAckStore } from '../../workers/acks/ack-store';
import type { DatasetManifest } from '../../contract/files/dataset';
import type { PriceDetail, ProvidersForService } from '../../contract/api';
import { convertFixture } from './fixture-dataset';
import { splitRateRowGroups } from './small-row-groups';

let root = '';
let dir = '';
let manifest: DatasetManifest;
let service: DataService;
/** Compressed bytes of each rates row group (parquet-wasm reads exactly these ranges). */
let groupBytes: number[] = [];

beforeAll(async () => {
  ({ root, dir } = await convertFixture());
  ({ manifest, groupBytes } = await splitRateRowGroups(dir, 4));
  service = createDataService(nodePlatform, { acks: memoryAckStore() });
  expect((await service.init({ dataUrl: dir + '/' })).status).toBe('ready');
});
afterAll(async () => {
  await service?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

it('has the row groups the header describes', () => {
  const g = manifest.tables.rates.row_groups!;
  expect(g.map((x) => [x.min_billing_code, x.max_billing_code])).toEqual([
    ['470', '70450'], ['70450', '70450'], ['70450', '80053'], ['80053', '99213'], ['99213', '99213'], ['99213', 'G0008'], ['G0008', 'G0008'],
  ]);
});

it('opens reading only the manifest, the small tables, the stored unit pivot and the latest month of price_stats', async () => {
  // the footer at boot, the latest month's national rows behind it
  await service.background();
  let expected = (await stat(join(dir, 'manifest.json'))).size;
  for (const t of BOOT_TABLES) if (t !== 'price_stats') for (const f of manifest.tables[t].files) expected += (await stat(join(dir, f))).size;
  // the stored unit pivot is read at boot too
  expect(manifest.tables.unit_pivot?.files).toEqual(['unit_pivot.parquet']);
  expected += (await stat(join(dir, 'unit_pivot.parquet'))).size;
  // price_stats by range reads (workers/db/stats.ts): its footer and the latest month's row groups, at most the file
  const stats = service.bytesRead() - expected;
  expect(stats).toBeGreaterThan(0);
  expect(stats).toBeLessThanOrEqual((await stat(join(dir, manifest.tables.price_stats.files[0]!))).size);
});

it('reads only the row groups of the asked code, once, and answers right across groups', async () => {
  const rates = (await readFile(join(dir, 'rates/part-0.parquet'))).length;
  const before = service.bytesRead();
  const res = await service.handle({ method: 'GET', path: '/api/providers-for-service', query: { service_id: 'G0008' } });
  // G0008 spans the last two groups: its three providers are all there (T, A, B).
  expect((res.body as ProvidersForService).total).toBe(3);
  const g0008 = service.bytesRead() - before;
  // The footer (read once) plus groups 5 and 6, not the whole file.
  expect(g0008).toBeGreaterThan(groupBytes[5]! + groupBytes[6]!);
  expect(g0008).toBeLessThan(rates);
  // Asked again: nothing more read.
  await service.handle({ method: 'GET', path: '/api/insurers-for-service', query: { service_id: 'G0008' } });
  expect(service.bytesRead() - before).toBe(g0008);
  // 70450 spans three groups: the per diem row of A and the market over alpha's A row still come out right.
  const d = await service.handle({ method: 'GET', path: '/api/service-price-details', query: { service_id: '70450', provider_id: '1111111112', insurer_id: 'ref' } });
  expect((d.body as PriceDetail[]).map((x) => [x.price, x.referencePrice, x.marketAverage])).toEqual([[500, 500, 400], [1500, 500, 400]]);
  // Exactly its three row groups: the footer is not read again.
  expect(service.bytesRead() - before - g0008).toBe(groupBytes[0]! + groupBytes[1]! + groupBytes[2]!);
});
