// The reader over every fixture in test/fixtures/mrf: counts against an independent whole-document
// count, the CareFirst raw ids, the UHC file's groups, and identical events whatever the chunking.
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readInNetworkFile } from '../../scripts/mrf/read-in-network.js';
import {
  FIXTURES,
  eventCounts,
  fixtureBytes,
  fixtureText,
  independentCounts,
  items,
  problems,
  readBytes,
  recordingSink,
  refs,
} from './mrf-test-helpers.js';

const names = readdirSync(FIXTURES).filter((f) => f.endsWith('.json') || f.endsWith('.json.gz')).sort();
const CAREFIRST = 'carefirst-examplefile.json.gz';
const UHC = 'uhc-ny-TEST_FILE.json.gz';

describe('readInNetworkFile over every fixture', () => {
  it('finds the 2 real samples and 11 CMS examples (5 v1.3.1 + 6 v2.2.0)', () => {
    expect(names).toHaveLength(13);
    expect(names.filter((n) => n.startsWith('v1.3.1-'))).toHaveLength(5);
    expect(names.filter((n) => n.startsWith('v2.2.0-'))).toHaveLength(6);
  });

  for (const name of names) {
    it(`${name}: counts equal an independent JSON.parse count, no problems`, async () => {
      const sink = recordingSink();
      const path = fileURLToPath(new URL(name, FIXTURES));
      const result = await readInNetworkFile(path, sink);
      const text = fixtureText(name);
      const expected = independentCounts(text);
      expect(eventCounts(sink.events)).toEqual(expected);
      expect(problems(sink.events)).toEqual([]);
      expect(result.inNetworkItems).toBe(expected.items);
      expect(result.providerReferences).toBe(expected.references);
      expect(result.skippedItems).toBe(0);
      expect(result.jsonBytes).toBe(Buffer.byteLength(text));
      expect(result.inputBytes).toBe(fixtureBytes(name).length);
      expect(result.sha256).toMatch(/^[0-9a-f]{64}$/);
      // the header comes once, last
      expect(sink.events.filter((e) => e.kind === 'header')).toHaveLength(1);
      expect(sink.events.at(-1)?.kind).toBe('header');
    });
  }
});

describe('CareFirst real sample (remote provider references, decimal ids)', () => {
  it('matches the published totals and keeps every id token as written', async () => {
    const { events, result } = await readBytes(fixtureBytes(CAREFIRST));
    // the published file's totals: 370 remote references, 1,773 CPT items, 122,310 prices
    expect(eventCounts(events)).toMatchObject({ items: 1773, prices: 122310, references: 370, referenceProviders: 0 });
    expect(result.jsonBytes).toBe(29659798);
    const text = fixtureText(CAREFIRST);
    const declared = [...text.matchAll(/"provider_group_id":\s*([-0-9.eE]+)/g)].map((m) => m[1]);
    expect(refs(events).map((r) => r.provider_group_id)).toEqual(declared);
    expect(declared).toContain('690.64470');
    const used = [...text.matchAll(/"provider_references":\s*\[([-0-9.eE,\s]*)\]/g)].flatMap((m) => m[1]!.split(',').map((s) => s.trim()));
    const emitted = items(events).flatMap((it) => it.negotiated_rates.flatMap((r) => r.provider_references));
    expect(emitted).toEqual(used);
    expect(emitted.some((id) => /0$/.test(id))).toBe(true);
    // only 74 of the 370 declared groups are referenced (docs/converter.md, Quirks of real files)
    expect(new Set(emitted).size).toBe(74);
    for (const r of refs(events)) {
      expect(r.location).toMatch(/^https:\/\/mrf\.carefirst\.com\/mrf-files\/\d+_041\.json$/);
      expect(r.providers).toEqual([]);
    }
    expect(refs(events).find((r) => r.provider_group_id === '690.64470')?.location).toBe('https://mrf.carefirst.com/mrf-files/46201_041.json');
    const header = events.at(-1);
    expect(header).toEqual({
      kind: 'header',
      header: { reporting_entity_name: 'CareFirst BlueCross BlueShield', reporting_entity_type: 'health insurance issuer', last_updated_on: '2020-08-27', version: '1.0.0' },
    });
  });
});

describe('UHC New York real sample (TEST_FILE)', () => {
  it('matches the published totals and flattens groups to one entry per NPI', async () => {
    const { events } = await readBytes(fixtureBytes(UHC));
    // the published file's totals: 3 provider groups, 13,673 items, 51,712 prices; NPIs 3 + (16 + 5) + 6 = 30
    expect(eventCounts(events)).toMatchObject({ items: 13673, prices: 51712, references: 3, referenceProviders: 30 });
    const group1 = refs(events)[1]!;
    expect(group1.provider_group_id).toBe('1');
    expect(group1.providers).toHaveLength(21);
    expect(group1.providers[0]).toEqual({ npi: '1285613760', tin_type: 'ein', tin_value: '112923650' });
    expect(group1.providers[20]).toEqual({ npi: '1457650962', tin_type: 'ein', tin_value: '262306566' });
    const first = items(events)[0]!;
    expect(first.billing_code).toBe('0001A');
    expect(first.negotiated_rates[0]!.provider_references).toEqual(['2']);
    // every UHC price has service_code ["11"] (already two digits), modifiers [] or one of 26/TC/...
    const prices = items(events).flatMap((it) => it.negotiated_rates.flatMap((r) => r.prices));
    expect(new Set(prices.map((p) => p.service_code.join(',')))).toEqual(new Set(['11']));
    expect(prices.filter((p) => p.billing_code_modifier.join() === 'TC')).toHaveLength(2878);
    expect(prices.every((p) => p.additional_information === '' && p.setting === '')).toBe(true);
  });
});

describe('chunk boundaries', () => {
  const small = names.filter((n) => n.endsWith('.json'));
  for (const name of small) {
    it(`${name}: 1-byte, 7-byte and 64 KiB chunks give identical events`, async () => {
      const bytes = fixtureBytes(name);
      const a = await readBytes(bytes, 1);
      const b = await readBytes(bytes, 7);
      const c = await readBytes(bytes, 64 * 1024);
      expect(a.events).toEqual(c.events);
      expect(b.events).toEqual(c.events);
      expect(a.result).toEqual(c.result);
    });
  }

  it('CareFirst decompressed, 7-byte and 64 KiB chunks of plain JSON give identical events', async () => {
    const text = Buffer.from(fixtureText(CAREFIRST));
    const b = await readBytes(text, 7);
    const c = await readBytes(text, 64 * 1024);
    expect(b.events.length).toBe(1773 + 370 + 1);
    expect(b.events).toEqual(c.events);
  });

  it('UHC gzip fed in 7-byte compressed chunks gives the events of 64 KiB chunks', async () => {
    const gz = fixtureBytes(UHC);
    const b = await readBytes(gz, 7);
    const c = await readBytes(gz, 64 * 1024);
    expect(b.events).toEqual(c.events);
  });

  it('a small gzip fed in 1-byte compressed chunks (magic bytes split) reads as in one chunk', async () => {
    const gz = gzipSync(fixtureBytes('v1.3.1-in-network-rates-fee-for-service-single-plan-sample.json'));
    const a = await readBytes(gz, 1);
    const c = await readBytes(gz, 64 * 1024);
    expect(eventCounts(a.events)).toMatchObject({ items: 2, references: 2 });
    expect(a.events).toEqual(c.events);
  });
});
