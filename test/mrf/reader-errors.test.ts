// Bad input through the converter's reading path (readSource and the parse on this thread,
// reader-helpers.ts): fatal errors (MrfReadError with the file name and the decompressed byte
// offset) and tolerated defects (problems with JSON paths and element offsets; the rest of the file
// still read into the spool).
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { InProcessPool, removeSpool } from '../../scripts/convert/ingest/read-in-process';
import type { BatchMessage } from '../../scripts/convert/ingest/parse-pool';
import { readSource } from '../../scripts/convert/ingest/read-source';
import { MrfReadError } from '../../scripts/mrf/types';
import { chunked, fixtureBytes } from './mrf-test-helpers';
import { expectSameRead, readBothWays, readBytes, readPath } from './reader-helpers';

const HEAD = '"reporting_entity_name":"R","reporting_entity_type":"t",';
const price = (rate: string, extra = ''): string =>
  `{"negotiated_type":"negotiated","negotiated_rate":${rate},"expiration_date":"9999-12-31","billing_class":"professional"${extra}}`;
const item = (code: string, prices: string): string =>
  `{"negotiation_arrangement":"ffs","name":"n","billing_code_type":"CPT","billing_code_type_version":"2024","billing_code":${code},"description":"d","negotiated_rates":[{"provider_references":[1],"negotiated_prices":[${prices}]}]}`;

/** The refusal of reading `bytes` in chunks of `size`; fails the test when the read succeeds. */
async function readError(bytes: Uint8Array, size = 64 * 1024): Promise<MrfReadError> {
  const { fatal } = await readBytes(bytes, size);
  if (!fatal) throw new Error('the read did not fail');
  return fatal;
}

/** Expects `e` to be the refusal of `test.json` at decompressed byte `offset`, its reason matching `reason`, its message naming both. */
function expectReadError(e: unknown, offset: number, reason: RegExp): void {
  expect(e).toBeInstanceOf(MrfReadError);
  const err = e as MrfReadError;
  expect(err.name).toBe('MrfReadError');
  expect(err.file).toBe('test.json');
  expect(err.offset).toBe(offset);
  expect(err.reason).toMatch(reason);
  expect(err.message).toBe(`test.json: ${err.reason} at byte ${offset}`);
}

