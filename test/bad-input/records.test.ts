/**
 * Records the converter tolerates and reports (report.json: code, JSON path, byte offset) while the
 * run goes on, exit 0: keys written twice, text that is not UTF-8, negative rates, nesting past
 * root-scanner.ts MAX_NESTING, strings past long-strings.ts MAX_STRING_BYTES. Each file goes
 * through the command line as a second insurer's file; the expected paths and offsets are those of
 * the bytes the test writes, found in them by the test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { MAX_STRING_BYTES } from '../../scripts/mrf/long-strings';
import { MAX_NESTING } from '../../scripts/mrf/root-scanner';
import type { ConversionReport } from '../../scripts/convert/common/problems';
import { startLocalHttp, type LocalHttp } from '../convert/local-http';
import { catalogOf, item, makeWorkspace, mrf, price, runCli, type Workspace } from './harness';

let ws: Workspace;
let http: LocalHttp;

beforeAll(async () => {
  ws = await makeWorkspace('records');
  http = await startLocalHttp({});
});

afterAll(async () => {
  await http.close();
  await rm(ws.dir, { recursive: true, force: true });
});

/** Converts `bytes` as insurer `bad`'s file `name`; returns the exit code, stderr and that file's problems. */
async function convert(name: string, bytes: string | Buffer): Promise<{ code: number; stderr: string; problems: Array<[string, string, number]>; messages: string[] }> {
  await writeFile(path.join(ws.dir, name), bytes);
  const catalog = path.join(ws.dir, `catalog-${name}.json`);
  await writeFile(catalog, JSON.stringify(catalogOf(['good.json'], [name])));
  const { code, stderr } = await runCli(['--catalog', catalog, '--out', ws.out]);
  const report = JSON.parse(await readFile(path.join(ws.out, 'report.json'), 'utf8')) as ConversionReport;
  const mine = report.problems.filter((p) => p.file === name);
  return { code, stderr, problems: mine.map((p) => [p.code, p.path, p.offset]), messages: mine.map((p) => p.message) };
}

/** The dataset's services as `billing_code: description` (services.parquet). */
async function services(): Promise<Map<string, string>> {
  const db = await DuckDBInstance.create(':memory:');
  const con = await db.connect();
  const r = await con.runAndReadAll(`SELECT billing_code, description FROM '${path.join(ws.out, 'services.parquet')}'`);
  con.closeSync();
  return new Map(r.getRows().map(([c, d]) => [String(c), String(d)]));
}

describe('bad records: rejected or kept as documented, reported with their JSON path, exit 0', () => {
  const GROUP2 = (location: string): string => `{"provider_group_id":2,"location":"${location}"}`;
  const p = (rest = ''): string => `$.in_network[1]${rest}`;
  const price0 = '.negotiated_rates[0].negotiated_prices[0]';
  const cases: Array<[string, () => string, Array<[string, string]>, RegExp?]> = [
    ['rate-as-string.json', () => mrf([item('"99214"', price('"12.50"'))]), [['invalid_rate', p(`${price0}.negotiated_rate`)]]],
    ['code-as-number.json', () => mrf([item('99214', price('12'))]), [['invalid_field', p('.billing_code')]]],
    ['missing-fields.json', () => mrf([item('"99214"', price('12')).replace('"billing_code":"99214",', '').replace('"negotiation_arrangement":"ffs",', '')]),
      [['missing_field', p('.billing_code')]]],
    ['unknown-enum.json', () => mrf([item('"99214"', price('12', 'Capitated'))]), [['unknown_enum', p(`${price0}.negotiated_type`)]]],
    ['dangling-id.json', () => mrf([item('"99214"', price('12'), '[77]')]), [['dangling_provider_reference', '$.in_network[*].negotiated_rates[*].provider_references']], /provider group 77/],
    ['remote-404.json', () => mrf([item('"99214"', price('12'), '[2]')]).replace('}],"in_network"', `},${GROUP2(`${http.base}/refs/gone.json`)}],"in_network"`),
      [['unresolved_remote_reference', '$.provider_references[1]']], /refs\/gone\.json: HTTP 404/],
    ['nan-and-1e400.json', () => mrf([item('"99214"', `${price('NaN')},${price('1e400')},${price('12')}`)]),
      [['invalid_rate', p(`${price0}.negotiated_rate`)], ['invalid_rate', p('.negotiated_rates[0].negotiated_prices[1].negotiated_rate')]]],
  ];
  for (const [name, text, expected, message] of cases) {
    it(name, async () => {
      const r = await convert(name, text());
      expect([r.code, r.stderr]).toEqual([0, '']);
      expect(r.problems.map(([code, path]) => [code, path])).toEqual(expected);
      if (message) expect(r.messages[0]).toMatch(message);
    });
  }
});

