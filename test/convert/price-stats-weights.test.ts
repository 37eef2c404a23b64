/**
 * price_stats from weights (build-price-stats.ts) on raw spool rows written by hand: a provider in
 * two groups of one file is counted once per distinct row (metrics.md, Rows that count: one row
 * per NPI, identical rows once), `both` falls in either class, states come from the registry, and
 * non-dollar rows are left out. Every expected median is worked out in the comments.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildTables } from '../../scripts/convert/build-tables';
import { buildPriceStats } from '../../scripts/convert/build-price-stats';
import { openSpool, type Spool } from '../../scripts/convert/spool';

let tmp: string;
let spool: Spool;
let stats: Array<[string, string, number, number, number]>;

const NPPES_HEADER = ['NPI', 'Entity Type Code', 'Provider Organization Name (Legal Business Name)', 'Provider Last Name (Legal Name)',
  'Provider First Name', 'Provider Business Practice Location Address State Name',
  'Provider Business Practice Location Address Postal Code', 'Healthcare Provider Taxonomy Code_1'];

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'compete-ps-'));
  // NPIs 1000000001 and ..02 in CA, ..03 and ..04 in NY
  const registry = [NPPES_HEADER.map((h) => `"${h}"`).join(','),
    '1000000001,1,,Doe,A,CA,90001,207Q00000X', '1000000002,1,,Doe,B,CA,90002,207Q00000X',
    '1000000003,1,,Doe,C,NY,10001,207Q00000X', '1000000004,1,,Doe,D,NY,10002,207Q00000X'].join('\n');
  await writeFile(path.join(tmp, 'npi.csv'), registry);
  // Groups of source 0: g1 = NPIs 1, 2, 3; g2 = NPIs 1, 4 (NPI 1 is in both groups).
  await writeFile(path.join(tmp, 'groups.csv'), [
    '0,g1,1000000001,1000000001,ein,11-1,', '0,g1,1000000002,1000000002,ein,11-1,', '0,g1,1000000003,1000000003,ein,11-1,',
    '0,g2,1000000001,1000000001,ein,22-2,', '0,g2,1000000004,1000000004,ein,22-2,',
  ].join('\n') + '\n');
  await writeFile(path.join(tmp, 'items.csv'), '0,0,CPT,99213,Office visit,,ffs\n');
  // source_id, item_id, rate_index, price_index, provider_group_id, billing_class, negotiated_type, rate, service_codes, modifiers, expiration, setting, info
  await writeFile(path.join(tmp, 'rates.csv'), [
    '0,0,1,0,g1,professional,negotiated,100,11,"",9999-12-31,,', // r1
    '0,0,2,0,g2,professional,negotiated,100,11,"",9999-12-31,,', // r2: the same row as r1 for NPI 1
    '0,0,3,0,g2,institutional,negotiated,200,"","",9999-12-31,,', // r3
    '0,0,4,0,g1,professional,negotiated,100,11,"",9999-12-31,,', // r4: r1 again (identical rows count once)
    '0,0,5,0,g1,both,fee schedule,50,"","",9999-12-31,,', // r5
    '0,0,6,0,g1,professional,percentage,80,"","",9999-12-31,,', // r6: not a dollar row
  ].join('\n') + '\n');
  spool = await openSpool(tmp);
  await spool.load('raw_groups', [path.join(tmp, 'groups.csv')]);
  await spool.load('raw_items', [path.join(tmp, 'items.csv')]);
  await spool.loadTextPrices([path.join(tmp, 'rates.csv')]);
  await spool.con.run(`CREATE TABLE sources (source_id INTEGER, insurer_id VARCHAR, snapshot VARCHAR);
    INSERT INTO sources VALUES (0, 'a', '2025-01');`);
  await buildTables(spool.con, { referenceInsurer: 'a', npiRegistry: path.join(tmp, 'npi.csv') });
  await buildPriceStats(spool.con);
  const r = await spool.con.runAndReadAll(`SELECT class_selection, state, median_rate, rate_count, provider_count FROM price_stats
    WHERE billing_code = '99213' AND snapshot = '2025-01' AND insurer_id = 'a' ORDER BY 2, 1`);
  stats = r.getRows().map(([c, s, m, n, p]) => [String(c), String(s), Number(m), Number(n), Number(p)]);
});

afterAll(async () => {
  spool?.close();
  await rm(tmp, { recursive: true, force: true });
});

describe('price_stats weights', () => {
  // Distinct dollar rows per NPI (class, type, rate, place of service):
  //   NPI 1 (CA): 100 prof (g1 and g2: once), 50 both, 200 inst  -> 3 rows
  //   NPI 2 (CA): 100 prof, 50 both                              -> 2 rows
  //   NPI 3 (NY): 100 prof, 50 both                              -> 2 rows
  //   NPI 4 (NY): 100 prof, 200 inst                             -> 2 rows
  it('counts a provider of two groups once per distinct row, in the whole market', () => {
    // all: 50 50 50 100 100 100 100 200 200 -> 9 rows, 5th = 100
    // professional (+ both): 50 50 50 100 100 100 100 -> 7 rows, 4th = 100
    // institutional (+ both): 50 50 50 200 200 -> 5 rows, 3rd = 50
    expect(stats.filter((s) => s[1] === 'ALL')).toEqual([
      ['all', 'ALL', 100, 9, 4],
      ['institutional', 'ALL', 50, 5, 4],
      ['professional', 'ALL', 100, 7, 4],
    ]);
  });

  it('takes the state of each provider from the registry', () => {
    // CA (NPIs 1, 2): all 50 50 100 100 200 -> 100; professional 50 50 100 100 -> (50 + 100) / 2 = 75;
    //   institutional 50 50 200 -> 50
    // NY (NPIs 3, 4): all 50 100 100 200 -> (100 + 100) / 2 = 100; professional 50 100 100 -> 100;
    //   institutional 50 200 -> (50 + 200) / 2 = 125
    expect(stats.filter((s) => s[1] !== 'ALL')).toEqual([
      ['all', 'CA', 100, 5, 2],
      ['institutional', 'CA', 50, 3, 2],
      ['professional', 'CA', 75, 4, 2],
      ['all', 'NY', 100, 4, 2],
      ['institutional', 'NY', 125, 2, 2],
      ['professional', 'NY', 100, 3, 2],
    ]);
  });

  it('keeps one rates row per price and group as published (never one per NPI)', async () => {
    // 6 raw rows, all resolved (g1, g2 declared)
    const r = await spool.con.runAndReadAll('SELECT count(*), count(provider_group_key) FROM rates');
    expect(r.getRows()[0]!.map(Number)).toEqual([6, 6]);
  });
});
