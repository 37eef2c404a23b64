/**
 * A key written twice keeps its last value, as JSON.parse keeps it (docs/converter.md, Damaged
 * bytes and keys written twice): a root `provider_references` written twice gives the groups of
 * the last array only, and a `negotiated_rates` written twice in an item over the split threshold
 * gives the rates of the last array only, the same rows as the unsplit read, whatever the chunks.
 * Inputs are generated here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { convertCatalog } from '../../scripts/convert/index';
import type { ConversionReport } from '../../scripts/convert/common/problems';
import { converterReader, type ReadOutcome } from '../../scripts/fuzz/read';
import { HEADER, catalogOf, item, price } from './harness';

const CHUNKS = [1, 7, 64, 4096, 0];

/** A provider group of one provider (NPI `npi`). */
const group = (id: number, npi: number): string => `{"provider_group_id":${id},"provider_groups":[{"npi":[${npi}],"tin":{"type":"ein","value":"111111111"}}]}`;

/** Group 1 written in two `provider_references` arrays, with other NPIs in each; one item naming it. */
const REFS_TWICE = `${HEADER}"provider_references":[${group(1, 1111111112)},${group(2, 2222222220)}],` +
  `"in_network":[${item('"99213"', price('100'))}],"provider_references":[${group(1, 3333333334)}]}`;

/** A rate naming group 1 at `rate`. */
const rate = (r: number): string => `{"provider_references":[1],"negotiated_prices":[${price(String(r))}]}`;

/** An item of code 99214 whose negotiated_rates is written twice: rates 1..20, then 500, 501, 502; then 99215. */
const RATES_TWICE = `${HEADER}"provider_references":[${group(1, 1111111112)}],"in_network":[${item('"99213"', price('100'))},` +
  `{"negotiation_arrangement":"ffs","name":"S","billing_code_type":"CPT","billing_code_type_version":"2025","billing_code":"99214",` +
  `"negotiated_rates":[${Array.from({ length: 20 }, (_, k) => rate(k + 1)).join(',')}],"description":"d",` +
  `"negotiated_rates":[${rate(500)},${rate(501)},${rate(502)}]},${item('"99215"', price('7'))}]}`;

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'compete-dup-keys-'));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

/** The converter's reading path (readSource, spool rows, what ingest drops) at every chunk size of CHUNKS; expects one outcome. */
async function readEveryWay(text: string, splitBytes: number | undefined, slow: boolean): Promise<ReadOutcome> {
  const read = converterReader(tmp);
  const outcomes: ReadOutcome[] = [];
  for (const chunk of CHUNKS) {
    outcomes.push(await read(Buffer.from(text), { chunk, gzip: false, slow, ...(splitBytes !== undefined ? { splitBytes } : {}) }));
  }
  for (const o of outcomes.slice(1)) expect({ ...o, split: [] }).toEqual({ ...outcomes[0]!, split: [] });
  return outcomes[0]!;
}

/** The rate figures of each item of `o`: billing code -> the rates of its prices in rate order. */
const ratesOf = (o: ReadOutcome): Record<string, number[]> => Object.fromEntries(o.items.map((i) => [i.billingCode!,
  i.prices.map((p) => JSON.parse(p) as [number, number, string[], { negotiated_rate: string }])
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]).map((p) => [p[0], Number(p[3].negotiated_rate)]).flat()]));