describe('tolerated records: reported with path and offset, the rest converted, exit 0', () => {
  it('a key written twice (JSON.parse keeps the last)', async () => {
    const text = mrf([item('"99214"', price('12')).replace('"billing_code":"99214"', '"billing_code":"99214","billing_code":"99215"')]);
    const r = await convert('duplicate.json', text);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.problems).toEqual([['duplicate_key', '$.in_network[1].billing_code', text.indexOf('"billing_code":"99215"')]]);
    expect((await services()).has('99215')).toBe(true);
  });

  it('a key written twice in a price, read by the fast path otherwise', async () => {
    const twice = price('12').replace('"negotiated_rate":12', '"negotiated_rate":12,"negotiated_rate":14');
    const text = mrf([item('"99214"', twice)]);
    const r = await convert('duplicate-price.json', text);
    expect(r.problems).toEqual([['duplicate_key', '$.in_network[1].negotiated_rates[0].negotiated_prices[0].negotiated_rate',
      text.indexOf('"negotiated_rate":14')]]);
  });

  it('a key no reader knows, written twice in a price and in a rate', async () => {
    const text = mrf([item('"99214"', price('12').replace('"negotiated_type"', '"note":"a","note":"b","negotiated_type"'))
      .replace('"negotiated_prices"', '"x_id":1,"x_id":2,"negotiated_prices"')]);
    const r = await convert('duplicate-other.json', text);
    expect(r.problems).toEqual([
      ['duplicate_key', '$.in_network[1].negotiated_rates[0].x_id', text.indexOf('"x_id":2')],
      ['duplicate_key', '$.in_network[1].negotiated_rates[0].negotiated_prices[0].note', text.indexOf('"note":"b"')],
    ]);
  });

  it('a billing code that is not UTF-8', async () => {
    const bytes = Buffer.from(mrf([item('"99XYZ"', price('12'))]));
    const at = bytes.indexOf('99XYZ') + 2;
    bytes[at] = 0xff;
    bytes[at + 1] = 0xfe;
    const r = await convert('latin.json', bytes);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.problems).toEqual([['invalid_utf8', '$.in_network[1].billing_code', at]]);
  });

  it('a negative rate: kept, reported', async () => {
    const text = mrf([item('"99214"', `${price('-12')},${price('30')}`)]);
    const r = await convert('negative.json', text);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.problems).toEqual([['negative_rate', '$.in_network[1].negotiated_rates[0].negotiated_prices[0].negotiated_rate',
      text.indexOf('{"negotiation_arrangement"', text.indexOf('99214') - 200)]]);
  });

  it(`100,000 nested arrays in in_network: dropped past ${MAX_NESTING} levels, no stack overflow`, async () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    const text = mrf([deep, item('"99215"', price('20'))]);
    const r = await convert('deep.json', text);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.problems).toEqual([['nesting_too_deep', '$.in_network[1]', text.indexOf(deep)]]);
    expect((await services()).has('99215')).toBe(true);
  });

  it('nesting at the limit is read; one level more is not', async () => {
    // the element is level 1: an extra field nested to exactly MAX_NESTING, then one past it
    const at = `${'['.repeat(MAX_NESTING - 1)}${']'.repeat(MAX_NESTING - 1)}`;
    const past = `${'['.repeat(MAX_NESTING)}${']'.repeat(MAX_NESTING)}`;
    const text = mrf([item('"99214"', price('12')).replace('"description":"d"', `"description":"d","extra":${at}`),
      item('"99215"', price('12')).replace('"description":"d"', `"description":"d","extra":${past}`)]);
    const r = await convert('limit.json', text);
    expect(r.problems).toEqual([['nesting_too_deep', '$.in_network[2]', text.indexOf('{"negotiation_arrangement"', text.indexOf(past) - 300)]]);
    const s = await services();
    expect([s.has('99214'), s.has('99215')]).toEqual([true, false]);
  });

  it('a 20 MB description: cut to the limit, the item kept', async () => {
    const long = 'x'.repeat(20_000_000);
    const text = mrf([item('"99214"', price('12')).replace('"description":"d"', `"description":"${long}"`)]);
    const r = await convert('long.json', text);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.problems).toEqual([['string_too_long', '$.in_network[1].description', text.indexOf(`"${long}"`)]]);
    expect((await services()).get('99214')).toBe('x'.repeat(MAX_STRING_BYTES));
  });

  it('five text fields of an item at the limit each (a spool line of ~5 MiB)', async () => {
    const f = (c: string): string => c.repeat(MAX_STRING_BYTES);
    const text = mrf([`{"negotiation_arrangement":"${f('n')}","name":"${f('m')}","billing_code_type":"CPT","billing_code_type_version":"2025",` +
      `"billing_code":"${f('c')}","description":"${f('d')}","negotiated_rates":[{"provider_references":[1],"negotiated_prices":[${price('5')}]}]}`]);
    const r = await convert('five.json', text);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect((await services()).get(f('c'))).toBe(f('d'));
  });
});
