// File shapes the converter's reading path (reader-helpers.ts) must accept: key order, BOM,
// multi-member gzip, raw id tokens, escapes across chunks, the normalisation rules of
// scripts/mrf/types.ts on the fast and the slow path, the billing-code filter, the pool's
// backpressure, progress.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { BatchMessage } from '../../scripts/convert/ingest/parse-pool';
import { InProcessPool, removeSpool } from '../../scripts/convert/ingest/read-in-process';
import { readSource } from '../../scripts/convert/ingest/read-source';
import { normalizeInNetworkItem } from '../../scripts/mrf/normalize-item';
import { parseElement } from '../../scripts/mrf/parse-element';
import type { MrfProvider } from '../../scripts/mrf/types';
import { chunked, FIXTURES, fixtureBytes, fixtureText } from './mrf-test-helpers';
import { expectSameRead, readBothWays, readBytes, readPath, type ReadRows } from './reader-helpers';

const price = (extra: string): string =>
  `{"negotiated_type":"negotiated","negotiated_rate":10.5,"expiration_date":"9999-12-31","billing_class":"professional"${extra}}`;
const item = (code: string, rates: string): string =>
  `{"negotiation_arrangement":"ffs","name":"n","billing_code_type":"CPT","billing_code_type_version":"2024","billing_code":${JSON.stringify(code)},"description":"d","negotiated_rates":[${rates}]}`;
const rate = (refIds: string, prices: string): string => `{"provider_references":[${refIds}],"negotiated_prices":[${prices}]}`;
const HEAD = '"reporting_entity_name":"R","reporting_entity_type":"t",';
const group = (id: string, npis: string, tin = '{"type":"ein","value":"11-1111111"}'): string =>
  `{"provider_group_id":${id},"provider_groups":[{"npi":[${npis}],"tin":${tin}}]}`;

describe('key order', () => {
  it('reads provider_references written after in_network, and the header\'s late fields', async () => {
    const text = `{"reporting_entity_name":"A","in_network":[${item('99213', rate('7', price('')))}],
      "provider_references":[${group('7', '1234567893')}],"reporting_entity_type":"insurer","last_updated_on":"2025-01-01","version":"1.0.0"}`;
    const r = await readBytes(Buffer.from(text));
    // offsets point at the element's '{' in the decompressed stream; each kind is batched on its own,
    // so the sends follow the file by kind, not across kinds
    expect([...r.sent].sort((a, b) => a.offset - b.offset)).toEqual([
      { kind: 'in_network', index: 0, rateIndex: 0, offset: text.indexOf('{"negotiation_arrangement"') },
      { kind: 'provider_references', index: 0, rateIndex: 0, offset: text.indexOf('{"provider_group_id"') },
    ]);
    expect(r.totals).toMatchObject({ items: 1, providerReferences: 1, skippedItems: 0 });
    expect(r.items[0]!.negotiated_rates[0]!.provider_references).toEqual(['7']);
    expect(r.refs).toEqual([{ index: 0, provider_group_id: '7', providers: [{ npi: '1234567893', tin_type: 'ein', tin_value: '11-1111111' }] }]);
    expect(r.header).toEqual({ reporting_entity_name: 'A', reporting_entity_type: 'insurer', last_updated_on: '2025-01-01', version: '1.0.0' });
  });

  it('keeps unknown root keys out of the way, plan_* fields in the header', async () => {
    const text = `{"plan_name":"P","plan_id_type":"EIN","plan_id":161531026,"plan_market_type":"group","extra":{"in_network":[1]},
      "reporting_entity_name":"A","reporting_entity_type":"t","provider_references":[],"in_network":[]}`;
    const r = await readBytes(Buffer.from(text));
    expect({ sent: r.sent, items: r.items, refs: r.refs, problems: r.problems }).toEqual({ sent: [], items: [], refs: [], problems: [] });
    expect(r.header).toEqual({
      reporting_entity_name: 'A', reporting_entity_type: 't', last_updated_on: '', version: '', plan_name: 'P', plan_id_type: 'EIN', plan_id: '161531026', plan_market_type: 'group',
    });
  });
});

