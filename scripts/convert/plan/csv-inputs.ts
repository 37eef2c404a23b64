/**
 * Strict values in the converter's CSV and list inputs (docs/converter.md, The catalog): the rules
 * of each checked column, a check of a whole CSV file by DuckDB, and the billing-code list.
 *
 * A CSV file is checked in two steps. DuckDB scans it (read as text, `all_varchar`) for a row that
 * breaks a rule: one more read of the file (checkCsv), or none when the scan that reads the values
 * checks them too (build-claims.ts, build-tables.ts for the NPI registry), so that a file of
 * millions of lines stays fast. DuckDB's reader tells no line number (its rejects table counts records, not lines),
 * so only when a bad row exists is the file read again, by csv-parse with the delimiter and quote
 * DuckDB sniffed, up to the first bad record, whose line (1-based, as a text editor counts, the
 * header being line 1), column and value the error names.
 *
 * Values are compared after removing the spaces around them, as DuckDB's `trim` does (the converter
 * trims every value it reads); an empty field and `""` are both an empty value.
 */
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse';
import type { DuckDBConnection } from '@duckdb/node-api';
import { USPS_STATE_CODES } from '../../../contract/rules/us-states';
import { sqlList, sqlString } from '../../../contract/sql/sql-text';
import type { Catalog } from '../../../contract/files/catalog';
import { resolveLocation } from './catalog';

/** A rule over one column of a CSV input; `column` is the header's name. */
export interface ColumnRule {
  column: string;
  /** What a good value is, for the message: `a billing code (...)`. */
  expected: string;
  /** Whether a value (spaces around it removed; '' when empty) is good. */
  ok: (value: string) => boolean;
  /** SQL that is true for a good value of the VARCHAR column reference `c` (NULL when the field is empty). */
  sql: (c: string) => string;
}

/**
 * A billing code: 1 to 20 letters, digits, `.`, `-` or `_`, beginning and ending with a letter or a
 * digit. Every code type of the TiC schema fits (/work/shared/tic/tic-format.md, billing_code): CPT
 * and HCPCS `99213`, `0001A`, `G0008`; revenue codes `0450`; DRGs `470`; ICD `F12.10`, `81.54`; NDC
 * `12345-6789-01`; `CSTM-00`; payers' LOCAL codes. Prose (a space), punctuation and blanks do not.
 */
export const BILLING_CODE_PATTERN = '[A-Za-z0-9]([A-Za-z0-9._-]{0,18}[A-Za-z0-9])?';
const BILLING_CODE = new RegExp(`^(?:${BILLING_CODE_PATTERN})$`);
export const BILLING_CODE_EXPECTED = "a billing code (1 to 20 letters, digits, '.', '-' or '_', beginning and ending with a letter or digit)";

/** The largest claim count a row may hold: a BIGINT's (2^63 - 1); the sums are taken in 128 bits. */
const MAX_COUNT = 9223372036854775807n;
const USPS = new Set(USPS_STATE_CODES);

/** Spaces removed at both ends, as DuckDB's `trim` (tabs stay, and fail every rule). */
const spaceTrim = (s: string): string => s.replace(/^ +| +$/g, '');
/** SQL of a regular-expression rule: false, not NULL, for an empty field. */
const matches = (c: string, pattern: string): string => `coalesce(regexp_full_match(trim(${c}), ${sqlString(pattern)}), false)`;

/** `column` holds a billing code (BILLING_CODE_PATTERN). */
export const billingCodeRule = (column = 'billing_code'): ColumnRule => ({
  column,
  expected: BILLING_CODE_EXPECTED,
  ok: (v) => BILLING_CODE.test(v),
  sql: (c) => matches(c, BILLING_CODE_PATTERN),
});

/** `column` holds a count: digits only (no sign, fraction, exponent, NaN or infinity), at most 2^63 - 1. */
export const countRule = (column: string): ColumnRule => ({
  column,
  expected: 'a whole number of claims, 0 or more (digits only, at most 9223372036854775807)',
  ok: (v) => /^[0-9]{1,19}$/.test(v) && BigInt(v) <= MAX_COUNT,
  sql: (c) => `(${matches(c, '[0-9]{1,19}')} AND TRY_CAST(trim(${c}) AS BIGINT) IS NOT NULL)`,
});

