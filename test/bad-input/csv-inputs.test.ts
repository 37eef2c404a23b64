/**
 * Strict values in the catalog's CSV and list inputs (docs/converter.md, The catalog): the
 * claims-volume CSV, the services CSV, the NPI registry and the billing-code list. Each bad value
 * stops the run: exit 1 and one stderr line naming the file, the line (as a text editor counts,
 * the header being line 1) and the column. Claim totals that do not fit the dataset's INTEGER
 * column stop the run naming the code and the state; good inputs still convert, with the same sums.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { USPS_STATE_CODES } from '../../contract/rules/us-states';
import { STATE_AREAS } from '../../contract/rules/state-areas';
import { catalogOf, makeWorkspace, re, runCli, type Workspace } from './harness';

let ws: Workspace;
let n = 0;

beforeAll(async () => {
  ws = await makeWorkspace('csv-inputs');
});

afterAll(async () => {
  await rm(ws.dir, { recursive: true, force: true });
});

/** Writes the input files (name -> text), a catalog with `extra` naming them, and runs the command line. */
async function run(files: Record<string, string>, extra: object): Promise<{ code: number; stderr: string; out: string }> {
  const k = ++n;
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(ws.dir, name), text);
  const catalog = path.join(ws.dir, `catalog-${k}.json`);
  await writeFile(catalog, JSON.stringify(catalogOf(['good.json'], [], extra)));
  const out = path.join(ws.dir, `out-${k}`);
  return { ...(await runCli(['--catalog', catalog, '--out', out])), out };
}

/** Runs with the claims-volume CSV `text` and expects the one-line error at `line`, `column`, saying `what`. */
async function expectClaimsError(text: string, line: number, column: string, what: RegExp): Promise<void> {
  const name = `claims-${n + 1}.csv`;
  const r = await run({ [name]: text }, { claims_volume: name });
  expect(r.code).toBe(1);
  expect(r.stderr).toMatch(new RegExp(`^convert: ${re(path.join(ws.dir, name))}: line ${line}, column '${column}': ${what.source}`));
  expect(r.stderr.split('\n')).toHaveLength(2);
}

describe('claims_volume: a count that is not a whole number of claims stops the run at its line', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['negative', '-5', /'-5' is not a whole number of claims/],
    ['fractional', '1.5', /'1\.5' is not a whole number of claims/],
    ['text', 'many', /'many' is not a whole number of claims/],
    ['an exponent', '1e400', /'1e400' is not a whole number of claims/],
    ['NaN', 'NaN', /'NaN' is not a whole number of claims/],
    ['infinity', 'inf', /'inf' is not a whole number of claims/],
    ['empty', '', /an empty value is not a whole number of claims/],
    ['a sign', '+5', /'\+5' is not a whole number of claims/],
    ['over 64 bits', '9223372036854775808', /'9223372036854775808' is not a whole number of claims/],
  ];
  for (const [name, count, what] of cases) {
    it(name, async () => {
      await expectClaimsError(`billing_code,claims_count\n99213,100\n99213,${count}\n99213,7\n`, 3, 'claims_count', what);
    });
  }
});

describe('claims_volume: other bad values', () => {
  it('a state name instead of a USPS code', async () => {
    await expectClaimsError('billing_code,claims_count,state\n99213,5,CA\n99213,5,California\n', 3, 'state', /'California' is not a two-letter USPS state code/);
  });

  it('a billing code that is prose', async () => {
    await expectClaimsError('billing_code,claims_count\n99213,5\n99213,5\noffice visit,5\n', 4, 'billing_code', /'office visit' is not a billing code/);
  });

  it('a billing class other than the two', async () => {
    await expectClaimsError('billing_code,claims_count,billing_class\n99213,5,professional\n99213,5,facility\n', 3, 'billing_class',
      /'facility' is not 'professional' or 'institutional'/);
  });

  it('counts the lines of a quoted field that spans lines (the line is the one a text editor shows)', async () => {
    await expectClaimsError('billing_code,claims_count,note\n99213,5,"two\nlines"\n99213,x,\n', 4, 'claims_count', /'x' is not a whole number/);
  });

  it('counts CR LF line ends, inside quotes too, and blank lines as a text editor does', async () => {
    await expectClaimsError('billing_code,claims_count,note\r\n99213,5,"two\r\nlines"\r\n\r\n99213,x,\r\n', 5, 'claims_count', /'x' is not a whole number/);
  });
});

