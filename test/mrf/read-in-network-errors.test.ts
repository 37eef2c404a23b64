// Bad input: fatal errors (MrfReadError with the file name and the decompressed byte offset) and
// tolerated defects (problems with JSON paths and element offsets; the rest of the file still read).
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readInNetworkFile, readInNetworkStream } from '../../scripts/mrf/read-in-network.js';
import { MrfReadError } from '../../scripts/mrf/types.js';
import { chunked, fixtureBytes, items, problems, readBytes, readError, recordingSink, refs } from './mrf-test-helpers.js';

const HEAD = '"reporting_entity_name":"R","reporting_entity_type":"t",';
const price = (rate: string, extra = ''): string =>
  `{"negotiated_type":"negotiated","negotiated_rate":${rate},"expiration_date":"9999-12-31","billing_class":"professional"${extra}}`;
const item = (code: string, prices: string): string =>
  `{"negotiation_arrangement":"ffs","name":"n","billing_code_type":"CPT","billing_code_type_version":"2024","billing_code":${code},"description":"d","negotiated_rates":[{"provider_references":[1],"negotiated_prices":[${prices}]}]}`;

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
    const e = await readError(gz.subarray(0, 400_000));
    expect(e).toBeInstanceOf(MrfReadError);
    const err = e as MrfReadError;
    expect(err.reason).toMatch(/truncated gzip/);
    // 400 KB of a 1.03 MB gzip of 16.99 MB JSON: somewhere strictly inside the JSON
    expect(err.offset).toBeGreaterThan(1_000_000);
    expect(err.offset).toBeLessThan(16_992_516);
  });

  it('corrupt gzip data and a corrupt gzip header', async () => {
    const gz = Buffer.from(fixtureBytes('uhc-ny-TEST_FILE.json.gz'));
    for (let k = 300_000; k < 300_064; k++) gz[k] = 0xff - gz[k]!;
    const e = (await readError(gz)) as MrfReadError;
    expect(e).toBeInstanceOf(MrfReadError);
    expect(e.reason).toMatch(/corrupt gzip/);
    expect(e.offset).toBeGreaterThan(0);
    const badHeader = Buffer.from([0x1f, 0x8b, 0x99, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3]);
    expectReadError(await readError(badHeader), 0, /corrupt gzip/);
  });

  it('a missing file fails at offset 0 naming the path', async () => {
    await expect(readInNetworkFile('/nonexistent/x.json.gz', recordingSink())).rejects.toMatchObject({
      name: 'MrfReadError',
      file: '/nonexistent/x.json.gz',
      offset: 0,
      reason: expect.stringMatching(/^cannot open/),
    });
  });

  it('an error thrown by the sink propagates unchanged and stops the read', async () => {
    const sink = recordingSink();
    const boom = new Error('disk full');
    sink.inNetworkItem = () => Promise.reject(boom);
    await expect(readInNetworkStream('x', chunked(fixtureBytes('uhc-ny-TEST_FILE.json.gz'), 65536), sink)).rejects.toBe(boom);
    expect(sink.events.filter((e) => e.kind === 'ref')).toHaveLength(3);
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

  it('drops bad prices and items, keeps unknown enums and provider-less rates', async () => {
    const { events, result } = await readBytes(Buffer.from(text));
    const one = await readBytes(Buffer.from(text), 1);
    expect(one.events).toEqual(events);
    expect(items(events).map((i) => i.billing_code)).toEqual(['1', '2', '7', '9', '10']);
    expect(result).toMatchObject({ inNetworkItems: 5, providerReferences: 1, skippedItems: 0 });
    // item 2 keeps the prices 2, 3 (unknown type) and 4 (unknown class) of its 7
    const it2 = items(events)[1]!.negotiated_rates[0]!.prices;
    expect(it2.map((p) => [p.negotiated_rate, p.negotiated_type, p.billing_class])).toEqual([
      [2, 'negotiated', 'professional'],
      [3, 'capitated', 'professional'],
      [4, 'negotiated', 'facility'],
    ]);
    expect(items(events)[2]!.negotiated_rates[0]).toEqual({ provider_references: [], provider_groups: [], prices: [expect.objectContaining({ negotiated_rate: 7 })] });
    expect(items(events)[3]!.negotiated_rates[0]!.prices).toEqual([]);
    expect(refs(events)).toEqual([{ provider_group_id: '1', providers: [] }]);
    const p = (k: number, rest: string): string => `$.in_network[${k}]${rest}`;
    const seen = problems(events).map((x) => [x.code, x.path, x.offset]);
    expect(seen).toEqual([
      ['invalid_rate', p(1, '.negotiated_rates[0].negotiated_prices[1].negotiated_rate'), offsets[1]],
      ['invalid_rate', p(1, '.negotiated_rates[0].negotiated_prices[2].negotiated_rate'), offsets[1]],
      ['invalid_rate', p(1, '.negotiated_rates[0].negotiated_prices[3].negotiated_rate'), offsets[1]],
      ['invalid_rate', p(1, '.negotiated_rates[0].negotiated_prices[4].negotiated_rate'), offsets[1]],
      ['unknown_enum', p(1, '.negotiated_rates[0].negotiated_prices[5].negotiated_type'), offsets[1]],
      ['unknown_enum', p(1, '.negotiated_rates[0].negotiated_prices[6].billing_class'), offsets[1]],
      ['invalid_field', p(2, '.billing_code'), offsets[2]],
      ['missing_field', p(3, '.billing_code'), offsets[3]],
      ['missing_providers', p(4, '.negotiated_rates[0]'), offsets[4]],
      ['missing_field', p(4, '.negotiation_arrangement'), offsets[4]],
      ['invalid_json', p(5, ''), offsets[5]],
      ['invalid_rate', p(6, '.negotiated_rates[0].negotiated_prices[0].negotiated_rate'), offsets[6]],
      ['missing_providers', '$.provider_references[0]', text.indexOf('{"provider_group_id":1}')],
      ['trailing_data', '$', text.indexOf('trailing')],
    ]);
    const messages = problems(events).map((x) => x.message);
    expect(messages[0]).toContain('"12.50"');
    expect(messages[1]).toContain('null');
    expect(messages[2]).toContain('NaN');
    expect(messages[3]).toContain('Infinity (out of range)');
    expect(messages[6]).toContain('99213');
    expect(events.at(-1)?.kind).toBe('header');
  });

  it('the offsets are where the elements start in the decompressed stream', () => {
    for (let k = 0; k < elements.length; k++) expect(text.slice(offsets[k], offsets[k]! + 1)).toBe('{');
    expect(text.indexOf(elements[5]!)).toBe(offsets[5]);
  });

  it('a wrong in_network type is reported and skipped', async () => {
    const { events } = await readBytes(Buffer.from(`{${HEAD}"in_network":{"a":1},"version":"2.0.0"}`));
    // offset of the value: 1 ('{') + HEAD + 13 ('"in_network":')
    expect(problems(events)).toEqual([{ code: 'invalid_field', path: '$.in_network', offset: HEAD.length + 14, message: 'in_network is not an array; ignored' }]);
    expect(events.at(-1)).toMatchObject({ header: { version: '2.0.0' } });
  });
});