/** `column` holds a USPS state code (contract/rules/us-states.ts, any case) or nothing. */
export const stateRule = (column: string): ColumnRule => ({
  column,
  expected: 'a two-letter USPS state code (one of the 50 states, DC, AS, GU, MP, PR or VI) or nothing',
  ok: (v) => v === '' || USPS.has(v.toUpperCase()),
  sql: (c) => `(${c} IS NULL OR trim(${c}) = '' OR upper(trim(${c})) IN (${sqlList(USPS_STATE_CODES)}))`,
});

/** `column` holds one of `values` (lower case; compared in any case). */
export const oneOfRule = (column: string, values: readonly string[]): ColumnRule => ({
  column,
  expected: values.map((v) => `'${v}'`).join(' or '),
  ok: (v) => values.includes(v.toLowerCase()),
  sql: (c) => `coalesce(lower(trim(${c})) IN (${sqlList(values)}), false)`,
});

/** `column` matches `pattern` (an RE2 and JavaScript regular expression, whole value), or is empty when `empty`. */
export const patternRule = (column: string, pattern: string, expected: string, empty = false): ColumnRule => {
  const re = new RegExp(`^(?:${pattern})$`);
  return {
    column,
    expected,
    ok: (v) => (empty && v === '') || re.test(v),
    sql: (c) => (empty ? `(${c} IS NULL OR trim(${c}) = '' OR ${matches(c, pattern)})` : matches(c, pattern)),
  };
};

/**
 * Column names of a CSV file's header, read by DuckDB.
 * @throws when the file cannot be read as CSV.
 */
export async function csvColumns(con: DuckDBConnection, file: string): Promise<string[]> {
  const r = await con.runAndReadAll(`DESCRIBE SELECT * FROM read_csv($1, header = true, all_varchar = true)`, [file]);
  return r.getRowObjects().map((o) => String(o.column_name));
}

/**
 * Checks that `file`'s header has every column of `wanted`; returns its columns.
 * @throws Error `<file>: missing column 'a', 'b'`.
 */
export async function requireColumns(con: DuckDBConnection, file: string, wanted: readonly string[]): Promise<string[]> {
  const cols = await csvColumns(con, file);
  const missing = wanted.filter((c) => !cols.includes(c));
  if (missing.length) throw new Error(`${file}: missing column ${missing.map((m) => `'${m}'`).join(', ')}`);
  return cols;
}

/** SQL true for a row of `rules` that breaks one of them (columns quoted as identifiers). */
export function badRowSql(rules: readonly ColumnRule[]): string {
  return rules.length ? `NOT (${rules.map((r) => r.sql(`"${r.column.replace(/"/g, '""')}"`)).join(' AND ')})` : 'false';
}

/**
 * Stops at the first value of `file` that breaks one of `rules` (columns the file lacks are
 * skipped: requireColumns in build-tables.ts reports those).
 * @throws Error `<file>: line <n>, column '<name>': '<value>' is not <expected>`.
 */
export async function checkCsv(con: DuckDBConnection, file: string, rules: readonly ColumnRule[]): Promise<void> {
  const src = `read_csv(${sqlString(file)}, header = true, all_varchar = true)`;
  const cols = await csvColumns(con, file);
  const present = rules.filter((r) => cols.includes(r.column));
  const bad = await con.runAndReadAll(`SELECT 1 FROM ${src} WHERE ${badRowSql(present)} LIMIT 1`);
  if (bad.getRows().length === 0) return;
  await firstBadRecord(con, file, present);
}

/**
 * Throws the error of the first record of `file` that breaks one of `rules`, for a caller whose own
 * scan found that one does (build-tables.ts checks the NPI registry in the scan that reads it).
 * @throws always (see checkCsv).
 */
export async function failAtFirstBadRecord(con: DuckDBConnection, file: string, rules: readonly ColumnRule[]): Promise<never> {
  const cols = await csvColumns(con, file);
  return firstBadRecord(con, file, rules.filter((r) => cols.includes(r.column)));
}

/** How DuckDB reads `file`: its delimiter and quote (sniff_csv), `,` and `"` when it cannot tell. */
async function dialectOf(con: DuckDBConnection, file: string): Promise<{ delimiter: string; quote: string }> {
  try {
    const o = (await con.runAndReadAll(`SELECT Delimiter, Quote FROM sniff_csv(${sqlString(file)}, header = true)`)).getRowObjects()[0]!;
    const one = (v: unknown, d: string): string => (typeof v === 'string' && v.length === 1 ? v : d);
    return { delimiter: one(o.Delimiter, ','), quote: one(o.Quote, '"') };
  } catch {
    return { delimiter: ',', quote: '"' };
  }
}

