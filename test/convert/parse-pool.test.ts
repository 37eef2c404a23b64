/**
 * The parser threads' full garbage collections (scripts/convert/ingest/parse-pool.ts): a finished
 * source is followed by one on every thread only once `collectAfterBytes` of elements have been
 * parsed since the last, so that a catalog of many small files does not pay one per file; what
 * each read spools does not depend on it.
 */
import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLLECT_AFTER_BYTES, ParsePool } from '../../scripts/convert/ingest/parse-pool';
import { readSource } from '../../scripts/convert/ingest/read-source';

const FILE = path.resolve(import.meta.dirname, '../fixtures/mrf/v2.2.0-in-network-rates-fee-for-service-single-plan-sample.json');

let dir: string;
let nextSource = 1;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'compete-parse-pool-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Reads FILE through `pool`; the items and price rows its threads spooled. */
async function readOnce(pool: ParsePool): Promise<{ items: number; priceRows: number }> {
  const r = await readSource(FILE, createReadStream(FILE), pool, { sourceId: nextSource++, dir });
  return { items: r.spooled.reduce((a, d) => a + d.items, 0), priceRows: r.spooled.reduce((a, d) => a + d.priceRows, 0) };
}

describe('full garbage collections of the parser threads', () => {
  it('follow a source only once collectAfterBytes have been parsed since the last', async () => {
    // the file's elements are about 3.5 KB: two reads pass 5,000 bytes, one does not
    const pool = new ParsePool(2, undefined, { collectAfterBytes: 5_000 });
    try {
      const counts = [];
      const collections = [];
      for (let k = 0; k < 4; k++) {
        counts.push(await readOnce(pool));
        collections.push(pool.collections);
      }
      expect(collections).toEqual([0, 1, 1, 2]);
      expect(counts[0]!.items).toBeGreaterThan(0);
      expect(counts[0]!.priceRows).toBeGreaterThan(0);
      expect(new Set(counts.map((c) => JSON.stringify(c))).size).toBe(1);
    } finally {
      await pool.close();
    }
  });

  it('by default, not after small files', async () => {
    expect(COLLECT_AFTER_BYTES).toBe(32 * 2 ** 20);
    const pool = new ParsePool(1, undefined);
    try {
      for (let k = 0; k < 3; k++) await readOnce(pool);
      expect(pool.collections).toBe(0);
    } finally {
      await pool.close();
    }
  });
});
