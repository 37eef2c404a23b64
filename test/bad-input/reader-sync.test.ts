/**
 * The converter's reading path (test/mrf/reader-helpers.ts, then whole conversions) stays in step
 * on damaged bytes and keeps a key's last value
 * (docs/converter.md, What it reads, and what it does with bad input): a byte that is not JSON
 * between two rates or two items is skipped with a problem at its own offset and never swallows
 * the next element; every damaged input gives one outcome whatever the chunk boundaries; a root
 * array or a billing_code written twice keeps its last value. Inputs are generated here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { convertCatalog } from '../../scripts/convert/index';
import type { ConversionReport } from '../../scripts/convert/common/problems';
import { readBytes, rowCounts } from '../mrf/reader-helpers';
import { HEADER, catalogOf, item, mrf, price } from './harness';

const FF = '\f';
const CHUNKS = [1, 7, 64, 4096, 1 << 30];

/** An item of `n` rates (code `code`), a form feed between rates `at - 1` and `at` when `at` is given. */
function bigItem(code: string, n: number, at?: number): string {
  const rates = Array.from({ length: n }, (_, k) => `{"provider_references":[1],"negotiated_prices":[${price(String(100 + (k % 50)))}]}`);
  const list = at === undefined ? rates.join(',') : `${rates.slice(0, at).join(',')},${FF}${rates.slice(at).join(',')}`;
  return `{"negotiation_arrangement":"ffs","name":"S","billing_code_type":"CPT","billing_code_type_version":"2025","billing_code":"${code}",` +
    `"description":"d","negotiated_rates":[${list}]}`;
}

/** Reads `text` at every chunk size of CHUNKS, on the fast and on the slow path; expects one outcome and returns it. */
async function readEveryWay(text: string, splitBytes?: number): Promise<{ items: string[]; prices: number; problems: Array<[string, string, number]> }> {
  const outcomes = [];
  for (const size of CHUNKS) {
    for (const slow of [false, true]) {
      const r = await readBytes(Buffer.from(text), size, { slow, ...(splitBytes === undefined ? {} : { splitBytes }) });
      expect(r.fatal).toBeNull();
      outcomes.push({
        items: r.items.map((i) => i.billing_code),
        prices: rowCounts(r).prices,
        problems: r.problems.map((p): [string, string, number] => [p.code, p.path, p.offset]),
      });
    }
  }
  for (const o of outcomes.slice(1)) expect(o).toEqual(outcomes[0]);
  return outcomes[0]!;
}

/** The refusal's message of reading `text` in chunks of `size`; '' when the read succeeds. */
async function refusal(text: string, size: number): Promise<string> {
  return (await readBytes(Buffer.from(text), size)).fatal?.message ?? '';
}