/**
 * Reads `file` with csv-parse up to the first record that breaks one of `rules` and throws naming
 * it; the line is the record's first (a quoted field may hold line breaks). A column csv-parse does
 * not find in the header is not checked.
 * @throws always: that record's error, or, when csv-parse finds none where DuckDB did, an error
 *   naming the file and the rules' columns.
 */
async function firstBadRecord(con: DuckDBConnection, file: string, rules: readonly ColumnRule[]): Promise<never> {
  const { delimiter, quote } = await dialectOf(con, file);
  const records = createReadStream(file).pipe(parse({
    delimiter, quote, bom: true, info: true, relax_column_count: true, skip_empty_lines: true,
  }));
  let at: Array<[ColumnRule, number]> | null = null;
  let bad: string | null = null;
  // csv-parse's `lines` counts a CR LF inside a quoted field as two lines; a text editor, as one
  let crlf = 0;
  const count = (record: string[], re: RegExp): number => record.reduce((n, f) => n + (f.match(re)?.length ?? 0), 0);
  try {
    for await (const { record, info } of records as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      crlf += count(record, /\r\n/g);
      if (at === null) {
        const header = record.map(spaceTrim);
        at = rules.map((r): [ColumnRule, number] => [r, header.indexOf(r.column)]).filter(([, k]) => k >= 0);
        continue;
      }
      for (const [rule, k] of at) {
        const value = spaceTrim(record[k] ?? '');
        if (rule.ok(value)) continue;
        bad = `line ${info.lines - crlf - count(record, /\n/g)}, column '${rule.column}': ${shown(value)} is not ${rule.expected}`;
        break;
      }
      if (bad !== null) break;
    }
  } catch (e) {
    throw new Error(`${file}: ${(e as Error).message}`);
  } finally {
    records.destroy();
  }
  if (bad !== null) throw new Error(`${file}: ${bad}`);
  throw new Error(`${file}: a value of column ${rules.map((r) => `'${r.column}'`).join(', ')} breaks its rule (docs/converter.md, The catalog)`);
}

/** A value as messages quote it: `'text'` (at most 60 characters), or `an empty value`. */
const shown = (v: string): string => (v === '' ? 'an empty value' : `'${v.length > 60 ? `${v.slice(0, 57)}...` : v}'`);

/**
 * The codes of a billing-code list file's text (docs/converter.md, The catalog, filters.billing_codes):
 * one per line, spaces around it ignored, blank lines and lines beginning with `#` skipped.
 * @throws Error `<file>: line <n>, column <c>: '<line>' is not a billing code (...)` at the first
 *   other line that is not a billing code (BILLING_CODE_PATTERN); `c` is where its text begins.
 */
export function parseBillingCodeList(text: string, file: string): string[] {
  const codes: string[] = [];
  text.replace(/^\uFEFF/, '').split(/\r?\n/).forEach((line, i) => {
    const code = line.trim();
    if (code === '' || code.startsWith('#')) return;
    if (!BILLING_CODE.test(code)) {
      throw new Error(`${file}: line ${i + 1}, column ${line.search(/\S/) + 1}: ${shown(code)} is not ${BILLING_CODE_EXPECTED}`);
    }
    codes.push(code);
  });
  return codes;
}

/**
 * The codes of the catalog's `filters.billing_codes` array, spaces around each removed.
 * @throws Error `<catalog>: field filters.billing_codes[<i>]: '<value>' is not a billing code (...)`.
 */
export function checkBillingCodeArray(codes: readonly string[], catalogPath: string): string[] {
  return codes.map((c, i) => {
    const code = c.trim();
    if (!BILLING_CODE.test(code)) throw new Error(`${catalogPath}: field filters.billing_codes[${i}]: ${shown(code)} is not ${BILLING_CODE_EXPECTED}`);
    return code;
  });
}

/**
 * The catalog's billing-code filter (docs/converter.md, The catalog, filters.billing_codes), undefined without one.
 * @throws Error naming the list file's line and column, or the array's index, of a value that is not a billing code.
 */
export async function readBillingCodes(catalog: Catalog, baseDir: string, catalogPath: string): Promise<Set<string> | undefined> {
  const f = catalog.filters?.billing_codes;
  if (f == null) return undefined;
  if (Array.isArray(f)) return new Set(checkBillingCodeArray(f, catalogPath));
  const file = resolveLocation(baseDir, f);
  return new Set(parseBillingCodeList(await readFile(file, 'utf8'), file));
}