/** A read's rows and offsets, offsets less `by` (a prefix such as a BOM moves every one), without the totals of the stored bytes. */
function shifted(r: ReadRows, by: number): unknown {
  return {
    ...r,
    totals: null,
    sent: r.sent.map((e) => ({ ...e, offset: e.offset - by })),
    problems: r.problems.map((p) => ({ ...p, offset: p.offset - by })),
  };
}

describe('containers and encodings', () => {
  const plain = fixtureBytes('v1.3.1-in-network-rates-fee-for-service-single-plan-sample.json');

  it('reads plain JSON with a UTF-8 BOM, also inside gzip, like the same JSON without', async () => {
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), plain]);
    const base = await readBytes(plain);
    const withBom = await readBytes(bom, 1);
    const gzBom = await readBytes(gzipSync(bom));
    expect(base.items).toHaveLength(2);
    // element and problem offsets shift by the 3 BOM bytes; everything else is equal
    expect(shifted(withBom, 3)).toEqual(shifted(base, 0));
    expect(shifted(gzBom, 3)).toEqual(shifted(base, 0));
    expect(withBom.totals?.jsonBytes).toBe(plain.length + 3);
  });

  it('reads a multi-member gzip split inside an element like the plain file', async () => {
    const text = fixtureText('uhc-ny-TEST_FILE.json.gz');
    const bytes = Buffer.from(text);
    const cut1 = 1_000_003;
    const cut2 = 9_000_011;
    const gz = Buffer.concat([gzipSync(bytes.subarray(0, cut1)), gzipSync(bytes.subarray(cut1, cut2)), gzipSync(bytes.subarray(cut2))]);
    const a = await readBytes(gz);
    const b = await readBytes(bytes);
    expect(a.sent.length).toBe(13673 + 3);
    expectSameRead({ ...a, totals: null }, { ...b, totals: null });
    expect(a.totals?.inputBytes).toBe(gz.length);
    expect(a.totals?.jsonBytes).toBe(bytes.length);
  });

  it('keeps strings with escapes, braces and multi-byte UTF-8 intact across 1-byte chunks', async () => {
    const desc = 'a \\"quoted\\" {brace} [bracket] back\\\\slash é 中 \\u00e9 \\\\';
    const text = `{"reporting_entity_name":"R \\"q\\" é","reporting_entity_type":"t","in_network":[
      ${item('0001A', rate('1', price(''))).replace('"description":"d"', `"description":"${desc}"`)},
      ${item('0002A', rate('1', price('')))}]}`;
    const one = await readBytes(Buffer.from(text), 1);
    const big = await readBothWays(Buffer.from(text));
    expectSameRead(one, big);
    expect(one.items.map((i) => i.description)).toEqual([JSON.parse(`"${desc}"`), 'd']);
    expect(one.header).toMatchObject({ reporting_entity_name: 'R "q" é' });
  });
});

