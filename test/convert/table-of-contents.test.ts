/**
 * Tables of contents in the catalog (docs/converter.md, The catalog; What it reads, and what it does with bad input): every `reporting_structure[].in_network_files`
 * is followed (relative locations resolved against the index's own location, on disk and over
 * HTTP), the reporting plans are recorded in `manifest.reporting_structures`, and a file that
 * cannot be fetched is recorded in report.json while the run goes on. The real BCBS Texas index
 * lists 262 internet URLs: its fetches fail at once (no DNS is asked).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import os from 'node:os';
import path from 'node:path';
import { convertCatalog } from '../../scripts/convert/index';
import type { ConversionReport } from '../../scripts/convert/common/problems';
import { failingFetch, startLocalHttp, type LocalHttp } from './local-http';
import { tinyInNetwork } from './tiny-mrf';

const BCBS_TX = path.resolve(__dirname, '../fixtures/toc/2024-10-21_Blue-Cross-and-Blue-Shield-of-Texas_161531026_index.json');

const plan = (name: string): object => ({ plan_name: name, plan_id_type: 'EIN', plan_id: '11-1111111', plan_market_type: 'group' });

let tmp: string;
let http: LocalHttp;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'compete-toc-'));
  http = await startLocalHttp({
    '/idx/toc.json': (_req, res) => void res.end(JSON.stringify({
      reporting_entity_name: 'Remote Index', reporting_entity_type: 'issuer',
      reporting_structure: [{ reporting_plans: [plan('P3')], in_network_files: [{ description: 'c', location: '../files/c.json' }] }],
    })),
    '/files/c.json': (_req, res) => void res.end(tinyInNetwork('99214', 140)),
  });
});

afterAll(async () => {
  await http.close();
  await rm(tmp, { recursive: true, force: true });
});

describe('tables of contents', () => {
  it('the real BCBS Texas index: 262 files unreachable and recorded, 2 plans recorded, a dataset still written', async () => {
    const dir = path.join(tmp, 'bcbstx');
    await mkdir(dir);
    await copyFile(BCBS_TX, path.join(dir, 'index.json'));
    await writeFile(path.join(dir, 'catalog.json'), JSON.stringify({
      reference_insurer: 'bcbstx', insurers: [{ id: 'bcbstx', name: 'BCBS TX', files: [{ snapshot: '2024-11', table_of_contents: 'index.json' }] }],
    }));
    const f = failingFetch();
    // every file fails, so the run has no rate row: it writes its dataset only when allowed to
    const { manifest } = await convertCatalog(path.join(dir, 'catalog.json'), path.join(dir, 'out'), { quiet: true, allowEmpty: true, fetchPolicy: { fetch: f.fetch, retries: 0 } });
    expect(f.calls).toHaveLength(262);
    const report = JSON.parse(await readFile(path.join(dir, 'out', 'report.json'), 'utf8')) as ConversionReport;
    expect(report.failed_files).toHaveLength(262);
    expect(report.failed_files[0]!.file).toMatch(/^https:\/\/bcbstx\.mrf\.bcbs\.com\/2024-11_102_11B0_in-network-rates_1_of_6\.json\.gz\?/);
    expect(report.failed_files[0]!.reason).toMatch(/cannot fetch \(fetch failed \(ENOTFOUND\)\) at byte 0$/);
    expect(manifest.sources).toEqual([]);
    expect(manifest.counts.rate_rows).toBe(0);
    expect(manifest.reporting_structures).toEqual([{
      insurer_id: 'bcbstx', snapshot: '2024-11', table_of_contents: 'index.json', reporting_entity_name: 'Blue Cross and Blue Shield of Texas',
      reporting_plans: [
        { plan_name: '271314 2 PPO CDHP WITH HSA_N2N', plan_id_type: 'ein', plan_id: '16-1531026', plan_market_type: 'group' },
        { plan_name: '271313 1 PPO PPO PLAN_N2N', plan_id_type: 'ein', plan_id: '16-1531026', plan_market_type: 'group' },
      ],
      plan_count: 2, in_network_files: 262, source_ids: [],
    }]);
  });

  it('follows every structure on disk: relative paths, gzip, a file shared by two structures read once, a missing one recorded', async () => {
    const dir = path.join(tmp, 'local');
    await mkdir(path.join(dir, 'toc', 'mrf'), { recursive: true });
    await writeFile(path.join(dir, 'toc', 'mrf', 'a.json'), tinyInNetwork('99213', 100));
    await writeFile(path.join(dir, 'toc', 'mrf', 'b.bin'), gzipSync(tinyInNetwork('99213', 110, 2222222220)));
    await writeFile(path.join(dir, 'toc', 'index.json'), JSON.stringify({
      reporting_entity_name: 'Local Index', reporting_entity_type: 'issuer',
      reporting_structure: [
        { reporting_plans: [plan('P1')], in_network_files: [{ description: 'a', location: 'mrf/a.json' }, { description: 'b', location: 'mrf/b.bin' }],
          allowed_amount_file: { description: 'oon', location: 'mrf/oon.json' } },
        { reporting_plans: [plan('P2'), plan('P2b')], in_network_files: [{ description: 'b', location: './mrf/b.bin' }, { description: 'gone', location: 'mrf/missing.json' }],
          allowed_amount_file: [{ description: 'oon', location: 'mrf/oon.json' }] },
      ],
    }));
    await writeFile(path.join(dir, 'catalog.json'), JSON.stringify({
      reference_insurer: 'loc',
      insurers: [
        { id: 'loc', name: 'Local', files: [{ snapshot: '2025-04', table_of_contents: 'toc/index.json' }] },
        { id: 'web', name: 'Web', files: [{ snapshot: '2025-04', table_of_contents: `${http.base}/idx/toc.json` }] },
      ],
    }));
    const { manifest } = await convertCatalog(path.join(dir, 'catalog.json'), path.join(dir, 'out'), { quiet: true });
    // a.json, b.bin (once), then c.json over HTTP (../files/c.json against /idx/toc.json)
    expect(manifest.sources.map((s) => [s.url, s.table_of_contents, s.rate_rows])).toEqual([
      ['mrf/a.json', 'toc/index.json', 1],
      ['mrf/b.bin', 'toc/index.json', 1],
      ['../files/c.json', `${http.base}/idx/toc.json`, 1],
    ]);
    expect(http.hits.get('/files/c.json')).toBe(1);
    expect(manifest.reporting_structures!.map((s) => [s.insurer_id, s.reporting_plans.map((p) => p.plan_name), s.in_network_files, s.source_ids])).toEqual([
      ['loc', ['P1'], 2, [0, 1]],
      ['loc', ['P2', 'P2b'], 2, [1]],
      ['web', ['P3'], 1, [2]],
    ]);
    const report = JSON.parse(await readFile(path.join(dir, 'out', 'report.json'), 'utf8')) as ConversionReport;
    expect(report.failed_files).toEqual([{ file: 'mrf/missing.json', reason: expect.stringMatching(/missing\.json: cannot open .*ENOENT.* at byte 0$/) as string }]);
  });

  it('a table of contents named by the catalog that cannot be read fails the run with its name and offset', async () => {
    const dir = path.join(tmp, 'broken');
    await mkdir(dir);
    await writeFile(path.join(dir, 'index.json'), '{"reporting_structure": [{"reporting_plans": []');
    await writeFile(path.join(dir, 'catalog.json'), JSON.stringify({
      reference_insurer: 'x', insurers: [{ id: 'x', name: 'X', files: [{ table_of_contents: 'index.json' }] }],
    }));
    await expect(convertCatalog(path.join(dir, 'catalog.json'), path.join(dir, 'out'), { quiet: true })).rejects.toThrow(
      'index.json: table of contents: truncated JSON: the root object is not closed at byte 47', // the file's 47 bytes
    );
  });
});