describe('claims_volume: sums', () => {
  it('a national total over 2^31 stops the run naming the code and the state', async () => {
    const name = 'claims-big.csv';
    const r = await run({ [name]: 'billing_code,claims_count,state\n99213,1500000000,CA\n99213,1500000000,NY\n' }, { claims_volume: name });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`convert: ${path.join(ws.dir, name)}: column 'claims_count': the professional claims of billing code 99213 in the whole market ` +
      `(state ALL) total 3000000000, more than the dataset's claims_count holds (2147483647)\n`);
  });

  it('good values convert with their sums: spaces, any case, a national total of 2^31 - 1', async () => {
    const name = 'claims-good.csv';
    const r = await run({ [name]: 'billing_code,claims_count,state\n 99213 , 1073741823 ,ca\n99213,1073741821,NY\n99213,3,\n' }, { claims_volume: name });
    expect(r).toMatchObject({ code: 0, stderr: '' });
    const rows = await claimsVolume(r.out);
    expect(rows).toEqual([['99213', 'ALL', 'professional', 2147483647], ['99213', 'CA', 'professional', 1073741823], ['99213', 'NY', 'professional', 1073741821]]);
  });
});

describe('the other inputs', () => {
  it('services: a billing code that is not a code', async () => {
    const name = 'services-bad.csv';
    const r = await run({ [name]: 'billing_code,name\n99213,"Office\nvisit"\n"99214 office",Visit\n' }, { services: name });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^convert: ${re(path.join(ws.dir, name))}: line 4, column 'billing_code': '99214 office' is not a billing code`));
  });

  it('npi_registry: an NPI that is not 10 digits', async () => {
    const name = 'npi-bad.csv';
    const header = 'NPI,Entity Type Code,Provider Organization Name (Legal Business Name),Provider Last Name (Legal Name),Provider First Name,' +
      'Provider Business Practice Location Address State Name,Provider Business Practice Location Address Postal Code,Healthcare Provider Taxonomy Code_1';
    const r = await run({ [name]: `${header}\n1111111112,1,,SMITH,ANNA,CA,94110,207Q00000X\nSMITH,1,,,,CA,94110,207Q00000X\n` }, { npi_registry: name });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^convert: ${re(path.join(ws.dir, name))}: line 3, column 'NPI': 'SMITH' is not an NPI \\(10 digits\\)`));
  });

  it('filters.billing_codes: a line of prose in the list file', async () => {
    const name = 'codes-bad.txt';
    const r = await run({ [name]: '# kept codes\n99213\n\n  knee replacement surgery\n' }, { filters: { billing_codes: name } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^convert: ${re(path.join(ws.dir, name))}: line 4, column 3: 'knee replacement surgery' is not a billing code`));
    expect(r.stderr.split('\n')).toHaveLength(2);
  });

  it('filters.billing_codes: an entry of the array that is not a code', async () => {
    const r = await run({}, { filters: { billing_codes: ['99213', ''] } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/: field filters\.billing_codes\[1\]: an empty value is not a billing code/);
  });

  it('good lists of every code shape convert', async () => {
    const name = 'codes-good.txt';
    const r = await run({ [name]: '# codes\n99213\r\n 0001A \nG0008\n0450\n470\nF12.10\n12345-6789-01\nCSTM-00\n' }, { filters: { billing_codes: name } });
    expect(r).toMatchObject({ code: 0, stderr: '' });
  });
});

it("the map's state areas are all USPS codes the converter accepts", () => {
  for (const a of STATE_AREAS.values()) expect(USPS_STATE_CODES).toContain(a.code);
  expect(USPS_STATE_CODES).toHaveLength(56);
});

/** The rows of a dataset's claims_volume, sorted: [billing_code, state, billing_class, claims_count]. */
async function claimsVolume(out: string): Promise<Array<[string, string, string, number]>> {
  const files = (await readdir(out)).filter((f) => f.startsWith('claims_volume') && f.endsWith('.parquet'));
  expect(files.length).toBeGreaterThan(0);
  const db = await DuckDBInstance.create(':memory:');
  const con = await db.connect();
  try {
    const r = await con.runAndReadAll(`SELECT billing_code, state, billing_class, claims_count FROM read_parquet([${files.map((f) => `'${path.join(out, f)}'`).join(', ')}]) ORDER BY ALL`);
    return r.getRows().map((row) => [String(row[0]), String(row[1]), String(row[2]), Number(row[3])]);
  } finally {
    con.closeSync();
    db.closeSync();
  }
}
