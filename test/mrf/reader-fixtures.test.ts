// The converter's reading path (reader-helpers.ts) over every fixture in test/fixtures/mrf: the
// spooled rows counted against an independent whole-document count, the CareFirst raw ids, the UHC
// file's groups, and identical rows and element offsets whatever the chunking.
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { FIXTURES, fixtureBytes, fixtureText, independentCounts } from './mrf-test-helpers';
import { expectSameRead, readBytes, readPath, rowCounts } from './reader-helpers';

const names = readdirSync(FIXTURES).filter((f) => f.endsWith('.json') || f.endsWith('.json.gz')).sort();
const CAREFIRST = 'carefirst-examplefile.json.gz';
const UHC = 'uhc-ny-TEST_FILE.json.gz';

/** The root fields of a fixture the header holds, and its remote provider references (a `location`, no groups), by JSON.parse. */
function rootOf(text: string): { name: string; remote: number } {
  const doc = JSON.parse(text) as { reporting_entity_name?: string; provider_references?: Array<{ location?: string; provider_groups?: unknown[] }> };
  const remote = (doc.provider_references ?? []).filter((r) => r.location !== undefined && (r.provider_groups ?? []).length === 0).length;
  return { name: doc.reporting_entity_name ?? '', remote };
}

describe('every fixture, opened as a conversion opens it', () => {
  it('finds the 2 real samples and 11 CMS examples (5 v1.3.1 + 6 v2.2.0)', () => {
    expect(names).toHaveLength(13);
    expect(names.filter((n) => n.startsWith('v1.3.1-'))).toHaveLength(5);
    expect(names.filter((n) => n.startsWith('v2.2.0-'))).toHaveLength(6);
  });

  for (const name of names) {
    it(`${name}: counts equal an independent JSON.parse count, no problem but the remote groups, fast path = slow path`, async () => {
      const file = fileURLToPath(new URL(name, FIXTURES));
      const r = await readPath(file);
      const text = fixtureText(name);
      const expected = independentCounts(text);
      expect(rowCounts(r)).toEqual(expected);
      // a remote group is not fetched here: the converter reports it unresolved, nothing else
      const root = rootOf(text);
      expect(r.counts).toEqual(root.remote > 0 ? { unresolved_remote_reference: root.remote } : {});
      expect(r.problems.every((p) => p.code === 'unresolved_remote_reference')).toBe(true);
      expect(r.totals).toEqual({
        items: expected.items,
        providerReferences: expected.references,
        skippedItems: 0,
        jsonBytes: Buffer.byteLength(text),
        inputBytes: fixtureBytes(name).length,
        sha256: createHash('sha256').update(fixtureBytes(name)).digest('hex'),
      });
      expect(r.header?.reporting_entity_name).toBe(root.name);
      expectSameRead(await readPath(file, { slow: true }), r);
    });
  }
});

describe('CareFirst real sample (remote provider references, decimal ids)', () => {
  it('matches the published totals and keeps every id token as written', async () => {
    const r = await readBytes(fixtureBytes(CAREFIRST));
    // the published file's totals: 370 remote references, 1,773 CPT items, 122,310 prices
    expect(rowCounts(r)).toMatchObject({ items: 1773, prices: 122310, references: 370, referenceProviders: 0 });
    expect(r.totals?.jsonBytes).toBe(29659798);
    const text = fixtureText(CAREFIRST);
    const declared = [...text.matchAll(/"provider_group_id":\s*([-0-9.eE]+)/g)].map((m) => m[1]);
    expect(r.refs.map((ref) => ref.provider_group_id)).toEqual(declared);
    expect(declared).toContain('690.64470');
    const used = [...text.matchAll(/"provider_references":\s*\[([-0-9.eE,\s]*)\]/g)].flatMap((m) => m[1]!.split(',').map((s) => s.trim()));
    const spooled = r.items.flatMap((it) => it.negotiated_rates.flatMap((rate) => rate.provider_references));
    expect(spooled).toEqual(used);
    expect(spooled.some((id) => /0$/.test(id))).toBe(true);
    // only 74 of the 370 declared groups are referenced (docs/converter.md, Quirks of real files)
    expect(new Set(spooled).size).toBe(74);
    for (const ref of r.refs) {
      expect(ref.location).toMatch(/^https:\/\/mrf\.carefirst\.com\/mrf-files\/\d+_041\.json$/);
      expect(ref.providers).toEqual([]);
    }
    expect(r.refs.find((ref) => ref.provider_group_id === '690.64470')?.location).toBe('https://mrf.carefirst.com/mrf-files/46201_041.json');
    expect(r.counts).toEqual({ unresolved_remote_reference: 370 });
    expect(r.header).toEqual({
      reporting_entity_name: 'CareFirst BlueCross BlueShield', reporting_entity_type: 'health insurance issuer', last_updated_on: '2020-08-27', version: '1.0.0',
    });
  });
});

