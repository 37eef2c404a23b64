/**
 * Zip containers (docs/converter.md, Quirks of real files: Priority Health, Trustmark publish `.zip`), recognised
 * by their magic bytes 50 4b 03 04 whatever the name. The zips are built by hand (mrf-test-helpers.ts
 * buildZip), stored or deflated.
 */
import { describe, expect, it } from 'vitest';
import { gzipSync } from 'node:zlib';
import { openContainer } from '../../scripts/mrf/open-container';
import { MrfReadError } from '../../scripts/mrf/types';
import { buildZip, chunked } from './mrf-test-helpers';
import { expectSameRead, readBytes } from './reader-helpers';

const JSON_TEXT = `{"reporting_entity_name":"Zip Plan","reporting_entity_type":"issuer","last_updated_on":"2025-05-01","version":"1.0.0",
"provider_references":[{"provider_group_id":1,"provider_groups":[{"npi":[1111111112],"tin":{"type":"ein","value":"111111111"}}]}],
"in_network":[{"negotiation_arrangement":"ffs","name":"Visit","billing_code_type":"CPT","billing_code_type_version":"2025","billing_code":"99213",
"description":"d","negotiated_rates":[{"provider_references":[1],"negotiated_prices":[{"negotiated_type":"negotiated","negotiated_rate":99.5,
"expiration_date":"9999-12-31","billing_class":"professional","service_code":["11"]}]}]}]}`;

async function collect(input: Buffer, notes: string[] = []): Promise<Buffer> {
  const out: Buffer[] = [];
  for await (const c of openContainer('in-network.gz', chunked(input, 5) as AsyncIterable<Buffer>, { onNote: (m) => void notes.push(m) })) out.push(c);
  return Buffer.concat(out);
}

describe('zip containers', () => {
  it('reads the .json entry of a stored zip and of a deflated one, other entries noted', async () => {
    const plain = Buffer.from(JSON_TEXT);
    for (const deflate of [false, true]) {
      const notes: string[] = [];
      const zip = buildZip([{ name: 'README.txt', data: Buffer.from('hello') }, { name: 'rates/in-network.JSON', data: plain, deflate }]);
      expect((await collect(zip, notes)).equals(plain)).toBe(true);
      expect(notes).toEqual(['zip entry rates/in-network.JSON read; 1 other entries ignored (README.txt)']);
    }
  });

  it('reads a gzip inside a zip, and a lone entry whatever its name', async () => {
    const plain = Buffer.from(JSON_TEXT);
    expect((await collect(buildZip([{ name: 'x.json.gz', data: gzipSync(plain) }]))).equals(plain)).toBe(true);
    expect((await collect(buildZip([{ name: 'data', data: plain, deflate: true }]))).equals(plain)).toBe(true);
  });

  it('the converter\'s reading path gives the same rows for the zip as for the plain file', async () => {
    const plain = await readBytes(Buffer.from(JSON_TEXT), 11);
    const zipped = await readBytes(buildZip([{ name: 'f.json', data: Buffer.from(JSON_TEXT), deflate: true }]), 11);
    expect(plain.items).toHaveLength(1);
    expectSameRead({ ...zipped, totals: null }, { ...plain, totals: null });
    expect(zipped.totals?.items).toBe(1);
    expect(zipped.totals?.jsonBytes).toBe(Buffer.byteLength(JSON_TEXT));
  });

  it('refuses a zip without a JSON entry, an empty zip, a truncated zip: offset 0, clear reason', async () => {
    const cases: Array<[Buffer, RegExp]> = [
      [buildZip([{ name: 'a.txt', data: Buffer.from('a') }, { name: 'b.txt', data: Buffer.from('b') }]), /zip archive holds no \.json entry \(2 entries\)/],
      [buildZip([]).subarray(0), /empty zip archive/],
      [buildZip([{ name: 'f.json', data: Buffer.from(JSON_TEXT) }]).subarray(0, 200), /corrupt zip archive/],
    ];
    for (const [bytes, reason] of cases) {
      const err = await collect(bytes).then(() => null, (e: unknown) => e);
      expect(err).toBeInstanceOf(MrfReadError);
      expect((err as MrfReadError).offset).toBe(0);
      expect((err as MrfReadError).reason).toMatch(reason);
    }
  });
});