describe('a stray byte keeps the reader in step, whatever the chunks', () => {
  it('between two rates of a small item: that item is dropped at its offset, the later ones kept', async () => {
    const bad = bigItem('99214', 5, 2);
    const text = mrf([bad, item('"99215"', price('7'))]);
    const r = await readEveryWay(text);
    expect(r.items).toEqual(['99213', '99215']);
    expect(r.prices).toBe(2);
    expect(r.problems).toEqual([['invalid_json', '$.in_network[1]', text.indexOf(bad)]]);
  });

  it('between two rates of an item over the split threshold: every rate kept, the byte reported at its offset', async () => {
    const bad = bigItem('99214', 40, 17);
    const text = mrf([bad, item('"99215"', price('7'))]);
    const r = await readEveryWay(text, 512);
    expect(r.items).toEqual(['99213', '99214', '99215']);
    expect(r.prices).toBe(42);
    expect(r.problems).toEqual([['invalid_json', '$.in_network[1].negotiated_rates', text.indexOf(FF)]]);
  });

  it('a stray byte after a scalar rate does not swallow the next rate', async () => {
    const good = bigItem('99214', 30);
    const bad = good.replace('"negotiated_rates":[{', `"negotiated_rates":[7${FF}{`);
    const text = mrf([bad, item('"99215"', price('7'))]);
    const r = await readEveryWay(text, 512);
    expect(r.items).toEqual(['99213', '99214', '99215']);
    expect(r.prices).toBe(32);
    // in file order: the scalar rate (not an object), then the byte after it
    expect(r.problems).toEqual([
      ['invalid_field', '$.in_network[1].negotiated_rates[0]', text.indexOf(`7${FF}`)],
      ['invalid_json', '$.in_network[1].negotiated_rates', text.indexOf(FF)],
    ]);
  });

  it('between two in_network items: skipped with a problem at its offset, every item kept', async () => {
    const text = mrf([`${FF}x${item('"99214"', price('5'))}`, item('"99215"', price('7'))]);
    const r = await readEveryWay(text);
    expect(r.items).toEqual(['99213', '99214', '99215']);
    expect(r.problems).toEqual([['invalid_json', '$.in_network', text.indexOf(FF)]]);
  });

  it('a stray { between two in_network items: skipped with a problem at its offset, every item kept', async () => {
    // without the element head check the '{' opens an element that swallows 99214 and 99215 up
    // to the array's ']', and the file is refused
    const text = mrf([`{ ${item('"99214"', price('5'))}`, item('"99215"', price('7'))]);
    const r = await readEveryWay(text);
    expect(r.items).toEqual(['99213', '99214', '99215']);
    expect(r.prices).toBe(3);
    expect(r.problems).toEqual([['invalid_json', '$.in_network', text.indexOf('{ {')]]);
  });

  it('a stray { is not balanced by a bracket deleted later: the items between are not swallowed into one element', async () => {
    // the '[' of 99216's service_code deleted: its extra ']' used to close the stray '{', so 99214
    // and 99215 came out as one invalid element, one problem for three items, and no refusal; now
    // the stray byte is skipped and the damage of 99216 refuses the file at its own byte, as it
    // does alone
    const damaged = item('"99216"', price('8')).replace('"service_code":["', '"service_code":"');
    expect(damaged).not.toEqual(item('"99216"', price('8')));
    const text = mrf([`{${item('"99214"', price('5'))}`, item('"99215"', price('7')), damaged, item('"99217"', price('9'))]);
    const alone = mrf([item('"99214"', price('5')), item('"99215"', price('7')), damaged, item('"99217"', price('9'))]);
    for (const size of CHUNKS) {
      // its extra ']' closes 99216 early: the '}' after it is the byte refused
      expect(await refusal(text, size)).toContain(`found '}' at byte ${text.indexOf(damaged) + damaged.length - 1}`);
      expect(await refusal(alone, size)).toContain(`found '}' at byte ${alone.indexOf(damaged) + damaged.length - 1}`);
    }
  });

  it('a stray { inside a number of an item: that item is dropped at its offset, the later ones kept (the file was refused)', async () => {
    // the '{' follows a digit and is followed by one: it cannot open an object, so it does not
    // count in the depth (container-scan.wat $brace); counted, it held every later item open and
    // the file ended inside the array
    const bad = item('"99214"', price('5')).replace('"negotiated_rate":5', '"negotiated_rate":5{0');
    const text = mrf([bad, item('"99215"', price('7')), item('"99216"', price('8'))]);
    const r = await readEveryWay(text);
    expect(r.items).toEqual(['99213', '99215', '99216']);
    expect(r.prices).toBe(3);
    expect(r.problems).toEqual([['invalid_json', '$.in_network[1]', text.indexOf(bad)]]);
  });

  it('a stray { inside a rate of an item over the split threshold: only that rate is dropped', async () => {
    const good = bigItem('99214', 30);
    const at = good.indexOf('"negotiated_rate":', good.indexOf('{"provider_references"', 600));
    const bad = `${good.slice(0, at)}"negotiated_rate":1{${good.slice(at + '"negotiated_rate":1'.length)}`;
    expect(bad.length).toBe(good.length + 1);
    const text = mrf([bad, item('"99215"', price('7'))]);
    const rate = text.lastIndexOf('{"provider_references"', text.indexOf('1{'));
    const r = await readEveryWay(text, 512);
    expect(r.items).toEqual(['99213', '99214', '99215']);
    expect(r.prices).toBe(31);
    const index = text.slice(text.indexOf(bad), rate).split('{"provider_references"').length - 1;
    expect(r.problems).toEqual([['invalid_json', `$.in_network[1].negotiated_rates[${index}]`, rate]]);
  });

  it('a stray byte right before or right after a real { leaves that { counted', async () => {
    // 'x' before a price object, 'x' after a rate's '{': each damages its own item only
    const before = item('"99214"', price('5')).replace('"negotiated_prices":[{', '"negotiated_prices":[x{');
    const after = item('"99215"', price('7')).replace('"negotiated_prices":[{', '"negotiated_prices":[{x');
    const text = mrf([before, after, item('"99216"', price('8'))]);
    const r = await readEveryWay(text);
    expect(r.items).toEqual(['99213', '99216']);
    expect(r.problems).toEqual([['invalid_json', '$.in_network[1]', text.indexOf(before)], ['invalid_json', '$.in_network[2]', text.indexOf(after)]]);
  });

  it('a stray { inside a number, and a [ deleted two items later: the items between are kept, the damaged one refuses the file at its byte', async () => {
    // fuzz case 1267535926: counted, the stray '{' was balanced by the deleted '['s extra ']' and
    // held the two items between in its element
    const damaged = item('"99217"', price('9')).replace('"service_code":["', '"service_code":"');
    const text = mrf([item('"99214"', price('5')).replace('"negotiated_rate":5', '"negotiated_rate":5{0'), item('"99215"', price('7')), item('"99216"', price('8')), damaged]);
    for (const size of CHUNKS) {
      expect(await refusal(text, size)).toContain(`found '}' at byte ${text.indexOf(damaged) + damaged.length - 1}`);
    }
  });

  it('a comma left out between two in_network items: read on with a problem at its offset', async () => {
    const text = mrf([item('"99214"', price('5'))]).replace(/\}\]\}\]\},\n\{/, (m) => m.replace(',', ''));
    const r = await readEveryWay(text);
    expect(r.items).toEqual(['99213', '99214']);
    expect(r.problems).toEqual([['invalid_json', '$.in_network', text.indexOf('\n{"negotiation') + 1]]);
  });

  it('NUL bytes between two in_network items: skipped, reported once at the first', async () => {
    const text = mrf([`\0\0\0\0${item('"99214"', price('5'))}`]);
    const r = await readEveryWay(text);
    expect(r.items).toEqual(['99213', '99214']);
    expect(r.problems).toEqual([['invalid_json', '$.in_network', text.indexOf('\0')]]);
  });
});

