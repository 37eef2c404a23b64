/**
 * An ingest run's DuckDB instance (scripts/convert/spool/spool-host.ts): each file's spool is a
 * database of its own attached to it, with its own tables, and goes with its memory once closed,
 * while the instance goes on hosting the next files.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openSpool, type Spool } from '../../scripts/convert/spool/spool';
import { openSpoolHost, type SpoolHost } from '../../scripts/convert/spool/spool-host';

let tmp: string;
let host: SpoolHost;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'compete-spool-host-'));
  host = await openSpoolHost(tmp);
});

afterAll(async () => {
  host?.close();
  await rm(tmp, { recursive: true, force: true });
});

/** The databases attached to the host's instance, by name. */
async function attached(spool: Spool): Promise<string[]> {
  const r = await spool.con.runAndReadAll(`SELECT database_name FROM duckdb_databases() WHERE NOT internal ORDER BY database_name`);
  return r.getRows().map(([name]) => String(name));
}

/** The `raw_items` billing codes of `spool`, in order. */
async function codes(spool: Spool): Promise<string[]> {
  const r = await spool.con.runAndReadAll('SELECT billing_code FROM raw_items ORDER BY billing_code');
  return r.getRows().map(([c]) => String(c));
}

describe('the spools of an ingest run', () => {
  it('share one instance, each with tables of its own, and a closed one is detached with its rows', async () => {
    // a load past checkpointCsvBytes is stored compressed by a CHECKPOINT of the spool's own database
    const a = await openSpool(tmp, { host, checkpointCsvBytes: 1 });
    const b = await openSpool(tmp, { host });
    // one instance: each sees the other's database attached beside its own
    expect(await attached(a)).toEqual(['memory', 'spool_1', 'spool_2']);
    expect(await attached(b)).toEqual(['memory', 'spool_1', 'spool_2']);
    await a.con.run(`INSERT INTO raw_items VALUES (0, 0, 'CPT', '99213', 'a', 'a', 'ffs')`);
    await b.con.run(`INSERT INTO raw_items VALUES (0, 0, 'CPT', '70450', 'b', 'b', 'ffs')`);
    expect(await codes(a)).toEqual(['99213']);
    expect(await codes(b)).toEqual(['70450']);
    const csv = path.join(tmp, 'raw_items.csv');
    await writeFile(csv, Array.from({ length: 10 }, (_, i) => `0,${i + 1},CPT,99214,a,a,ffs\n`).join(''));
    await a.load('raw_items', [csv]);
    const dir = await mkdtemp(path.join(tmp, 'part-'));
    await a.exportPartition(dir, [0]);
    await a.close();
    expect(await attached(b)).toEqual(['memory', 'spool_2']);
    expect(await codes(b)).toEqual(['70450']);
    // the next file's spool starts empty, under a name not used before
    const c = await openSpool(tmp, { host });
    expect(await codes(c)).toEqual([]);
    expect(await attached(c)).toEqual(['memory', 'spool_2', 'spool_3']);
    await c.loadPartition(dir, 0);
    expect(await codes(c)).toEqual(['99213', ...Array(10).fill('99214')]);
    await b.close();
    await c.close();
  });
});
