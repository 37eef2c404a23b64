/**
 * Strings over MAX_STRING_BYTES (long-strings.ts) through the converter's reading path
 * (reader-helpers.ts), at several chunk
 * sizes: cut at a character boundary to at most the limit, reported once with their JSON path and
 * the byte offset of their opening quote, and everything around them read as usual. The expected
 * texts are written out by hand from the bytes the test puts in.
 */
import { describe, expect, it } from 'vitest';
import { MAX_STRING_BYTES } from '../../scripts/mrf/long-strings';
import { readBytes } from './reader-helpers';

const L = MAX_STRING_BYTES;
const price = (info = 'ok'): string =>
  `{"negotiated_type":"negotiated","negotiated_rate":12.5,"expiration_date":"9999-12-31","billing_class":"professional","additional_information":"${info}"}`;
const item = (code: string, description: string, info?: string): string =>
  `{"negotiation_arrangement":"ffs","name":"N","billing_code_type":"CPT","billing_code_type_version":"2025","billing_code":"${code}",` +
  `"description":"${description}","negotiated_rates":[{"provider_groups":[{"npi":[1111111112],"tin":{"type":"ein","value":"1"}}],"negotiated_prices":[${price(info)}]}]}`;
const file = (entity: string, ...elements: string[]): string =>
  `{"reporting_entity_name":"${entity}","reporting_entity_type":"issuer","last_updated_on":"2025-07-01","version":"1.0.0","in_network":[${elements.join(',')}]}`;

/** Reads `json` in chunks of `size`; returns the items' descriptions and infos, the header's name and the problems (by offset). */
async function read(json: string, size: number, splitBytes?: number) {
  const r = await readBytes(Buffer.from(json), size, splitBytes ? { splitBytes } : {});
  return {
    descriptions: r.items.map((i) => i.description),
    infos: r.items.map((i) => i.negotiated_rates.map((rate) => rate.prices.map((p) => p.additional_information)).flat(2)),
    entity: r.header!.reporting_entity_name,
    problems: r.problems.map((p) => [p.code, p.path, p.offset]),
  };
}

const SIZES = [4093, 65536, 1 << 20];

describe('a string over the limit is cut to it and reported; the rest reads as usual', () => {
  it.each(SIZES)('a long description between two ordinary items (%i-byte chunks)', async (size) => {
    const long = 'x'.repeat(3 * L + 5);
    const json = file('E', item('1', 'first'), item('2', long), item('3', 'third'));
    const r = await read(json, size);
    expect(r.descriptions).toEqual(['first', 'x'.repeat(L), 'third']);
    expect(r.problems).toEqual([['string_too_long', '$.in_network[1].description', json.indexOf(`"${long}"`)]]);
  });

  it.each(SIZES)('exactly the limit is kept whole; one byte over is cut (%i-byte chunks)', async (size) => {
    const at = 'a'.repeat(L);
    const over = 'b'.repeat(L + 1);
    const json = file('E', item('1', at), item('2', over));
    const r = await read(json, size);
    expect(r.descriptions).toEqual([at, 'b'.repeat(L)]);
    expect(r.problems).toEqual([['string_too_long', '$.in_network[1].description', json.indexOf(`"${over}"`)]]);
  });

  it.each(SIZES)('the cut steps back over an escape or a UTF-8 character it would split (%i-byte chunks)', async (size) => {
    // bytes L-1 and L are `\"`, `é` (2 bytes), or the start of `\u00e9` (6 bytes)
    const quote = `${'q'.repeat(L - 1)}\\"${'q'.repeat(L)}`;
    const accent = `${'u'.repeat(L - 1)}é${'u'.repeat(100)}`;
    const escape = `${'e'.repeat(L - 3)}\\u00e9${'e'.repeat(L)}`;
    const backslashes = `${'s'.repeat(L - 2)}\\\\\\\\${'s'.repeat(50)}`;
    const json = file('E', item('1', quote), item('2', accent), item('3', escape), item('4', backslashes));
    const r = await read(json, size);
    expect(r.descriptions).toEqual(['q'.repeat(L - 1), 'u'.repeat(L - 1), 'e'.repeat(L - 3), `${'s'.repeat(L - 2)}\\`]);
    expect(r.problems.map((p) => p[1])).toEqual([1, 2, 3, 4].map((k) => `$.in_network[${k - 1}].description`));
  });

  it.each(SIZES)('two long strings in one element, in a price and in the header (%i-byte chunks)', async (size) => {
    const a = 'A'.repeat(L + 100);
    const b = 'B'.repeat(2 * L);
    const entity = 'E'.repeat(L + 7);
    const json = file(entity, item('1', a, b), item('2', 'short'));
    const r = await read(json, size);
    expect(r.descriptions).toEqual(['A'.repeat(L), 'short']);
    expect(r.infos).toEqual([['B'.repeat(L)], ['ok']]);
    expect(r.entity).toBe('E'.repeat(L));
    expect(r.problems).toEqual([
      ['string_too_long', '$.reporting_entity_name', json.indexOf(`"${entity}"`)],
      ['string_too_long', '$.in_network[0].description', json.indexOf(`"${a}"`)],
      ['string_too_long', '$.in_network[0].negotiated_rates[0].negotiated_prices[0].additional_information', json.indexOf(`"${b}"`)],
    ]);
  });

  it('a long string in a rate of a split item and in its head', async () => {
    const head = 'H'.repeat(L + 30);
    const info = 'I'.repeat(L + 3000);
    const json = file('E', item('1', head, info), item('2', 'after'));
    const r = await read(json, 65536, 64 * 1024);
    expect(r.descriptions).toEqual(['H'.repeat(L), 'after']);
    expect(r.infos).toEqual([['I'.repeat(L)], ['ok']]);
    expect(r.problems).toEqual([
      ['string_too_long', '$.in_network[0].description', json.indexOf(`"${head}"`)],
      ['string_too_long', '$.in_network[0].negotiated_rates[0].negotiated_prices[0].additional_information', json.indexOf(`"${info}"`)],
    ]);
  });

  it('a long string after the rates of a split item, whose head leaves them out', async () => {
    const tail = 'T'.repeat(L + 500);
    const info = 'I'.repeat(L + 3000);
    const moved = item('1', 'd', info).replace('"description":"d",', '').replace(/}$/, `,"description":"${tail}"}`);
    const json = file('E', moved, item('2', 'after'));
    const r = await read(json, 65536, 64 * 1024);
    expect(r.descriptions).toEqual(['T'.repeat(L), 'after']);
    expect(r.infos).toEqual([['I'.repeat(L)], ['ok']]);
    expect(r.problems.map((p) => p[1])).toEqual([
      '$.in_network[0].negotiated_rates[0].negotiated_prices[0].additional_information',
      '$.in_network[0].description',
    ]);
    expect(r.problems[1]![2]).toBe(json.indexOf(`"${tail}"`));
  });
});