describe('fatal: MrfReadError names the file and the decompressed byte offset', () => {
  const sample = fixtureBytes('v1.3.1-in-network-rates-fee-for-service-single-plan-sample.json');

  it('empty file, also an empty gzip', async () => {
    expectReadError(await readError(Buffer.alloc(0)), 0, /^empty file$/);
    expectReadError(await readError(gzipSync(Buffer.alloc(0))), 0, /^empty file$/);
  });

  it('garbage, a root array, whitespace only', async () => {
    expectReadError(await readError(Buffer.from('hello world')), 0, /not JSON: expected '\{'.*'h'/);
    expectReadError(await readError(Buffer.from('  [1,2]')), 2, /not JSON/);
    expectReadError(await readError(Buffer.from(' \n ')), 3, /no JSON object/);
    // byte 8 is the 'x' where ',' or '}' must follow the root value 1
    expectReadError(await readError(Buffer.from('{"a": 1 x}')), 8, /expected ',' or '\}'.*'x'/);
    expectReadError(await readError(Buffer.from(`{${HEAD}"in_network":[{}}`)), Buffer.byteLength(`{${HEAD}"in_network":[{}`), /expected ',' or '\]'/);
  });

  it('truncated JSON: the stream ends inside the root object (plain and gzip, any chunking)', async () => {
    const cut = sample.subarray(0, 2000);
    expectReadError(await readError(cut), 2000, /truncated JSON/);
    expectReadError(await readError(cut, 1), 2000, /truncated JSON/);
    expectReadError(await readError(gzipSync(cut)), 2000, /truncated JSON/);
    // cut right after the last element: still inside the root object
    const text = sample.toString();
    expectReadError(await readError(Buffer.from(text.slice(0, text.lastIndexOf(']') + 1))), text.lastIndexOf(']') + 1, /truncated JSON/);
  });

  it('truncated gzip: offset = decompressed bytes delivered before the break', async () => {
    const gz = fixtureBytes('uhc-ny-TEST_FILE.json.gz');
    const err = await readError(gz.subarray(0, 400_000));
    expect(err).toBeInstanceOf(MrfReadError);
    expect(err.reason).toMatch(/truncated gzip/);
    // 400 KB of a 1.03 MB gzip of 16.99 MB JSON: somewhere strictly inside the JSON
    expect(err.offset).toBeGreaterThan(1_000_000);
    expect(err.offset).toBeLessThan(16_992_516);
  });

  it('corrupt gzip data and a corrupt gzip header', async () => {
    const gz = Buffer.from(fixtureBytes('uhc-ny-TEST_FILE.json.gz'));
    for (let k = 300_000; k < 300_064; k++) gz[k] = 0xff - gz[k]!;
    const e = await readError(gz);
    expect(e).toBeInstanceOf(MrfReadError);
    expect(e.reason).toMatch(/corrupt gzip/);
    expect(e.offset).toBeGreaterThan(0);
    const badHeader = Buffer.from([0x1f, 0x8b, 0x99, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3]);
    expectReadError(await readError(badHeader), 0, /corrupt gzip/);
  });

  it('a missing file fails at offset 0 naming the path (the converter opens it: open-sources.ts)', async () => {
    const { fatal } = await readPath('/nonexistent/x.json.gz');
    expect(fatal).toMatchObject({
      name: 'MrfReadError',
      file: '/nonexistent/x.json.gz',
      offset: 0,
      reason: expect.stringMatching(/^cannot open/),
    });
  });

  it('an error of the parse (the pool\'s send, a parser thread\'s failure) propagates unchanged and stops the read', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'compete-reader-errors-'));
    try {
      const gz = fixtureBytes('uhc-ny-TEST_FILE.json.gz');
      const pool = new InProcessPool(path.join(dir, 'p'), 1, () => true);
      const boom = new Error('disk full');
      const sent: Array<BatchMessage['kind']> = [];
      const failing = {
        send: (m: BatchMessage): Promise<void> => {
          sent.push(m.kind);
          return m.kind === 'in_network' ? Promise.reject(boom) : pool.send(m);
        },
        finish: () => pool.finish(),
      };
      let pulled = 0;
      async function* counted(): AsyncGenerator<Uint8Array> {
        for await (const c of chunked(gz, 4096)) {
          pulled++;
          yield c;
        }
      }
      await expect(readSource('x', counted(), failing, { sourceId: 1, dir })).rejects.toBe(boom);
      // the first batch of items failed (the 3 provider references wait in a batch not yet full);
      // nothing was read after it
      expect(sent).toEqual(['in_network']);
      expect(pulled).toBeLessThan(Math.ceil(gz.length / 4096) / 2);
      await removeSpool((await pool.finish())[0]!);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a broken zip is recognised by its magic bytes, whatever the name, and refused at offset 0', async () => {
    // zip archives are read (test/mrf/open-container-zip.test.ts); this one has no central directory
    const zip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(40)]);
    expectReadError(await readError(zip, 1), 0, /corrupt zip archive/);
  });
});