describe('keys written twice keep their last value', () => {
  it('a billing_code written twice is filtered by its last value, split or not', async () => {
    const twice = (s: string): string => s.replace('"billing_code":"99214"', '"billing_code":"99999","billing_code":"99214"');
    for (const splitBytes of [undefined, 512]) {
      const text = mrf([twice(bigItem('99214', 20))]);
      const r = await readBytes(Buffer.from(text), 64, { billingCodes: new Set(['99214']), ...(splitBytes ? { splitBytes } : {}) });
      expect(r.items.map((i) => [i.billing_code, i.negotiated_rates.length])).toEqual([['99214', 20]]);
    }
  });
});

describe('through the converter', () => {
  let tmp: string;
  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'compete-reader-sync-'));
  });
  afterAll(async () => {
    await rm(tmp, { recursive: true, force: true });
  });

  /**
   * Converts `text` as the only file, with optional catalog extras, on the parser threads' fast path
   * and again on the slow one (COMPETE_SLOW_PARSE=1); expects one outcome, its log line and problems.
   */
  async function convert(name: string, text: string, extra: object = {}, splitBytes?: number): Promise<{ line: string; problems: Array<[string, string, number]> }> {
    const fast = await convertOnce(name, text, extra, splitBytes);
    process.env.COMPETE_SLOW_PARSE = '1';
    try {
      const slow = await convertOnce(`slow-${name}`, text, extra, splitBytes);
      expect({ ...slow, line: slow.line.replace(/^slow-/, '') }).toEqual(fast);
    } finally {
      delete process.env.COMPETE_SLOW_PARSE;
    }
    return fast;
  }

  async function convertOnce(name: string, text: string, extra: object, splitBytes?: number): Promise<{ line: string; problems: Array<[string, string, number]> }> {
    await writeFile(path.join(tmp, name), text);
    const catalog = path.join(tmp, `catalog-${name}.json`);
    await writeFile(catalog, JSON.stringify(catalogOf([name], [], extra)));
    const lines: string[] = [];
    const out = path.join(tmp, `out-${name}`);
    await convertCatalog(catalog, out, { log: (l) => void lines.push(l), jobs: 1, ...(splitBytes ? { splitBytes } : {}) });
    const report = JSON.parse(await readFile(path.join(out, 'report.json'), 'utf8')) as ConversionReport;
    return { line: lines.find((l) => l.startsWith(`${name}:`)) ?? lines.join('\n'), problems: report.problems.map((p) => [p.code, p.path, p.offset]) };
  }

  it('a form feed between two of 70,000 rates of one item loses no rate and no later item', async () => {
    const big = bigItem('99214', 70_000, 35_000);
    const text = mrf([big, ...Array.from({ length: 1000 }, (_, k) => item(`"${10000 + k}"`, price('9')))]);
    const r = await convert('big.json', text);
    expect(r.line).toMatch(/^big\.json: 1002 items, 0 skipped by the filter, 71001 rate rows,/);
    expect(r.problems).toEqual([['invalid_json', '$.in_network[1].negotiated_rates', text.indexOf(FF)]]);
  }, 240_000);

  it('a root in_network written twice keeps the second one only, its items numbered on', async () => {
    const text = `${HEADER}"provider_references":[{"provider_group_id":1,"provider_groups":[{"npi":[1111111112],"tin":{"type":"ein","value":"111111111"}}]}],` +
      `"in_network":[${item('"99213"', price('100'))},${item('"99214"', price('110'))}],"in_network":[${item('"99215"', `${price('120')},${price('130')}`)}]}`;
    const r = await convert('twice.json', text);
    expect(r.line).toMatch(/^twice\.json: 1 items, 0 skipped by the filter, 2 rate rows,/);
    expect(r.problems).toEqual([['duplicate_key', '$.in_network', text.lastIndexOf('"in_network"')]]);
  }, 120_000);

  it('a split item whose rates the filter dropped for a first billing_code is reported when its last one is kept', async () => {
    const big = `${bigItem('99999', 30).slice(0, -1)},"billing_code":"99214"}`;
    const text = mrf([big]);
    await writeFile(path.join(tmp, 'codes.txt'), '99213\n99214\n');
    const r = await convert('late.json', text, { filters: { billing_codes: 'codes.txt' } }, 512);
    expect(r.line).toMatch(/^late\.json: 1 items, 0 skipped by the filter, 1 rate rows,/);
    expect(r.problems).toEqual([
      ['duplicate_key', '$.in_network[1].billing_code', text.lastIndexOf('"billing_code"')],
    ]);
  }, 120_000);
});
