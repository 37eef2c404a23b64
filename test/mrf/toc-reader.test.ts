/**
 * The streaming table-of-contents reader (scripts/mrf/toc-reader.ts) on the real BCBS Texas index
 * and on hand-made ones: any chunking gives the same result; bad elements are reported and skipped;
 * a file that is not an object or ends early fails with its name and byte offset.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { readTableOfContents, type TocReportingStructure } from '../../scripts/mrf/toc-reader';
import { MrfReadError, type MrfProblem } from '../../scripts/mrf/types';

const BCBS_TX = readFileSync(new URL('../fixtures/toc/2024-10-21_Blue-Cross-and-Blue-Shield-of-Texas_161531026_index.json', import.meta.url));

async function* chunks(bytes: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let i = 0; i < bytes.length; i += size) yield Buffer.from(bytes.subarray(i, i + size));
}

async function read(bytes: Buffer, size = 65536): Promise<{ structures: TocReportingStructure[]; problems: MrfProblem[]; header: unknown; count: number }> {
  const structures: TocReportingStructure[] = [];
  const problems: MrfProblem[] = [];
  const r = await readTableOfContents('toc.json', chunks(bytes, size), (s) => void structures.push(s), problems);
  return { structures, problems, header: r.header, count: r.structures };
}

async function failure(text: string): Promise<MrfReadError> {
  try {
    await read(Buffer.from(text), 3);
  } catch (e) {
    return e as MrfReadError;
  }
  throw new Error('expected a failure');
}

describe('readTableOfContents', () => {
  it('reads the real BCBS Texas index: 1 structure, 2 plans, 262 files, allowed_amount_file array ignored', async () => {
    const { structures, problems, header } = await read(BCBS_TX);
    expect(header).toEqual({ reporting_entity_name: 'Blue Cross and Blue Shield of Texas', reporting_entity_type: 'third-party administrator', last_updated_on: '', version: '' });
    expect(structures).toHaveLength(1);
    expect(structures[0]!.reporting_plans).toEqual([
      { plan_name: '271314 2 PPO CDHP WITH HSA_N2N', plan_id_type: 'ein', plan_id: '16-1531026', plan_market_type: 'group' },
      { plan_name: '271313 1 PPO PPO PLAN_N2N', plan_id_type: 'ein', plan_id: '16-1531026', plan_market_type: 'group' },
    ]);
    expect(structures[0]!.in_network_files).toHaveLength(262);
    expect(structures[0]!.in_network_files[0]).toMatch(/^https:\/\/bcbstx\.mrf\.bcbs\.com\/2024-11_102_11B0_in-network-rates_1_of_6\.json\.gz\?&Expires=/);
    expect(problems).toEqual([]);
  });

  it('gives the same structures for 1-byte, 7-byte and 64 KiB chunks', async () => {
    const a = await read(BCBS_TX, 65536);
    expect(await read(BCBS_TX, 7)).toEqual(a);
    expect(await read(BCBS_TX, 1)).toEqual(a);
  });

  it('reads header keys after the array, a BOM, escapes, allowed_amount_file as object, and reports bad elements', async () => {
    const s1 = '{"reporting_plans":[{"plan_name":"A \\"quoted\\" plan","plan_id_type":"HIOS","plan_id":"12345CA0010001","plan_market_type":"Individual"}],' +
      '"in_network_files":[{"description":"x","location":"a.json"},{"description":"no location"}],"allowed_amount_file":{"description":"oon","location":"oon.json"}}';
    const bad = '{"reporting_plans": [oops]}';
    const s3 = '{"reporting_plans":[{"plan_name":"B","plan_id_type":"ein","plan_id":"16-1531026","plan_market_type":"group","plan_sponsor_name":"ACME","issuer_name":"Issuer"}],"in_network_files":[{"location":"https://h/b.json.gz?sig=1"}]}';
    const text = `\uFEFF{"version":"1.0.0","reporting_structure":[${s1},\n ${bad}, 7, ${s3}],"reporting_entity_name":"Late Name","reporting_entity_type":"issuer","last_updated_on":"2025-01-02"}\n`;
    const bytes = Buffer.from(text);
    const { structures, problems, header, count } = await read(bytes, 1);
    expect(header).toEqual({ reporting_entity_name: 'Late Name', reporting_entity_type: 'issuer', last_updated_on: '2025-01-02', version: '1.0.0' });
    expect(count).toBe(4);
    expect(structures.map((s) => [s.index, s.in_network_files])).toEqual([[0, ['a.json']], [3, ['https://h/b.json.gz?sig=1']]]);
    expect(structures[0]!.reporting_plans[0]).toEqual({ plan_name: 'A "quoted" plan', plan_id_type: 'hios', plan_id: '12345CA0010001', plan_market_type: 'individual' });
    expect(structures[1]!.reporting_plans[0]).toMatchObject({ plan_sponsor_name: 'ACME', issuer_name: 'Issuer' });
    // offsets are byte offsets of the decompressed stream (the BOM is 3 bytes)
    expect(bytes.subarray(structures[1]!.offset, structures[1]!.offset + 20).toString()).toBe(s3.slice(0, 20));
    expect(problems.map((p) => [p.code, p.path])).toEqual([
      ['missing_field', '$.reporting_structure[0].in_network_files[1].location'],
      ['invalid_json', '$.reporting_structure[1]'],
      ['invalid_field', '$.reporting_structure[2]'],
    ]);
    expect(problems[1]!.offset).toBe(bytes.indexOf(bad));
  });

  it('fails with the file name and byte offset on garbage, a root array, truncation and an empty file', async () => {
    expect(await failure('garbage')).toMatchObject({ file: 'toc.json', offset: 0 });
    expect((await failure('  [1, 2]')).offset).toBe(2);
    const cut = BCBS_TX.subarray(0, 50_000).toString();
    const e = await failure(cut);
    expect(e.message).toBe('toc.json: truncated JSON: the root object is not closed at byte 50000');
    expect((await failure('')).message).toMatch(/empty file/);
    expect((await failure('{"a":1} {')).message).toMatch(/data after the end of the root object at byte 8/);
    expect((await failure('{x}')).offset).toBe(1);
  });
});
