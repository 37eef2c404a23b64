/**
 * The converter's reading path run in-process for the fuzz harness and the reader's tests:
 * readInProcess (scripts/convert/ingest/read-in-process.ts: readSource with the parser threads'
 * work done on this thread), then the spool CSV files read back and decoded into comparable rows:
 * what DuckDB would load (spool.ts documents the columns).
 */
import { readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { PRICE_COLUMN_SPECS } from '../../contract/files/price-columns';
import { readInProcess, removeSpool } from '../convert/ingest/read-in-process';
import { splitGroupIds } from '../convert/spool/spool-rows';
import type { SpoolFiles } from '../convert/spool/spool-rows';

/** How one read feeds the bytes and parses the elements. */
export interface ReadMode {
  /** Bytes per input chunk; 0 for the whole file at once. */
  chunk: number;
  /** Only the stored bytes [start, end) are fed `chunk` bytes at a time, the others COARSE_CHUNK at a time (fine chunks over a whole large file are slow). */
  fine?: { start: number; end: number };
  /** The bytes are gzip-compressed first (openContainer decompresses them). */
  gzip: boolean;
  /** Every element the slow way (JSON.parse and the normalisers), as COMPETE_SLOW_PARSE=1. */
  slow: boolean;
  /** The root scanner's split threshold (read-source.ts ReadSourceOptions.splitBytes); undefined for the default 8 MiB. */
  splitBytes?: number;
  /** The catalog's billing-code filter (ReadSourceOptions.billingCodes, and the parser threads' `keep`). */
  billingCodes?: readonly string[];
}

/** One `raw_items` row with its prices (the `raw_prices` rows of its item id), decoded. */
export interface ItemRows {
  id: number;
  billingCodeType: string | null;
  billingCode: string | null;
  name: string | null;
  description: string | null;
  arrangement: string | null;
  /** One JSON text per price: [rate index, price index, group ids (split as DuckDB splits them), price columns...], sorted. */
  prices: string[];
}

/** A tolerated problem as the converter reports it (report.json), without its message. */
export interface ProblemKey {
  code: string;
  path: string;
  offset: number;
}

/** What one read of a file gives, in a form that compares with ===/JSON. */
export interface ReadOutcome {
  /** The read failed as documented (MrfReadError): its reason and byte offset; rows are then empty. */
  fatal: { reason: string; offset: number } | null;
  header: string;
  items: ItemRows[];
  /** `raw_groups` rows as JSON texts, sorted. */
  groups: string[];
  /** Prices whose item id no `raw_items` row has (dropped by the join in build-tables.ts). */
  orphanPrices: number;
  /** Problems of the scanner and the parser, sorted by offset, code, path. */
  problems: ProblemKey[];
  /** Problem counts by code (the parser's counts are exact; kept problems are capped). */
  counts: Record<string, number>;
  /** Indices of the in_network items the scanner split (their rates came apart). */
  split: number[];
}

/** Reads a file (its stored bytes) into rows; a reader the harness checks (a fake one in its own tests). */
export type Reader = (bytes: Buffer, mode: ReadMode) => Promise<ReadOutcome>;

/** Input chunk size outside a read's `fine` range. */
export const COARSE_CHUNK = 4096;

/** Input chunks of `bytes` as `mode` says, each a fresh copy as a stream gives. */
async function* chunked(bytes: Buffer, mode: ReadMode): AsyncGenerator<Buffer> {
  if (mode.chunk <= 0) {
    yield Buffer.from(bytes);
    return;
  }
  const fine = mode.fine ?? { start: 0, end: bytes.length };
  for (let at = 0; at < bytes.length;) {
    const size = at >= fine.start && at < fine.end ? mode.chunk : Math.min(COARSE_CHUNK, Math.max(1, (at < fine.start ? fine.start : bytes.length) - at));
    yield Buffer.from(bytes.subarray(at, at + size));
    at += size;
  }
}

/** A CSV field of the spool: text, or null for NULL. */
export type Field = string | null;

/**
 * CSV rows of the spool's conventions (csv-file.ts): fields split on `,`, rows on LF, an empty
 * unquoted field is NULL, a quoted one is its text with `""` for `"` (and may hold `,`, CR, LF).
 * Written out here: csv-parse's per-field `cast`, which alone tells `""` from an empty field, is
 * some twenty times slower than this loop on a spool of 100,000 prices.
 */
function csvRows(bytes: Buffer): Field[][] {
  const text = bytes.toString('utf8');
  const rows: Field[][] = [];
  let row: Field[] = [];
  let at = 0;
  while (at < text.length) {
    let field: Field;
    if (text.charCodeAt(at) === 34) {
      let value = '';
      let from = at + 1;
      for (;;) {
        const q = text.indexOf('"', from);
        if (q < 0) throw new Error(`unterminated quoted field at ${at}`);
        value += text.slice(from, q);
        if (text.charCodeAt(q + 1) !== 34) {
          at = q + 1;
          break;
        }
        value += '"';
        from = q + 2;
      }
      field = value;
    } else {
      let end = at;
      while (end < text.length && text.charCodeAt(end) !== 44 && text.charCodeAt(end) !== 10) end++;
      field = end === at ? null : text.slice(at, end);
      at = end;
    }
    row.push(field);
    const c = text.charCodeAt(at);
    at++;
    if (c !== 44) {
      // LF or the end of the text: the row is complete
      rows.push(row);
      row = [];
    }
  }
  return rows;
}

/** The rows of raw table `table` in the spool files `files` (SpoolRows.close), part after part, as CSV fields. */
export async function tableRows(files: SpoolFiles, table: keyof SpoolFiles): Promise<Field[][]> {
  const out: Field[][] = [];
  for (const f of files[table] ?? []) out.push(...csvRows(await readFile(f)));
  return out;
}

const SHAPE_FIELDS = PRICE_COLUMN_SPECS.filter((c) => c.shape);
const ROW_FIELDS = PRICE_COLUMN_SPECS.filter((c) => !c.shape);

/** What a key written twice superseded (read-source.ts ReadSourceResult): ingest-file.ts drops it before it writes the partition. */
export type Superseded = { supersededItems: number; supersededRefs: number; supersededRates: Array<[number, number]> };

/** One `raw_prices` row decoded: its rate index (past the superseded rates of its item) and price index, group ids (split as DuckDB splits them; null for none) and price columns by `rates` column name. */
export interface PriceRow {
  rate: number;
  price: number;
  groups: string[] | null;
  columns: Record<string, Field>;
}

/** One `raw_items` row decoded, with its price rows in spool order. */
export interface SpoolItem {
  id: number;
  billingCodeType: Field;
  billingCode: Field;
  name: Field;
  description: Field;
  arrangement: Field;
  prices: PriceRow[];
}

/**
 * Decodes the spool files of one source into its items with their price rows, the value and shape
 * codes resolved (an unknown code as `?code n`, `?shape n`), without what `s` says was superseded;
 * `orphanPrices` counts the prices whose item id no `raw_items` row has.
 */
export async function decodeItems(files: SpoolFiles, s: Superseded): Promise<{ items: SpoolItem[]; orphanPrices: number }> {
  const superseded = s.supersededItems;
  const ratesBelow = new Map(s.supersededRates.map(([item, n]) => [String(item), n]));
  const values = new Map<string, Field>();
  for (const [code, value] of await tableRows(files, 'raw_values')) values.set(code!, value ?? null);
  const value = (code: Field): Field => (code === null ? null : values.has(code) ? values.get(code)! : `?code ${code}`);
  const shapes = new Map<string, Field[]>();
  for (const [code, list] of await tableRows(files, 'raw_shapes')) {
    shapes.set(code!, (list ?? '').split(':').map((c) => (c === '' ? null : value(c))));
  }
  const pricesOf = new Map<string, PriceRow[]>();
  for (const r of await tableRows(files, 'raw_prices')) {
    const [, itemId, rateIndex, priceIndex, groups, shape, ...rest] = r;
    if (Number(itemId) < superseded) continue;
    const below = ratesBelow.get(itemId!) ?? 0;
    if (Number(rateIndex) < below) continue;
    const shapeValues = shapes.get(shape!) ?? [`?shape ${shape}`];
    const columns: Record<string, Field> = {};
    SHAPE_FIELDS.forEach((c, k) => (columns[c.name] = shapeValues[k] ?? null));
    ROW_FIELDS.forEach((c, k) => (columns[c.name] = c.kind === 'number' ? rest[k] ?? null : value(rest[k] ?? null)));
    const row: PriceRow = { rate: Number(rateIndex) - below, price: Number(priceIndex), groups: groups === null || groups === undefined ? null : splitGroupIds(groups), columns };
    const list = pricesOf.get(itemId!);
    if (list) list.push(row);
    else pricesOf.set(itemId!, [row]);
  }
  const items: SpoolItem[] = [];
  const seen = new Set<string>();
  for (const [, id, type, code, name, description, arrangement] of await tableRows(files, 'raw_items')) {
    if (Number(id) < superseded) continue;
    seen.add(id!);
    items.push({ id: Number(id), billingCodeType: type ?? null, billingCode: code ?? null, name: name ?? null, description: description ?? null,
      arrangement: arrangement ?? null, prices: pricesOf.get(id!) ?? [] });
  }
  let orphanPrices = 0;
  for (const [id, list] of pricesOf) if (!seen.has(id)) orphanPrices += list.length;
  return { items, orphanPrices };
}

/** Decodes the spool files of one source into items with their prices as sorted texts, and group rows, without what `s` says was superseded. */
export async function decodeSpool(files: SpoolFiles, s: Superseded): Promise<Pick<ReadOutcome, 'items' | 'groups' | 'orphanPrices'>> {
  const { items, orphanPrices } = await decodeItems(files, s);
  // the last column, `ref_index`, is not in a partition; the one before it is the reference's `network_name`
  const groups = (await tableRows(files, 'raw_groups')).filter((r) => r[8] === null || r[8] === undefined || Number(r[8]) >= s.supersededRefs)
    .map((r) => JSON.stringify(r.slice(1, 8))).sort();
  return {
    items: items.map(({ prices, ...i }) => ({ ...i, prices: prices.map((p) => JSON.stringify([p.rate, p.price, p.groups, p.columns])).sort() })),
    groups,
    orphanPrices,
  };
}

/**
 * The converter's reader (readInProcess, the parse on this thread), its spool written under `dir`
 * and deleted once decoded.
 * @throws whatever the reader throws but MrfReadError (the documented failure, in `fatal`).
 */
export function converterReader(dir: string): Reader {
  return async (bytes, mode) => {
    const filter = mode.billingCodes ? new Set(mode.billingCodes) : undefined;
    const input = mode.gzip ? gzipSync(bytes) : bytes;
    const read = await readInProcess('fuzz.json', chunked(input, mode), {
      dir, tmpDir: dir, slow: mode.slow, ...(mode.splitBytes !== undefined ? { splitBytes: mode.splitBytes } : {}), ...(filter ? { billingCodes: filter } : {}),
    });
    const { result, done } = read;
    const fatal = read.fatal ? { reason: read.fatal.reason, offset: read.fatal.offset } : null;
    try {
      // what a key written twice superseded (the items of a first `in_network`, ...): ingest-file.ts
      // drops its rows before it writes the partition (read-source.ts)
      const decoded = fatal || !result ? { items: [], groups: [], orphanPrices: 0 } : await decodeSpool(done.files, result);
      const problems: ProblemKey[] = fatal ? [] : [...result!.problems, ...done.kept].map((p) => ({ code: p.code, path: p.path, offset: p.offset }));
      problems.sort((a, b) => a.offset - b.offset || a.code.localeCompare(b.code) || a.path.localeCompare(b.path));
      const counts: Record<string, number> = {};
      if (!fatal) {
        for (const p of result!.problems) counts[p.code] = (counts[p.code] ?? 0) + 1;
        for (const [code, n] of Object.entries(done.counts)) counts[code] = (counts[code] ?? 0) + n;
      }
      return { fatal, header: fatal ? '' : JSON.stringify(result!.header), ...decoded, problems, counts, split: fatal ? [] : read.split };
    } finally {
      await removeSpool(done);
    }
  };
}