describe('normalisation (scripts/mrf/types.ts), on the fast and the slow path', () => {
  it('keeps provider group id tokens as written', async () => {
    const text = `{"provider_references":[${group('690.64470', '1234567893')},${group('40.0000000001', '1234567893')},${group('12', '1234567893')}],
      "in_network":[${item('99213', rate('690.64470, 40.0000000001,12, 1.50e2', price('')))}]}`;
    const r = await readBothWays(Buffer.from(text));
    expect(r.refs.map((ref) => ref.provider_group_id)).toEqual(['690.64470', '40.0000000001', '12']);
    expect(r.items[0]!.negotiated_rates[0]!.provider_references).toEqual(['690.64470', '40.0000000001', '12', '1.50e2']);
  });

  it('flattens NPIs: N NPIs -> N providers with the TIN; [0], [] and absent -> one provider with npi null', async () => {
    const text = `{${HEAD}"provider_references":[
      {"provider_group_id":1,"provider_groups":[{"npi":[1111111111,2222222222],"tin":{"type":"EIN","value":" 11-1111111 "}},{"npi":[0],"tin":{"type":"npi","value":"3333333333"}}]},
      {"provider_group_id":2,"provider_groups":[{"npi":[],"tin":{"type":"ein","value":"222222222"}},{"tin":{"type":"ein","value":""}}]}],
      "in_network":[${item('99213', `{"provider_groups":[{"npi":[4444444444],"tin":{"type":"ein","value":"4"}},{"npi":[0,5555555555],"tin":{"type":"ein","value":"5"}}],"negotiated_prices":[${price('')}]}`)}]}`;
    const r = await readBothWays(Buffer.from(text));
    const p = (npi: string | null, tin_type: string, tin_value: string): MrfProvider => ({ npi, tin_type, tin_value });
    expect(r.refs.map((ref) => ref.providers)).toEqual([
      [p('1111111111', 'ein', '11-1111111'), p('2222222222', 'ein', '11-1111111'), p(null, 'npi', '3333333333')],
      [p(null, 'ein', '222222222'), p(null, 'ein', '')],
    ]);
    // inline groups: spooled once each under an `inline:` id the rate names
    expect(r.items[0]!.negotiated_rates[0]!.provider_groups).toEqual([[p('4444444444', 'ein', '4')], [p('5555555555', 'ein', '5')]]);
    expect(r.items[0]!.negotiated_rates[0]!.provider_references).toEqual([]);
    expect(r.problems).toEqual([]);
  });

  it('normalises enums, codes, place of service and modifiers; empty means absent', async () => {
    const odd =
      '{"negotiated_type":" Fee Schedule","negotiated_rate":0,"expiration_date":"2025-12-31","billing_class":"Professional","setting":"Outpatient",' +
      '"service_code":["1","11","9","01",""],"billing_code_modifier":["tc","26","TC",""],"additional_information":""}';
    const element = `{"negotiation_arrangement":"FFS","name":"n","billing_code_type":"cpt","billing_code_type_version":2024,
      "billing_code":" 0001A ","description":"d","negotiated_rates":[${rate('1', `${odd},${price(',"service_code":[],"billing_code_modifier":[]')}`)}],
      "bundled_codes":[{"billing_code_type":"cpt","billing_code":"99213","description":"x"}],"covered_services":[]}`;
    const text = `{${HEAD}"in_network":[${element}]}`;
    const r = await readBothWays(Buffer.from(text));
    const it0 = r.items[0]!;
    expect(it0).toMatchObject({ negotiation_arrangement: 'ffs', billing_code_type: 'CPT', billing_code: '0001A' });
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
    expect(r.problems).toEqual([]);
    // the spool keeps no version and no bundled or covered codes: their rules are the slow path's
    // normaliser's (spool-element.ts), checked on the element itself
    const parsed = parseElement(Buffer.from(element), 'in_network');
    if (!parsed.ok) throw new Error(parsed.reason);
    const normalised = normalizeInNetworkItem({ offset: 0, problems: [] }, parsed.value, '$.in_network[0]', false);
    expect(normalised).toMatchObject({ billing_code_type_version: '2024' });
    expect(normalised?.bundled_codes).toEqual([{ billing_code_type: 'CPT', billing_code: '99213', description: 'x' }]);
    expect(normalised?.covered_services).toBeUndefined();
  });
});

