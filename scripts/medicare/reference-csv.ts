/**
 * Reading the CMS reference files as CSV (reference-data.ts reads each file with these): bytes to
 * text (UTF-8, else windows-1252), csv-parse records with their line numbers on errors, a header
 * found by its column names, and fields checked as numbers and HCPCS codes. Every error names the
 * file and, where it can, the line.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { isAscii, isUtf8 } from 'node:buffer';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { parse } from 'csv-parse/sync';

/** A CSV record: `index` among csv-parse's records (lineOf turns it into a line number). */
export interface Row { index: number; cells: string[] }
/** A file's content: `text` decoded (decode), `csv` what csv-parse reads (the bytes or the text). */
export interface Text { name: string; text: string; csv: { input: string | Buffer; encoding: 'latin1' | 'utf8' }; delimiter: string }

export const CODE = /^[0-9A-Z]{5}$/;
export const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;
export const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));
export const clean = (s: string): string => s.replace(/[\u00a0\u00ff]/g, ' ').replace(/\s+/g, ' ').trim();

export function fail(name: string, line: number | null, what: string): never {
  throw new Error(`${name}${line === null ? '' : ` line ${line}`}: ${what}`);
}

/** Throws naming the file and the line of the record `index` of rowsOf. */
export function failAt(t: Text, index: number, what: string): never {
  return fail(t.name, lineOf(t, index), what);
}

/**
 * UTF-8 when the bytes are valid UTF-8, else windows-1252 (CLFS and OPPS are cp1252), which is
 * latin1 but for the bytes 0x80-0x9F. csv-parse reads the bytes themselves when it can (ASCII or
 * UTF-8 as they are, cp1252 without 0x80-0x9F as latin1): 40% faster than from a string.
 */
export function decode(bytes: Buffer): Pick<Text, 'text' | 'csv'> {
  if (isAscii(bytes)) return { text: bytes.toString('latin1'), csv: { input: bytes, encoding: 'latin1' } };
  if (isUtf8(bytes)) return { text: bytes.toString('utf8'), csv: { input: bytes, encoding: 'utf8' } };
  let c1 = false;
  for (let i = 0; i < bytes.length && !c1; i++) c1 = bytes[i]! >= 0x80 && bytes[i]! <= 0x9f;
  if (!c1) return { text: bytes.toString('latin1'), csv: { input: bytes, encoding: 'latin1' } };
  const text = new TextDecoder('windows-1252').decode(bytes);
  return { text, csv: { input: text, encoding: 'utf8' } };
}

export async function readText(dir: string, name: string): Promise<Text & { file: { name: string; sha256: string; bytes: number } }> {
  const raw = await readFile(path.join(dir, name)).catch((e: unknown) => fail(name, null, `cannot read (${message(e)})`));
  const bytes = /\.gz$/i.test(name)
    ? await promisify(gunzip)(raw).catch((e: unknown) => fail(name, null, `not a complete gzip file (${message(e)})`))
    : raw;
  const { text, csv } = decode(bytes);
  const sha256 = createHash('sha256').update(raw).digest('hex');
  // OPPS Addendum B .txt is tab-delimited; the other files are CSV.
  const delimiter = /\.txt(\.gz)?$/i.test(name) && text.includes('\t') ? '\t' : ',';
  return { name, text, csv, delimiter, file: { name, sha256, bytes: raw.length } };
}

/** A HCPCS code as a line's first field may write it: five characters, four of them digits (not the header's `HCPCS`). */
const LINE_CODE = /^(?=(?:\D*\d){4})[0-9A-Z]{5}$/;

/**
 * `t` without the records whose first field is a HCPCS code outside `codes` (the preamble, the
 * header and every other line stay), for a file whose first column is the code (PFS, OPPS
 * Addendum B, HCPCS): what a conversion reads of a file of ~20,000 codes is its dataset's few.
 * Returns `t` itself when a line has an odd number of `"` (a quoted field across lines, which a
 * line filter would cut). Line numbers of errors on the result are those of the filtered text.
 */
