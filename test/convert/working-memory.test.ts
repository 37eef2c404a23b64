/**
 * What the working database holds when the last phase's buckets run (write-dataset.ts): the tables
 * nothing reads any more are dropped before, so that DuckDB's memory limit (spool.ts) goes to the
 * buckets' sorts and copies instead of to spilling and reloading them. On the 1 GB benchmark file
 * the in-memory tables took ~209 MB at the start of the phase, past the 160 MB limit (87 MB of them
 * spilled), against ~150 MB now, and ~65 MB once the provider tables are written and dropped.
 * Watched here from DuckDB's own catalog, statement by statement, on a real conversion.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckDBConnection } from '@duckdb/node-api';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { DatasetManifest } from '../../contract/files/dataset';
import { convertCatalog } from '../../scripts/convert/index';
import { DUCKDB_MEMORY_LIMIT } from '../../scripts/convert/spool/spool-host';
import { LAST_PHASE_MEMORY_LIMIT } from '../../scripts/convert/build/output/write-dataset';
import { generateLargeMrf } from '../../scripts/mrf/generate-large-mrf';

let tmp: string;
let manifest: DatasetManifest;
/** Every statement run, in order, with the tables of the working database just before it. */
const statements: Array<{ sql: string; tables: string[] }> = [];

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'compete-memory-'));
  await generateLargeMrf(path.join(tmp, 'in.json.gz'), { targetBytes: 2e6, itemBytes: 50_000, providerReferences: 300 });
  await writeFile(path.join(tmp, 'catalog.json'), JSON.stringify({
    reference_insurer: 'a', insurers: [{ id: 'a', name: 'A', files: [{ snapshot: '2025-01', url: 'in.json.gz' }] }],
  }));
  const run = DuckDBConnection.prototype.run;
  const looking = new WeakSet<DuckDBConnection>(); // runAndReadAll goes through run
  DuckDBConnection.prototype.run = async function watched(this: DuckDBConnection, ...a: Parameters<typeof run>) {
    if (looking.has(this)) return run.apply(this, a);
    looking.add(this);
    try {
      const r = await this.runAndReadAll(`SELECT table_name FROM duckdb_tables() WHERE database_name = current_database()`);
      statements.push({ sql: a[0].replace(/\s+/g, ' ').trim(), tables: r.getRows().map((row) => String(row[0])) });
    } finally {
      looking.delete(this);
    }
    return run.apply(this, a);
  };
  try {
    ({ manifest } = await convertCatalog(path.join(tmp, 'catalog.json'), path.join(tmp, 'out'), { quiet: true, jobs: 2 }));
  } finally {
    DuckDBConnection.prototype.run = run;
  }
}, 60_000);

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

/** The tables read before the last phase and dropped before its first bucket. */
const DROPPED = ['raw_groups', 'provider_ids', 'ps_members', 'ps_shared', 'ps_weights', 'ps_shared_members'];

const firstAt = (start: string): number => statements.findIndex((s) => s.sql.startsWith(start) && !isPartitionExport(s.sql));

/** A copy of the ingest stage's (spool.ts exportPartition: the raw tables of one source), not of the dataset. */
const isPartitionExport = (sql: string): boolean => /^COPY \(SELECT \* (REPLACE \(CAST\(list_position|FROM raw_)/.test(sql);

/** The first statement of the first bucket: its rates part's copy (code-buckets.ts bucketPricesSql). */
const firstBucket = (): number => statements.findIndex((s) => s.sql.startsWith('COPY (WITH') && s.sql.includes(' bucket_prices AS ('));

describe('the working database of the last phase', () => {
  it('holds neither the raw groups, the provider ids nor the medians membership tables when the first bucket runs', () => {
    const bucket = firstBucket();
    expect(bucket).toBeGreaterThan(0);
    // they existed earlier in the run: the test watches the catalog, not names that never were
    for (const t of DROPPED) {
      expect(statements.slice(0, bucket).some((s) => s.tables.includes(t)), t).toBe(true);
      expect(statements[bucket]!.tables, t).not.toContain(t);
    }
    expect(statements[bucket]!.tables).toEqual(expect.arrayContaining(['raw_price_rows', 'raw_shapes', 'resolved_groups', 'rate_items', 'ps_states', 'ps_results']));
  });

  it('writes provider_groups and providers before any bucket, and drops them once written', () => {
    const bucket = firstBucket();
    for (const t of ['provider_groups', 'providers']) {
      // provider_groups is sorted by its sources' snapshot, joined from `sources` (write-parquet.ts)
      const copy = statements.findIndex((s) => s.sql.startsWith(`COPY (SELECT`) && new RegExp(` FROM ${t} (LEFT JOIN .* )?ORDER BY`).test(s.sql));
      expect(copy, t).toBeGreaterThan(0);
      expect(copy, t).toBeLessThan(bucket);
      const drop = statements.findIndex((s) => s.sql === `DROP TABLE ${t}`);
      expect(drop, t).toBeGreaterThan(copy);
      expect(statements[firstAt('INSERT INTO price_stats')]!.tables, t).not.toContain(t);
    }
  });

  it('raises DuckDB\'s memory limit for the buckets, two at once, and restores it after the last', () => {
    const raise = statements.findIndex((s) => s.sql === `SET memory_limit = '${LAST_PHASE_MEMORY_LIMIT}'`);
    const restore = statements.findIndex((s) => s.sql === `SET memory_limit = '${DUCKDB_MEMORY_LIMIT}'`);
    const lastCopy = statements.findLastIndex((s) => s.sql.startsWith('COPY (') && s.sql.includes(' FROM bucket_prices'));
    expect(raise).toBeGreaterThan(0);
    expect(raise).toBeLessThan(firstAt('COPY (SELECT'));
    expect(lastCopy).toBeGreaterThan(raise);
    expect(restore).toBeGreaterThan(lastCopy);
    expect(LAST_PHASE_MEMORY_LIMIT).not.toBe(DUCKDB_MEMORY_LIMIT);
  });

  it('still counts the provider groups and writes their rows', () => {
    expect(manifest.counts.provider_groups).toBeGreaterThan(250);
    expect(manifest.counts.provider_groups).toBeLessThanOrEqual(300);
    expect(manifest.tables.provider_groups.rows).toBeGreaterThan(manifest.counts.provider_groups);
    expect(manifest.tables.providers.rows).toBeGreaterThan(0);
  });
});
