/**
 * The store of source partitions in an S3-compatible bucket (scripts/convert/store/s3-store.ts), against
 * s3rver (an S3 server in Node, in this process): a conversion with `--store s3://...` writes its
 * partitions there and gives the tables of a run with a local store; the next run reuses them;
 * the build alone reads them back; and a worker of the distributed ingest writes to the bucket too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { convertCatalog, ingestCatalog } from '../../scripts/convert/index';
import { startIngestWorker } from '../../scripts/convert/ingest/queue';
import { generateSample } from '../../scripts/sample/index';
import { s3List } from '../../scripts/convert/store/s3-store';
import type { Catalog } from '../../contract/files/catalog';
import { parquetFiles } from './parquet-files';
import { startRedis, type LocalRedis } from './redis-server';

let tmp: string;
let server: S3rver;
let catalogPath: string;
let redis: LocalRedis;
const saved = { ...process.env };

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'compete-s3-'));
  server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: path.join(tmp, 's3'), configureBuckets: [{ name: 'mrf', configs: [] }] });
  const { port } = await server.run();
  Object.assign(process.env, {
    AWS_ENDPOINT_URL: `http://127.0.0.1:${port}`, AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', AWS_REGION: 'us-east-1',
  });
  const sample = path.join(tmp, 'sample');
  const { catalogPath: full } = await generateSample(sample);
  const c = JSON.parse(await readFile(full, 'utf8')) as Catalog;
  c.insurers = c.insurers.slice(0, 3).map((i) => ({ ...i, files: i.files.filter((f) => f.snapshot === '2025-10' || f.snapshot === '2025-11') }));
  c.reference_insurer = c.insurers[0]!.id;
  catalogPath = path.join(sample, 'catalog-s3.json');
  await writeFile(catalogPath, JSON.stringify(c));
  redis = await startRedis();
}, 60_000);

afterAll(async () => {
  process.env = saved;
  await redis?.stop();
  await server?.close();
  await rm(tmp, { recursive: true, force: true });
});

describe('a store in an S3 bucket', () => {
  it('holds the partitions: the tables equal a local store\'s, the next run reuses them, the build alone reads them back', async () => {
    const store = 's3://mrf/compete/store';
    const out = path.join(tmp, 'out');
    const first = (await convertCatalog(catalogPath, out, { quiet: true, store })).manifest;
    expect(first.sources).toHaveLength(6);
    expect(first.sources.every((s) => s.reused === false)).toBe(true);
    const insurers = await s3List(`${store}/sources`);
    expect(insurers.sort()).toEqual(first.insurers.map((i) => `insurer=${i.id}`).sort());
    expect(await s3List(`${store}/sources/${insurers[0]}`)).toEqual(['snapshot=2025-10', 'snapshot=2025-11']);

    const local = path.join(tmp, 'local');
    await convertCatalog(catalogPath, local, { quiet: true, store: path.join(tmp, 'local-store') });
    const [a, b] = [await parquetFiles(out), await parquetFiles(local)];
    expect([...a.keys()]).toEqual([...b.keys()]);
    for (const [f, bytes] of a) expect(bytes.equals(b.get(f)!), f).toBe(true);

    // the next run's first stage reuses every partition in the bucket
    expect(await ingestCatalog(catalogPath, store, { quiet: true })).toMatchObject({ ingested: 0, reused: 6, failed: [] });
    const built = path.join(tmp, 'built');
    await convertCatalog(catalogPath, built, { quiet: true, store, buildOnly: true });
    for (const [f, bytes] of await parquetFiles(built)) expect(bytes.equals(b.get(f)!), f).toBe(true);
  }, 180_000);

  it('is written by the workers of a distributed ingest', async () => {
    const store = 's3://mrf/queued';
    const worker = await startIngestWorker(redis.url, { jobs: 1, quiet: true });
    try {
      const m = (await convertCatalog(catalogPath, path.join(tmp, 'queued'), { quiet: true, store, redis: redis.url })).manifest;
      expect(m.sources).toHaveLength(6);
      expect((await s3List(`${store}/sources`)).length).toBe(3);
    } finally {
      await worker.close();
    }
  }, 180_000);
});