export function onlyCodes(t: Text, codes: ReadonlySet<string>): Text {
  const lines = t.text.split('\n');
  const kept: string[] = [];
  for (const line of lines) {
    let quotes = 0;
    for (let i = line.indexOf('"'); i >= 0; i = line.indexOf('"', i + 1)) quotes++;
    if (quotes % 2 !== 0) return t;
    const end = line.indexOf(t.delimiter);
    const first = (end < 0 ? line : line.slice(0, end)).replace(/["\s\u00a0\u00ff]/g, '').toUpperCase();
    if (!LINE_CODE.test(first) || codes.has(first)) kept.push(line);
  }
  const text = kept.join('\n');
  return { ...t, text, csv: { input: text, encoding: 'utf8' } };
}

/**
 * The CSV records that are not blank, with their index among csv-parse's records. Line numbers come
 * from lineOf, on errors only: csv-parse's `info` option costs a third of the parse time.
 */
export function rowsOf({ name, csv, delimiter }: Text): Row[] {
  let records: string[][];
  try {
    records = parse(csv.input, { encoding: csv.encoding, delimiter, relax_column_count: true, skip_empty_lines: true });
  } catch (e) {
    return fail(name, null, message(e));
  }
  return records.map((cells, index) => ({ index, cells })).filter((r) => r.cells.some((c) => c.trim() !== ''));
}

/** Line number (1-based, the record's last line) of a record index of rowsOf. */
export function lineOf({ csv, delimiter }: Text, index: number): number {
  const records = parse(csv.input, { encoding: csv.encoding, delimiter, info: true, relax_column_count: true, skip_empty_lines: true });
  return (records as unknown as Array<{ info: { lines: number } }>)[index]?.info.lines ?? index + 1;
}

/**
 * A CSV file's header (the first row with a cell matching each pattern: columns by key), its data
 * rows (dataRows) and the copyright notices above the header. Throws naming the file.
 */
export function table<K extends string>(t: Text, wanted: Record<K, RegExp>): { col: Record<K, number>; data: Row[]; notices: string[] } {
  const rows = rowsOf(t);
  const keys = Object.keys(wanted) as K[];
  for (let at = 0; at < rows.length; at++) {
    const cells = rows[at]!.cells.map(clean);
    const col = {} as Record<K, number>;
    if (keys.every((k) => (col[k] = cells.findIndex((c) => wanted[k].test(c))) >= 0)) return { col, data: dataRows(t, rows, at), notices: noticesOf(rows, at) };
  }
  return fail(t.name, null, `no header row with the columns ${keys.map((k) => wanted[k].source).join(', ')}`);
}

/** Data rows after the header, each as wide as the header. */
export function dataRows(t: Text, rows: Row[], at: number): Row[] {
  const width = rows[at]!.cells.length;
  const out = rows.slice(at + 1);
  for (const r of out) if (r.cells.length !== width) failAt(t, r.index, `${r.cells.length} fields, the header has ${width}`);
  return out;
}

/** A number; `$` and `,` (OPPS Payment Rate) and spaces are dropped. */
export function num(t: Text, index: number, column: string, value: string): number {
  if (PLAIN_NUMBER.test(value)) return Number(value);
  const v = value.replace(/[$,\s]/g, '');
  if (!/^-?(\d+\.?\d*|\.\d+)$/.test(v)) failAt(t, index, `${column} "${value}" is not a number`);
  return Number(v);
}

/** A HCPCS code: spaces, NBSP and 0xFF dropped (OPPS writes `0526U ` and `A4341<0xFF>`), upper case. */
export function code(t: Text, index: number, value: string): string {
  const c = value.replace(/[\s\u00a0\u00ff]/g, '').toUpperCase();
  if (!CODE.test(c)) failAt(t, index, `"${value}" is not a 5-character HCPCS code`);
  return c;
}

export function put<V>(map: Map<string, V>, key: string, value: V, t: Text, index: number): void {
  if (map.has(key)) failAt(t, index, `a second line for ${key}`);
  map.set(key, value);
}

export function noticesOf(rows: Row[], at: number): string[] {
  return rows.slice(0, at).flatMap((r) => r.cells).filter((c) => /copyright/i.test(c)).map(clean);
}

