// File shapes the reader must accept: key order, BOM, multi-member gzip, raw id tokens, escapes
// across chunks, the normalisation rules of scripts/mrf/types.ts, the billing-code filter, progress.
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readInNetworkFile } from '../../scripts/mrf/read-in-network.js';
import type { MrfProvider } from '../../scripts/mrf/types.js';
import { FIXTURES, fixtureBytes, fixtureText, items, problems, readBytes, recordingSink, refs } from './mrf-test-helpers.js';

const price = (extra: string): string =>
  `{"negotiated_type":"negotiated","negotiated_rate":10.5,"expiration_date":"9999-12-31","billing_class":"professional"${extra}}`;
const item = (code: string, rates: string): string =>
  `{"negotiation_arrangement":"ffs","name":"n","billing_code_type":"CPT","billing_code_type_version":"2024","billing_code":${JSON.stringify(code)},"description":"d","negotiated_rates":[${rates}]}`;
const rate = (refIds: string, prices: string): string => `{"provider_references":[${refIds}],"negotiated_prices":[${prices}]}`;
const HEAD = '"reporting_entity_name":"R","reporting_entity_type":"t",';
const group = (id: string, npis: string, tin = '{"type":"ein","value":"11-1111111"}'): string =>
  `{"provider_group_id":${id},"provider_groups":[{"npi":[${npis}],"tin":${tin}}]}`;

describe('key order', () => {
  it('emits provider_references after in_network when written so, and the header last with late fields', async () => {
    const text = `{"reporting_entity_name":"A","in_network":[${item('99213', rate('7', price('')))}],
      "provider_references":[${group('7', '1234567893')}],"reporting_entity_type":"insurer","last_updated_on":"2025-01-01","version":"1.0.0"}`;
    const { events, result } = await readBytes(Buffer.from(text));
    expect(events.map((e) => e.kind)).toEqual(['item', 'ref', 'header']);
    expect(result).toMatchObject({ inNetworkItems: 1, providerReferences: 1, skippedItems: 0 });
    expect(events[2]).toEqual({
      kind: 'header',
      header: { reporting_entity_name: 'A', reporting_entity_type: 'insurer', last_updated_on: '2025-01-01', version: '1.0.0' },
    });
    // offsets point at the element's '{' in the decompressed stream
    expect(events[0]).toMatchObject({ offset: text.indexOf('{"negotiation_arrangement"') });
    expect(events[1]).toMatchObject({ offset: text.indexOf('{"provider_group_id"') });
  });

  it('keeps unknown root keys out of the way, plan_* fields in the header', async () => {
    const text = `{"plan_name":"P","plan_id_type":"EIN","plan_id":161531026,"plan_market_type":"group","extra":{"in_network":[1]},
      "reporting_entity_name":"A","reporting_entity_type":"t","provider_references":[],"in_network":[]}`;
    const { events } = await readBytes(Buffer.from(text));
    expect(events).toEqual([
      {
        kind: 'header',
        header: { reporting_entity_name: 'A', reporting_entity_type: 't', last_updated_on: '', version: '', plan_name: 'P', plan_id_type: 'EIN', plan_id: '161531026', plan_market_type: 'group' },
      },
    ]);
  });
});