describe('tolerated problems: reported with paths and offsets, the rest of the file read', () => {
  const elements = [
    item('"1"', price('1')),
    item('"2"', [price('2'), price('"12.50"'), price('null'), price('NaN'), price('1e400'), price('3', ',"negotiated_type":"Capitated"').replace('"negotiated_type":"negotiated",', ''), price('4', '').replace('professional', 'Facility')].join(',')),
    item('99213', price('5')),
    item('null', price('6')).replace('"billing_code":null,', ''),
    `{"billing_code":"7","billing_code_type":"CPT","negotiated_rates":[{"negotiated_prices":[${price('7')}]}]}`,
    '{"billing_code":"8", oops}',
    item('"9"', price('-Infinity')),
    item('"10"', price('10')),
  ];
  const head = `{${HEAD}"in_network":[\n`;
  const text = `${head}${elements.join(',\n')}],"provider_references":[{"provider_group_id":1}]}\n trailing`;
  const offsets = elements.map((_, k) => Buffer.byteLength(head) + elements.slice(0, k).reduce((n, e) => n + Buffer.byteLength(e) + 2, 0));

  it('drops bad prices and items, keeps unknown enums and provider-less rates (fast and slow path)', async () => {
    const r = await readBothWays(Buffer.from(text));
    const one = await readBothWays(Buffer.from(text), 1);
    expectSameRead(one, r);
    expect(r.items.map((i) => i.billing_code)).toEqual(['1', '2', '7', '9', '10']);
    expect(r.totals).toMatchObject({ items: 5, providerReferences: 1, skippedItems: 0 });
    // item 2 keeps the prices 2, 3 (unknown type) and 4 (unknown class) of its 7
    const it2 = r.items[1]!.negotiated_rates[0]!.prices;
    expect(it2.map((p) => [p.negotiated_rate, p.negotiated_type, p.billing_class])).toEqual([
      [2, 'negotiated', 'professional'],
      [3, 'capitated', 'professional'],
      [4, 'negotiated', 'facility'],
    ]);
    expect(r.items[2]!.negotiated_rates).toEqual([{ rate: 0, provider_references: [], provider_groups: [], prices: [expect.objectContaining({ negotiated_rate: 7 })] }]);
    // item 9's one rate lost its one price: no price row, so no rate
    expect(r.items[3]!.negotiated_rates).toEqual([]);
    expect(r.refs).toEqual([{ index: 0, provider_group_id: '1', providers: [] }]);
    const p = (k: number, rest: string): string => `$.in_network[${k}]${rest}`;
    const ref = text.indexOf('{"provider_group_id":1}');
    // by offset, then code, then path (the two paths report one element's problems in their own order)
    expect(r.problems.map((x) => [x.code, x.path, x.offset])).toEqual([
      ['invalid_rate', p(1, '.negotiated_rates[0].negotiated_prices[1].negotiated_rate'), offsets[1]],
      ['invalid_rate', p(1, '.negotiated_rates[0].negotiated_prices[2].negotiated_rate'), offsets[1]],
      ['invalid_rate', p(1, '.negotiated_rates[0].negotiated_prices[3].negotiated_rate'), offsets[1]],
      ['invalid_rate', p(1, '.negotiated_rates[0].negotiated_prices[4].negotiated_rate'), offsets[1]],
      ['unknown_enum', p(1, '.negotiated_rates[0].negotiated_prices[5].negotiated_type'), offsets[1]],
      ['unknown_enum', p(1, '.negotiated_rates[0].negotiated_prices[6].billing_class'), offsets[1]],
      ['invalid_field', p(2, '.billing_code'), offsets[2]],
      ['missing_field', p(3, '.billing_code'), offsets[3]],
      ['missing_field', p(4, '.negotiation_arrangement'), offsets[4]],
      ['missing_providers', p(4, '.negotiated_rates[0]'), offsets[4]],
      ['invalid_json', p(5, ''), offsets[5]],
      ['invalid_rate', p(6, '.negotiated_rates[0].negotiated_prices[0].negotiated_rate'), offsets[6]],
      // the converter also reports the group's rates as unresolved
      ['empty_provider_group', '$.provider_references[0]', ref],
      ['missing_providers', '$.provider_references[0]', ref],
      ['trailing_data', '$', text.indexOf('trailing')],
    ]);
    const messages = r.problems.map((x) => x.message);
    expect(messages[0]).toContain('"12.50"');
    expect(messages[1]).toContain('null');
    expect(messages[2]).toContain('NaN');
    expect(messages[3]).toContain('Infinity (out of range)');
    expect(messages[6]).toContain('99213');
    expect(r.header).toEqual({ reporting_entity_name: 'R', reporting_entity_type: 't', last_updated_on: '', version: '' });
  });

  it('the offsets are where the elements start in the decompressed stream', async () => {
    for (let k = 0; k < elements.length; k++) expect(text.slice(offsets[k], offsets[k]! + 1)).toBe('{');
    expect(text.indexOf(elements[5]!)).toBe(offsets[5]);
    // and readSource sends each element with that offset
    const { sent } = await readBytes(Buffer.from(text), 7);
    expect(sent.filter((e) => e.kind === 'in_network').map((e) => e.offset)).toEqual(offsets);
  });

  it('a wrong in_network type is reported and skipped', async () => {
    const r = await readBothWays(Buffer.from(`{${HEAD}"in_network":{"a":1},"version":"2.0.0"}`));
    // offset of the value: 1 ('{') + HEAD + 13 ('"in_network":')
    expect(r.problems).toEqual([{ code: 'invalid_field', path: '$.in_network', offset: HEAD.length + 14, message: 'in_network is not an array; ignored' }]);
    expect(r.header).toMatchObject({ version: '2.0.0' });
    expect(r.items).toEqual([]);
  });
});
