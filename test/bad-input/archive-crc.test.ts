/**
 * A zip entry whose bytes are not those of its CRC-32 (one digit of a rate corrupted, 131.38 ->
 * 931.38, which `unzip -t` calls a bad CRC) never enters a dataset: named by the catalog, the run
 * fails with one line naming the archive, the entry and both CRCs, the dataset byte for byte
 * unchanged; listed by a table of contents, the entry is recorded in report.json `failed_files` and
 * the run goes on without a row of it. Everything is generated under the OS temporary directory.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { DuckDBInstance } from '@duckdb/node-api';
import type { DatasetManifest } from '../../contract/files/dataset';
import type { ConversionReport } from '../../scripts/convert/common/problems';
import { buildZip, corruptDigit } from '../mrf/mrf-test-helpers';
import { catalogOf, item, leftovers, makeWorkspace, mrf, price, re, runCli, treeHash, type Workspace } from './harness';

let ws: Workspace;

beforeAll(async () => {
  ws = await makeWorkspace('archive-crc');
});

afterAll(async () => {
  await rm(ws.dir, { recursive: true, force: true });
});

/** A valid in-network file with a 99214 item at 131.38 after the harness's 99213 one. */
const RATED = Buffer.from(mrf([item('"99214"', price('131.38'))]));


const hex = (n: number): string => `0x${n.toString(16).padStart(8, '0')}`;
/** The reason the converter gives for entry `entry` holding `actual` where its record has the CRC of `expected`. */
const badCrc = (entry: string, actual: Buffer, expected: Buffer): string =>
  `corrupt zip archive (entry ${entry}: bad CRC-32 ${hex(crc32(actual))}, the central directory says ${hex(crc32(expected))}) at byte 0`;

/** The dataset's prices as `billing_code rate`, sorted. */
async function rates(out: string): Promise<string[]> {
  const db = await DuckDBInstance.create(':memory:');
  const con = await db.connect();
  const r = await con.runAndReadAll(`SELECT billing_code, negotiated_rate FROM '${path.join(out, 'rates', '*.parquet')}' ORDER BY 1, 2`);
  con.closeSync();
  return r.getRows().map(([c, v]) => `${String(c)} ${Number(v)}`);
}

describe('a zip entry that fails its CRC-32', () => {
  it('named by the catalog, fails the run naming archive, entry and CRCs; the dataset stays as it was', async () => {
    const zip = buildZip([{ name: 'in-network.json', data: RATED }]);
    const file = path.join(ws.dir, 'plan.zip');
    const catalog = path.join(ws.dir, 'catalog-plan.json');
    await writeFile(catalog, JSON.stringify(catalogOf(['good.json'], ['plan.zip'])));
    // the archive intact converts, its 131.38 in the dataset
    await writeFile(file, zip);
    expect(await runCli(['--catalog', catalog, '--out', ws.out])).toEqual({ code: 0, stderr: '' });
    expect(await rates(ws.out)).toEqual(['99213 100', '99213 100', '99214 131.38']);
    const before = await treeHash(ws.out);

    await writeFile(file, corruptDigit(zip));
    const r = await runCli(['--catalog', catalog, '--out', ws.out]);
    expect(r.stderr).toMatch(new RegExp(`^convert: ${re(file)}: ${re(badCrc('in-network.json', corruptDigit(RATED), RATED))}\\n$`));
    expect(r.code).toBe(1);
    expect(await treeHash(ws.out)).toEqual(before);
    expect(await leftovers(ws.out)).toEqual([]);
  });

  it('listed by a table of contents, is a failed file and gives no row; the other entry converts', async () => {
    const other = Buffer.from(mrf([item('"99215"', price('55.5'))]));
    await writeFile(path.join(ws.dir, 'bundle.zip'), corruptDigit(buildZip([{ name: 'a.json', data: other, deflate: true }, { name: 'b.json', data: RATED }])));
    await writeFile(path.join(ws.dir, 'toc.json'), JSON.stringify({
      reporting_entity_name: 'Index', reporting_entity_type: 'issuer',
      reporting_structure: [{ reporting_plans: [], in_network_files: [{ description: 'bundle', location: 'bundle.zip' }] }],
    }));
    const catalog = path.join(ws.dir, 'catalog-toc.json');
    await writeFile(catalog, JSON.stringify({ reference_insurer: 'z', insurers: [{ id: 'z', name: 'Zip', files: [{ snapshot: '2025-04', table_of_contents: 'toc.json' }] }] }));
    const out = path.join(ws.dir, 'out-toc');
    expect(await runCli(['--catalog', catalog, '--out', out])).toEqual({ code: 0, stderr: '' });
    const manifest = JSON.parse(await readFile(path.join(out, 'manifest.json'), 'utf8')) as DatasetManifest;
    const report = JSON.parse(await readFile(path.join(out, 'report.json'), 'utf8')) as ConversionReport;
    expect(manifest.sources.map((s) => s.url)).toEqual(['bundle.zip#a.json']);
    expect(report.failed_files).toEqual([{
      file: 'bundle.zip#b.json',
      // the archive's errors name the archive, and the entry in their reason
      reason: `${path.join(ws.dir, 'bundle.zip')}: ${badCrc('b.json', corruptDigit(RATED), RATED)}`,
    }]);
    expect(await rates(out)).toEqual(['99213 100', '99215 55.5']);
  });
});