describe('containers and encodings', () => {
  const plain = fixtureBytes('v1.3.1-in-network-rates-fee-for-service-single-plan-sample.json');

  it('reads plain JSON with a UTF-8 BOM, also inside gzip, like the same JSON without', async () => {
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), plain]);
    const base = await readBytes(plain);
    const withBom = await readBytes(bom, 1);
    const gzBom = await readBytes(gzipSync(bom));
    // element offsets shift by the 3 BOM bytes; everything else is equal
    const shift = (evs: typeof base.events): unknown[] => evs.map((e) => ('offset' in e ? { ...e, offset: e.offset - 3 } : e));
    expect(shift(withBom.events)).toEqual(base.events);
    expect(shift(gzBom.events)).toEqual(base.events);
    expect(withBom.result.jsonBytes).toBe(plain.length + 3);
  });

  it('reads a multi-member gzip split inside an element like the plain file', async () => {
    const text = fixtureText('uhc-ny-TEST_FILE.json.gz');
    const bytes = Buffer.from(text);
    const cut1 = 1_000_003;
    const cut2 = 9_000_011;
    const gz = Buffer.concat([gzipSync(bytes.subarray(0, cut1)), gzipSync(bytes.subarray(cut1, cut2)), gzipSync(bytes.subarray(cut2))]);
    const a = await readBytes(gz);
    const b = await readBytes(bytes);
    expect(a.events.length).toBe(13673 + 3 + 1);
    expect(a.events).toEqual(b.events);
    expect(a.result.inputBytes).toBe(gz.length);
    expect(a.result.jsonBytes).toBe(bytes.length);
  });

  it('keeps strings with escapes, braces and multi-byte UTF-8 intact across 1-byte chunks', async () => {
    const desc = 'a \\"quoted\\" {brace} [bracket] back\\\\slash é 中 \\u00e9 \\\\';
    const text = `{"reporting_entity_name":"R \\"q\\" é","reporting_entity_type":"t","in_network":[
      ${item('0001A', rate('1', price(''))).replace('"description":"d"', `"description":"${desc}"`)},
      ${item('0002A', rate('1', price('')))}]}`;
    const one = await readBytes(Buffer.from(text), 1);
    const big = await readBytes(Buffer.from(text));
    expect(one.events).toEqual(big.events);
    expect(items(one.events).map((i) => i.description)).toEqual([JSON.parse(`"${desc}"`), 'd']);
    expect(one.events.at(-1)).toMatchObject({ header: { reporting_entity_name: 'R "q" é' } });
  });
});

describe('normalisation (scripts/mrf/types.ts)', () => {
  it('keeps provider group id tokens as written', async () => {
    const text = `{"provider_references":[${group('690.64470', '1234567893')},${group('40.0000000001', '1234567893')},${group('12', '1234567893')}],
      "in_network":[${item('99213', rate('690.64470, 40.0000000001,12, 1.50e2', price('')))}]}`;
    const { events } = await readBytes(Buffer.from(text));
    expect(refs(events).map((r) => r.provider_group_id)).toEqual(['690.64470', '40.0000000001', '12']);
    expect(items(events)[0]!.negotiated_rates[0]!.provider_references).toEqual(['690.64470', '40.0000000001', '12', '1.50e2']);
  });

  it('flattens NPIs: N NPIs -> N providers with the TIN; [0], [] and absent -> one provider with npi null', async () => {
    const text = `{${HEAD}"provider_references":[
      {"provider_group_id":1,"provider_groups":[{"npi":[1111111111,2222222222],"tin":{"type":"EIN","value":" 11-1111111 "}},{"npi":[0],"tin":{"type":"npi","value":"3333333333"}}]},
      {"provider_group_id":2,"provider_groups":[{"npi":[],"tin":{"type":"ein","value":"222222222"}},{"tin":{"type":"ein","value":""}}]}],
      "in_network":[${item('99213', `{"provider_groups":[{"npi":[4444444444],"tin":{"type":"ein","value":"4"}},{"npi":[0,5555555555],"tin":{"type":"ein","value":"5"}}],"negotiated_prices":[${price('')}]}`)}]}`;
    const { events } = await readBytes(Buffer.from(text));
    const p = (npi: string | null, tin_type: string, tin_value: string): MrfProvider => ({ npi, tin_type, tin_value });
    expect(refs(events).map((r) => r.providers)).toEqual([
      [p('1111111111', 'ein', '11-1111111'), p('2222222222', 'ein', '11-1111111'), p(null, 'npi', '3333333333')],
      [p(null, 'ein', '222222222'), p(null, 'ein', '')],
    ]);
    expect(items(events)[0]!.negotiated_rates[0]!.provider_groups).toEqual([[p('4444444444', 'ein', '4')], [p('5555555555', 'ein', '5')]]);
    expect(problems(events)).toEqual([]);
  });

  it('normalises enums, codes, place of service and modifiers; empty means absent', async () => {
    const odd =
      '{"negotiated_type":" Fee Schedule","negotiated_rate":0,"expiration_date":"2025-12-31","billing_class":"Professional","setting":"Outpatient",' +
      '"service_code":["1","11","9","01",""],"billing_code_modifier":["tc","26","TC",""],"additional_information":""}';
    const text = `{${HEAD}"in_network":[{"negotiation_arrangement":"FFS","name":"n","billing_code_type":"cpt","billing_code_type_version":2024,
      "billing_code":" 0001A ","description":"d","negotiated_rates":[${rate('1', `${odd},${price(',"service_code":[],"billing_code_modifier":[]')}`)}],
      "bundled_codes":[{"billing_code_type":"cpt","billing_code":"99213","description":"x"}],"covered_services":[]}]}`;
    const { events } = await readBytes(Buffer.from(text));
    const it0 = items(events)[0]!;
    expect(it0).toMatchObject({ negotiation_arrangement: 'ffs', billing_code_type: 'CPT', billing_code_type_version: '2024', billing_code: '0001A' });
    expect(it0.bundled_codes).toEqual([{ billing_code_type: 'CPT', billing_code: '99213', description: 'x' }]);
    expect(it0.covered_services).toBeUndefined();
    expect(it0.negotiated_rates[0]!.prices).toEqual([
      {
        negotiated_type: 'fee schedule',
        negotiated_rate: 0,
        expiration_date: '2025-12-31',
        billing_class: 'professional',
        service_code: ['01', '09', '11'],
        billing_code_modifier: ['26', 'TC'],
        additional_information: '',
        setting: 'outpatient',
      },
      {
        negotiated_type: 'negotiated',
        negotiated_rate: 10.5,
        expiration_date: '9999-12-31',
        billing_class: 'professional',
        service_code: [],
        billing_code_modifier: [],
        additional_information: '',
        setting: '',
      },
    ]);
    expect(problems(events)).toEqual([]);
  });
});

