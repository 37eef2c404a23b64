/**
 * price_stats from weights (build-price-stats.ts) on raw spool rows written by hand: a provider in
 * two groups of one file is counted once per distinct row (docs/methodology.md, Rows that count: one row
 * per NPI, identical rows once), each comparison unit has its own median, states come from the
 * registry, and non-dollar rows and rates that failed validation are left out. Every expected median is worked out in the comments.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildWorkingTables } from './working-tables';
import { buildPriceStats } from '../../scripts/convert/build/stats/build-price-stats';
import { openSpool, type Spool } from '../../scripts/convert/spool/spool';

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
    '0,g1,1000000001,1000000001,ein,11-1,,,', '0,g1,1000000002,1000000002,ein,11-1,,,', '0,g1,1000000003,1000000003,ein,11-1,,,',
    '0,g2,1000000001,1000000001,ein,22-2,,,', '0,g2,1000000004,1000000004,ein,22-2,,,',
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
    '0,0,7,0,g2,professional,negotiated,60,11,"",9999-12-31,,', // r7
    '0,0,8,0,g2,professional,negotiated,70,11,"",9999-12-31,,', // r8
    '0,0,9,0,g1,professional,negotiated,20,11,"",9999-12-31,,', // r9: 0.22 x Medicare ($88.95): fails below_benchmark
  ].join('\n') + '\n');
  spool = await openSpool(tmp);
  await spool.load('raw_groups', [path.join(tmp, 'groups.csv')]);
  await spool.load('raw_items', [path.join(tmp, 'items.csv')]);
  await spool.loadTextPrices([path.join(tmp, 'rates.csv')]);
  await spool.con.run(`CREATE TABLE sources (source_id INTEGER, insurer_id VARCHAR, snapshot VARCHAR);
    INSERT INTO sources VALUES (0, 'a', '2025-01');`);
  await buildWorkingTables(spool.con, { referenceInsurer: 'a', npiRegistry: path.join(tmp, 'npi.csv') });
  await buildPriceStats(spool.con);
  const r = await spool.con.runAndReadAll(`SELECT billing_class || '|' || component || '|' || setting, state, median_rate, rate_count, provider_count
    FROM price_stats WHERE billing_code = '99213' AND snapshot = '2025-01' AND insurer_id = 'a' ORDER BY 2, 1`);
  stats = r.getRows().map(([c, s, m, n, p]) => [String(c), String(s), Number(m), Number(n), Number(p)]);
});

afterAll(async () => {
  await spool?.close();
  await rm(tmp, { recursive: true, force: true });
});

describe('price_stats weights', () => {
  // Distinct valid dollar rows per NPI and comparison unit (r9 fails validation, r6 is no dollar row):
  //   professional|global|non-facility (POS 11): NPI 1 (g1 and g2) 100 (r1, r2, r4: once), 60, 70; NPI 2 100;
  //     NPI 3 100; NPI 4 100, 60, 70 -> 60 60 70 70 100 100 100 100: 8 rows, (70 + 100) / 2 = 85
  //   institutional|global|facility: 200 at g2 -> NPIs 1 and 4
  //   both|global|non-facility (no place of service): 50 at g1 -> NPIs 1, 2 and 3
  it('counts a provider of two groups once per distinct row, per comparison unit, in the whole market', () => {
    expect(stats.filter((s) => s[1] === 'ALL')).toEqual([
      ['both|global|non-facility', 'ALL', 50, 3, 3],
      ['institutional|global|facility', 'ALL', 200, 2, 2],
      ['professional|global|non-facility', 'ALL', 85, 8, 4],
    ]);
  });

  it('takes the state of each provider from the registry', () => {
    // CA (NPIs 1, 2): professional 60 70 100 100 -> 85; institutional 200 (NPI 1); both 50 50
    // NY (NPIs 3, 4): professional 60 70 100 100 -> 85; institutional 200 (NPI 4); both 50 (NPI 3)
    expect(stats.filter((s) => s[1] !== 'ALL')).toEqual([
      ['both|global|non-facility', 'CA', 50, 2, 2],
      ['institutional|global|facility', 'CA', 200, 1, 1],
      ['professional|global|non-facility', 'CA', 85, 4, 2],
      ['both|global|non-facility', 'NY', 50, 1, 1],
      ['institutional|global|facility', 'NY', 200, 1, 1],
      ['professional|global|non-facility', 'NY', 85, 4, 2],
    ]);
  });

  it('leaves a rate that failed validation out of the medians, not out of the rates', async () => {
    const r = await spool.con.runAndReadAll(`SELECT median_rate, provider_count FROM ps_unvalidated
      WHERE billing_class = 'professional' AND component = 'global' AND setting = 'non-facility'`);
    // validation off: NPIs 1, 2, 3 also have 20 -> 20 20 20 60 60 70 70 100 100 100 100: 11 rows, 6th = 70
    expect(r.getRows()[0]!.map(Number)).toEqual([70, 4]);
  });

  it('keeps one rates row per price and group as published (never one per NPI)', async () => {
    // 9 raw rows, all resolved (g1, g2 declared)
    const r = await spool.con.runAndReadAll('SELECT count(*), count(provider_group_key) FROM rates');
    expect(r.getRows()[0]!.map(Number)).toEqual([9, 9]);
  });
});
