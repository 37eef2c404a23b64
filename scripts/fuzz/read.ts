/**
 * The converter's reading path run in-process for the fuzz harness and the reader's tests:
 * readInProcess (scripts/convert/ingest/read-in-process.ts: readSource with the parser threads'
 * work done on this thread), then the spool CSV files read back and decoded into comparable rows:
 * what DuckDB would load (spool.ts documents the columns).
 */
import { readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
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

/** CSV rows of the spool's conventions (csv-file.ts): an empty unquoted field is NULL, `""` the empty string. */
function csvRows(bytes: Buffer): Field[][] {
  return parse(bytes, {
    relax_column_count: true,
    record_delimiter: '\n',
    cast: (value: string, ctx: { quoting: boolean }) => (ctx.quoting || value !== '' ? value : null),
  }) as Field[][];
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

/** Decodes the spool files of one source into items with their prices, and group rows, without what `s` says was superseded. */
export async function decodeSpool(files: SpoolFiles, s: Superseded): Promise<Pick<ReadOutcome, 'items' | 'groups' | 'orphanPrices'>> {
  const superseded = s.supersededItems;
  const ratesBelow = new Map(s.supersededRates.map(([item, n]) => [String(item), n]));
  const values = new Map<string, Field>();
  for (const [code, value] of await tableRows(files, 'raw_values')) values.set(code!, value ?? null);
  const value = (code: Field): Field => (code === null ? null : values.has(code) ? values.get(code)! : `?code ${code}`);
  const shapes = new Map<string, Field[]>();
  for (const [code, list] of await tableRows(files, 'raw_shapes')) {
    shapes.set(code!, (list ?? '').split(':').map((c) => (c === '' ? null : value(c))));
  }
  const pricesOf = new Map<string, string[]>();
  for (const r of await tableRows(files, 'raw_prices')) {
    const [, itemId, rateIndex, priceIndex, groups, shape, ...rest] = r;
    if (Number(itemId) < superseded) continue;
    const below = ratesBelow.get(itemId!) ?? 0;
    if (Number(rateIndex) < below) continue;
    const shapeValues = shapes.get(shape!) ?? [`?shape ${shape}`];
    const columns: Record<string, Field> = {};
    SHAPE_FIELDS.forEach((c, k) => (columns[c.name] = shapeValues[k] ?? null));
    ROW_FIELDS.forEach((c, k) => (columns[c.name] = c.kind === 'number' ? rest[k] ?? null : value(rest[k] ?? null)));
    const text = JSON.stringify([Number(rateIndex) - below, Number(priceIndex), groups === null || groups === undefined ? null : splitGroupIds(groups), columns]);
    const list = pricesOf.get(itemId!) ?? [];
    list.push(text);
    pricesOf.set(itemId!, list);
  }
  const items: ItemRows[] = [];
  const seen = new Set<string>();
  for (const [, id, type, code, name, description, arrangement] of await tableRows(files, 'raw_items')) {
    if (Number(id) < superseded) continue;
    seen.add(id!);
    items.push({ id: Number(id), billingCodeType: type ?? null, billingCode: code ?? null, name: name ?? null, description: description ?? null,
      arrangement: arrangement ?? null, prices: [...(pricesOf.get(id!) ?? [])].sort() });
  }
  let orphanPrices = 0;
  for (const [id, list] of pricesOf) if (!seen.has(id)) orphanPrices += list.length;
  // the last column, `ref_index`, is not in a partition; the one before it is the reference's `network_name`
  const groups = (await tableRows(files, 'raw_groups')).filter((r) => r[8] === null || r[8] === undefined || Number(r[8]) >= s.supersededRefs)
    .map((r) => JSON.stringify(r.slice(1, 8))).sort();
  return { items, groups, orphanPrices };
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