describe('options', () => {
  it('billingCodes skips other items before any parse; counts match an independent count', async () => {
    const text = fixtureText('uhc-ny-TEST_FILE.json.gz');
    const doc = JSON.parse(text) as { in_network: Array<{ billing_code: string }> };
    const wanted = new Set(['0001A', '99213', 'J3399', '70450']);
    const kept = doc.in_network.filter((i) => wanted.has(i.billing_code)).length;
    const r = await readBytes(fixtureBytes('uhc-ny-TEST_FILE.json.gz'), 64 * 1024, { billingCodes: wanted });
    expect(kept).toBeGreaterThan(0);
    expect(r.totals?.items).toBe(kept);
    expect(r.items).toHaveLength(kept);
    expect(r.totals?.skippedItems).toBe(doc.in_network.length - kept);
    // the items skipped were never sent to the parse
    expect(r.sent.filter((e) => e.kind === 'in_network')).toHaveLength(kept);
    expect(r.items.every((i) => wanted.has(i.billing_code))).toBe(true);
    expect(r.refs).toHaveLength(3);
  });

  it('billingCodes finds the item code after negotiated_rates and ignores bundled_codes codes', async () => {
    const late = `{"bundled_codes":[{"billing_code":"99213"}],"negotiated_rates":[${rate('1', price(''))}],"billing_code":"0002A"}`;
    const text = `{"in_network":[${late},${item('99213', rate('1', price('')))}]}`;
    const r = await readBothWays(Buffer.from(text), 64 * 1024, { billingCodes: new Set(['99213']) });
    expect(r.items.map((i) => i.billing_code)).toEqual(['99213']);
    expect(r.totals?.skippedItems).toBe(1);
  });

  it('readSource awaits a slow pool: one batch in flight at a time, each kind in file order, finish last', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'compete-reader-shapes-'));
    try {
      const pool = new InProcessPool(path.join(dir, 'p'), 1, () => true);
      const log: Array<[BatchMessage['kind'] | 'finish', number[]]> = [];
      let inFlight = 0;
      let most = 0;
      const slow = {
        send: async (m: BatchMessage): Promise<void> => {
          most = Math.max(most, ++inFlight);
          await new Promise((r) => setTimeout(r, 2));
          log.push([m.kind, m.elements.filter((_, k) => k % 6 === 0)]);
          await pool.send(m);
          inFlight--;
        },
        finish: () => {
          log.push(['finish', []]);
          return pool.finish();
        },
      };
      const result = await readSource('uhc', chunked(fixtureBytes('uhc-ny-TEST_FILE.json.gz'), 64 * 1024), slow, { sourceId: 1, dir });
      expect(most).toBe(1);
      expect(log.at(-1)![0]).toBe('finish');
      // every element of each kind once, in file order, over several batches
      const items = log.filter(([kind]) => kind === 'in_network');
      expect(items.length).toBeGreaterThan(2);
      expect(items.flatMap(([, ids]) => ids)).toEqual(Array.from({ length: 13673 }, (_, k) => k));
      expect(log.filter(([kind]) => kind === 'provider_references').flatMap(([, ids]) => ids)).toEqual([0, 1, 2]);
      expect(result.spooled[0]).toMatchObject({ items: 13673, providerReferences: 3 });
      await removeSpool(result.spooled[0]!);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('onProgress reports stored bytes against the file size, throttled, ending at the total', async () => {
    const file = fileURLToPath(new URL('carefirst-examplefile.json.gz', FIXTURES));
    const calls: Array<[number, number | null]> = [];
    const t0 = performance.now();
    const r = await readPath(file, { onProgress: (b, t) => void calls.push([b, t]) });
    const seconds = (performance.now() - t0) / 1000;
    expect(calls.at(-1)).toEqual([523118, 523118]);
    expect(r.totals?.inputBytes).toBe(523118);
    // at most ~10 a second: one per 100 ms window plus the final call
    expect(calls.length).toBeLessThanOrEqual(Math.ceil(seconds * 10) + 2);
    for (let k = 1; k < calls.length; k++) expect(calls[k]![0]).toBeGreaterThanOrEqual(calls[k - 1]![0]);
  });
});