describe('options', () => {
  it('billingCodes skips other items without emitting them; counts match an independent count', async () => {
    const text = fixtureText('uhc-ny-TEST_FILE.json.gz');
    const doc = JSON.parse(text) as { in_network: Array<{ billing_code: string }> };
    const wanted = new Set(['0001A', '99213', 'J3399', '70450']);
    const kept = doc.in_network.filter((i) => wanted.has(i.billing_code)).length;
    const { events, result } = await readBytes(fixtureBytes('uhc-ny-TEST_FILE.json.gz'), 64 * 1024, { billingCodes: wanted });
    expect(kept).toBeGreaterThan(0);
    expect(result.inNetworkItems).toBe(kept);
    expect(result.skippedItems).toBe(doc.in_network.length - kept);
    expect(items(events).every((i) => wanted.has(i.billing_code))).toBe(true);
    expect(refs(events)).toHaveLength(3);
  });

  it('billingCodes finds the item code after negotiated_rates and ignores bundled_codes codes', async () => {
    const late = `{"bundled_codes":[{"billing_code":"99213"}],"negotiated_rates":[${rate('1', price(''))}],"billing_code":"0002A"}`;
    const text = `{"in_network":[${late},${item('99213', rate('1', price('')))}]}`;
    const { events, result } = await readBytes(Buffer.from(text), 64 * 1024, { billingCodes: new Set(['99213']) });
    expect(items(events).map((i) => i.billing_code)).toEqual(['99213']);
    expect(result.skippedItems).toBe(1);
  });

  it('awaits an asynchronous sink: events stay in file order', async () => {
    const order: string[] = [];
    const wait = (): Promise<void> => new Promise((r) => setTimeout(r, 1));
    const sink = {
      header: async () => void order.push('header'),
      providerReference: async (r: { provider_group_id: string }) => {
        await wait();
        order.push(`ref ${r.provider_group_id}`);
      },
      inNetworkItem: async (i: { billing_code: string }) => {
        await wait();
        order.push(`item ${i.billing_code}`);
      },
      problem: async () => void order.push('problem'),
    };
    const path = fileURLToPath(new URL('v1.3.1-in-network-rates-fee-for-service-single-plan-sample.json', FIXTURES));
    await readInNetworkFile(path, sink);
    expect(order).toEqual(['ref 1', 'ref 2', 'item 27447', 'item 27448', 'header']);
  });

  it('onProgress reports stored bytes against the file size, throttled, ending at the total', async () => {
    const path = fileURLToPath(new URL('carefirst-examplefile.json.gz', FIXTURES));
    const calls: Array<[number, number | null]> = [];
    const t0 = performance.now();
    const result = await readInNetworkFile(path, recordingSink(), { onProgress: (b, t) => void calls.push([b, t]) });
    const seconds = (performance.now() - t0) / 1000;
    expect(calls.at(-1)).toEqual([523118, 523118]);
    expect(result.inputBytes).toBe(523118);
    // at most ~10 a second: one per 100 ms window plus the final call
    expect(calls.length).toBeLessThanOrEqual(Math.ceil(seconds * 10) + 2);
    for (let k = 1; k < calls.length; k++) expect(calls[k]![0]).toBeGreaterThanOrEqual(calls[k - 1]![0]);
  });
});
