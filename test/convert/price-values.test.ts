/**
 * The value codes of the price spool (scripts/convert/spool/price-values.ts): a value keeps its code, its
 * text is written once to `raw_values`, memory stays bounded (long values and values past a full
 * dictionary get a fresh code each time), and a rollback gives back exactly the codes given since
 * the mark, so that the fast path's abandoned elements leave no trace (fast-rates.test.ts checks the
 * files of both ways).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { MAX_ENTRIES, MAX_KEY_BYTES, PriceValues } from '../../scripts/convert/spool/price-values';
import { CsvFile } from '../../scripts/convert/spool/csv-file';
import { SpoolRows } from '../../scripts/convert/spool/spool-rows';

let tmp: string;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'compete-values-'));
});

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

/** A PriceValues writing to `<tmp>/<name>`, and a way to read its `raw_values` rows. */
function values(name: string): { v: PriceValues; code: (text: string) => number; rows: () => Promise<string[]> } {
  const file = new CsvFile(path.join(tmp, name));
  const v = new PriceValues(file);
  const code = (text: string): number => {
    const b = Buffer.from(text, 'utf8');
    return v.code(b, 0, b.length);
  };
  const rows = async (): Promise<string[]> => {
    const parts = file.close();
    return (await Promise.all(parts.map((f) => readFile(f, 'utf8')))).join('').split('\n').slice(0, -1);
  };
  return { v, code, rows };
}

describe('price value codes', () => {
  it('gives a value one code and writes its text once', async () => {
    const { v, code, rows } = values('same');
    expect([code('professional'), code('"11,22"'), code('professional'), code('""'), code('"11,22"'), code('é')]).toEqual([0, 1, 0, 2, 1, 3]);
    expect(v.next).toBe(4);
    expect(await rows()).toEqual(['0,professional', '1,"11,22"', '2,""', '3,é']);
  });

  it('gives a long value, and any value past a full dictionary, a fresh code each time', async () => {
    const { v, code, rows } = values('bounded');
    const long = 'x'.repeat(MAX_KEY_BYTES + 1);
    expect([code(long), code('short'), code(long)]).toEqual([0, 1, 2]);
    expect(code('x'.repeat(MAX_KEY_BYTES))).toBe(3);
    expect(code('x'.repeat(MAX_KEY_BYTES))).toBe(3);
    // fill the dictionary: 2 values so far, MAX_ENTRIES in all
    for (let k = 2; k < MAX_ENTRIES; k++) expect(code(`v${k}`)).toBe(k + 2);
    const first = v.next;
    expect([code('past'), code('past')]).toEqual([first, first + 1]);
    // what it holds is still found
    expect([code('short'), code(`v${MAX_ENTRIES - 1}`)]).toEqual([1, MAX_ENTRIES + 1]);
    const written = await rows();
    expect(written).toHaveLength(first + 2);
    expect(written.filter((r) => r.endsWith(',past'))).toEqual([`${first},past`, `${first + 1},past`]);
  });

  it('takes back the codes given since a mark, and gives them again the same way', async () => {
    const a = values('rollback');
    const b = values('straight');
    for (let k = 0; k < 100; k++) {
      a.code(`kept ${k}`);
      b.code(`kept ${k}`);
    }
    const m = a.v.mark();
    for (let k = 0; k < 2000; k++) a.code(`dropped ${k % 700}`); // many slots, some probed past older entries
    a.code('kept 5');
    a.v.rollback(m);
    expect(a.v.next).toBe(100);
    const after = ['new', 'dropped 3', 'kept 7', 'dropped 699', 'new'];
    expect(after.map(a.code)).toEqual(after.map(b.code));
    expect(after.map(a.code)).toEqual([100, 101, 7, 102, 100]);
    expect(await a.rows()).toEqual(await b.rows());
  });

  it('codes a field written across the end of the spool buffer, or longer than the buffer', async () => {
    const file = new CsvFile(path.join(tmp, 'edge-prices'));
    const v = new PriceValues(new CsvFile(path.join(tmp, 'edge-values')));
    const row = (filler: string, value: string): void => {
      file.text(filler); file.sep(); file.beginField(); file.text(value); file.endField(v); file.end();
    };
    const straddling = 'a value, "quoted" – ü';
    const huge = 'é'.repeat(900_000); // 1.8 MB of UTF-8: the buffer (1 MiB) grows to hold it
    row('f'.repeat((1 << 20) - 8), straddling); // the field starts 7 bytes before the buffer's end
    row('g', huge);
    row('h', straddling);
    const lines = (await readFile(file.close()[0]!, 'utf8')).split('\n');
    expect(lines).toEqual([`${'f'.repeat((1 << 20) - 8)},0`, 'g,1', 'h,0', '']);
    const vs = await readFile(v.file.close()[0]!, 'utf8');
    expect(vs).toBe(`0,"a value, ""quoted"" – ü"\n1,${huge}\n`);
  });

  it('leaves a writer that spools no price without codes, and one that does with the CMS enums first', async () => {
    const groups = new SpoolRows(path.join(tmp, 'groups-only'), 0);
    groups.group('g1', { npi: '1000000001', tin_type: 'ein', tin_value: '11-1' }, null);
    const none = groups.close();
    expect(Object.keys(none)).toEqual(['raw_groups']);
    expect(groups.valueCodes).toBe(0);
    const priced = new SpoolRows(path.join(tmp, 'priced'), 0);
    priced.rate(0, 0, { provider_references: ['1'], provider_groups: [], prices: [{
      negotiated_type: 'negotiated', negotiated_rate: 1, expiration_date: '9999-12-31', billing_class: 'professional',
      service_code: [], billing_code_modifier: [], additional_information: '', setting: '',
    }] });
    const files = priced.close();
    const values = (await readFile(files.raw_values![0]!, 'utf8')).trimEnd().split('\n');
    expect(values.slice(0, 2)).toEqual(['0,negotiated', '1,derived']);
    expect(values.slice(-2)).toEqual(['10,""', '11,9999-12-31']);
    expect(priced.valueCodes).toBe(12);
  });
});