describe('UHC New York real sample (TEST_FILE)', () => {
  it('matches the published totals and flattens groups to one entry per NPI', async () => {
    const r = await readBytes(fixtureBytes(UHC));
    // the published file's totals: 3 provider groups, 13,673 items, 51,712 prices; NPIs 3 + (16 + 5) + 6 = 30
    expect(rowCounts(r)).toMatchObject({ items: 13673, prices: 51712, references: 3, referenceProviders: 30 });
    const group1 = r.refs[1]!;
    expect(group1.provider_group_id).toBe('1');
    expect(group1.providers).toHaveLength(21);
    expect(group1.providers[0]).toEqual({ npi: '1285613760', tin_type: 'ein', tin_value: '112923650' });
    expect(group1.providers[20]).toEqual({ npi: '1457650962', tin_type: 'ein', tin_value: '262306566' });
    const first = r.items[0]!;
    expect(first.billing_code).toBe('0001A');
    expect(first.negotiated_rates[0]!.provider_references).toEqual(['2']);
    // every UHC price has service_code ["11"] (already two digits), modifiers [] or one of 26/TC/...
    const prices = r.items.flatMap((it) => it.negotiated_rates.flatMap((rate) => rate.prices));
    expect(new Set(prices.map((p) => p.service_code.join(',')))).toEqual(new Set(['11']));
    expect(prices.filter((p) => p.billing_code_modifier.join() === 'TC')).toHaveLength(2878);
    expect(prices.every((p) => p.additional_information === '' && p.setting === '')).toBe(true);
  });
});

describe('chunk boundaries', () => {
  const small = names.filter((n) => n.endsWith('.json'));
  for (const name of small) {
    it(`${name}: 1-byte, 7-byte and 64 KiB chunks give identical rows and element offsets`, async () => {
      const bytes = fixtureBytes(name);
      const a = await readBytes(bytes, 1);
      const b = await readBytes(bytes, 7);
      const c = await readBytes(bytes, 64 * 1024);
      expect(c.items.length).toBeGreaterThan(0);
      expectSameRead(a, c);
      expectSameRead(b, c);
    });
  }

  it('CareFirst decompressed, 7-byte and 64 KiB chunks of plain JSON give identical rows', async () => {
    const text = Buffer.from(fixtureText(CAREFIRST));
    const b = await readBytes(text, 7);
    const c = await readBytes(text, 64 * 1024);
    expect(b.sent.length).toBe(1773 + 370);
    expectSameRead(b, c);
  });

  it('UHC gzip fed in 7-byte compressed chunks gives the rows of 64 KiB chunks', async () => {
    const gz = fixtureBytes(UHC);
    const b = await readBytes(gz, 7);
    const c = await readBytes(gz, 64 * 1024);
    expect(b.items).toHaveLength(13673);
    expectSameRead(b, c);
  });

  it('a small gzip fed in 1-byte compressed chunks (magic bytes split) reads as in one chunk', async () => {
    const gz = gzipSync(fixtureBytes('v1.3.1-in-network-rates-fee-for-service-single-plan-sample.json'));
    const a = await readBytes(gz, 1);
    const c = await readBytes(gz, 64 * 1024);
    expect(rowCounts(a)).toMatchObject({ items: 2, references: 2 });
    expectSameRead(a, c);
  });
});