describe('a key written twice, read at every chunk size', () => {
  it('provider_references twice: only the last array\'s groups', async () => {
    for (const slow of [false, true]) {
      const o = await readEveryWay(REFS_TWICE, undefined, slow);
      expect(o.fatal).toBeNull();
      expect(o.groups.map((g) => (JSON.parse(g) as string[]).slice(0, 3))).toEqual([['1', '3333333334', '3333333334']]);
      expect(o.problems).toEqual([{ code: 'duplicate_key', path: '$.provider_references', offset: REFS_TWICE.lastIndexOf('"provider_references"') }]);
    }
  });

  it('negotiated_rates twice in a split item: the last array\'s rates, numbered from 0, as unsplit', async () => {
    for (const slow of [false, true]) {
      const unsplit = await readEveryWay(RATES_TWICE, undefined, slow);
      const split = await readEveryWay(RATES_TWICE, 256, slow);
      expect(split.split).toContain(1);
      expect(unsplit.split).toEqual([]);
      // [rate index, rate] per price
      expect(ratesOf(unsplit)).toEqual({ '99213': [0, 100], '99214': [0, 500, 1, 501, 2, 502], '99215': [0, 7] });
      expect({ ...split, split: [] }).toEqual(unsplit);
      const second = RATES_TWICE.indexOf(`"negotiated_rates":[${rate(500)}`);
      expect(split.problems.filter((p) => p.code === 'duplicate_key')).toEqual([{ code: 'duplicate_key', path: '$.in_network[1].negotiated_rates', offset: second }]);
    }
  });
});

describe('through the converter, on the fast and the slow path', () => {
  /** Converts `text` (as `name`) and returns, of the dataset, each billing code's rates with the NPIs of their groups; and the problems. */
  async function convertOnce(name: string, text: string, splitBytes?: number): Promise<{ rates: string[]; problems: Array<[string, string, number]> }> {
    await writeFile(path.join(tmp, name), text);
    const catalog = path.join(tmp, `catalog-${name}.json`);
    await writeFile(catalog, JSON.stringify(catalogOf([name])));
    const out = path.join(tmp, `out-${name}`);
    await convertCatalog(catalog, out, { log: () => undefined, jobs: 1, ...(splitBytes ? { splitBytes } : {}) });
    const report = JSON.parse(await readFile(path.join(out, 'report.json'), 'utf8')) as ConversionReport;
    const db = await DuckDBInstance.create(':memory:');
    const con = await db.connect();
    try {
      const rows = await con.runAndReadAll(`
        SELECT r.billing_code || ' ' || CAST(r.negotiated_rate AS VARCHAR) || ' ' || coalesce(string_agg(g.npi, '+' ORDER BY g.npi), '-') AS row
        FROM (SELECT billing_code, negotiated_rate, source_id, unnest(provider_group_ids) AS provider_group_id FROM '${path.join(out, 'rates', '*.parquet')}') r
        LEFT JOIN '${path.join(out, 'provider_groups.parquet')}' g USING (source_id, provider_group_id)
        GROUP BY r.billing_code, r.negotiated_rate ORDER BY 1`);
      return { rates: rows.getRows().map((r) => String(r[0])), problems: report.problems.map((p) => [p.code, p.path, p.offset]) };
    } finally {
      con.closeSync();
      db.closeSync();
    }
  }

  async function convert(name: string, text: string, splitBytes?: number): Promise<{ rates: string[]; problems: Array<[string, string, number]> }> {
    const fast = await convertOnce(name, text, splitBytes);
    process.env.COMPETE_SLOW_PARSE = '1';
    try {
      expect(await convertOnce(`slow-${name}`, text, splitBytes)).toEqual(fast);
    } finally {
      delete process.env.COMPETE_SLOW_PARSE;
    }
    return fast;
  }

  it('provider_references twice: the rates name the second array\'s NPIs only', async () => {
    const r = await convert('refs.json', REFS_TWICE);
    expect(r.rates).toEqual(['99213 100.0 3333333334']);
    expect(r.problems).toEqual([['duplicate_key', '$.provider_references', REFS_TWICE.lastIndexOf('"provider_references"')]]);
  }, 120_000);

  it('negotiated_rates twice in a split item: the second array\'s rates only, as unsplit', async () => {
    const split = await convert('rates.json', RATES_TWICE, 256);
    const unsplit = await convert('rates-unsplit.json', RATES_TWICE);
    expect(split.rates).toEqual(['99213 100.0 1111111112', '99214 500.0 1111111112', '99214 501.0 1111111112', '99214 502.0 1111111112', '99215 7.0 1111111112']);
    expect(split).toEqual(unsplit);
    expect(split.problems).toEqual([['duplicate_key', '$.in_network[1].negotiated_rates', RATES_TWICE.indexOf(`"negotiated_rates":[${rate(500)}`)]]);
  }, 120_000);
});
