/**
 * Reads MRF bytes or files through the converter's reading path on this thread (readInProcess of
 * scripts/convert/ingest/read-in-process.ts: readSource, then the fast path of fast-rates.ts or
 * JSON.parse and the normalisers, into spool CSV files), and decodes the spool back into the
 * reader's values (scripts/mrf/types.ts) as the spool holds them: an item's columns of `raw_items`
 * with its rates, each a rate index, the ids it names, its inline groups and its prices (the
 * `raw_prices` rows, decoded by scripts/fuzz/read.ts decodeItems), the root provider_references
 * from `raw_groups`, the problems with their messages, readSource's totals, and the elements sent
 * with their offsets (the spool holds no element offset). Each read spools into a temp dir of its
 * own, deleted once decoded.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { PRICE_COLUMN_SPECS } from '../../contract/files/price-columns';
import { openSources, type OpenedFile } from '../../scripts/convert/ingest/open-sources';
import { readInProcess, removeSpool, type InProcessRead, type SentElement } from '../../scripts/convert/ingest/read-in-process';
import type { SourceDone } from '../../scripts/convert/ingest/parse-pool';
import type { ReadSourceResult } from '../../scripts/convert/ingest/read-source';
import { DEFAULT_FETCH_POLICY } from '../../scripts/convert/plan/fetch-policy';
import { INLINE_PREFIX } from '../../scripts/convert/spool/spool-rows';
import { decodeItems, tableRows, type Field, type PriceRow } from '../../scripts/fuzz/read';
import { MrfReadError, type MrfHeader, type MrfPrice, type MrfProblem, type MrfProvider } from '../../scripts/mrf/types';
import { chunked, type Counts } from './mrf-test-helpers';

/** Options of a read: readSource's billing-code filter, split threshold and progress callback, and the parse path. */
export interface ReadOptions {
  billingCodes?: ReadonlySet<string>;
  splitBytes?: number;
  /** Every element the slow way (JSON.parse and the normalisers), as COMPETE_SLOW_PARSE=1. */
  slow?: boolean;
  onProgress?: (bytesRead: number, totalBytes: number | null) => void;
}

/** One negotiated rate of an item as its `raw_prices` rows give it back; a rate without a price has no row and is absent. */
export interface RateRows {
  /** Its index in the item's negotiated_rates. */
  rate: number;
  /** The provider-group ids it names, as written (raw id tokens). */
  provider_references: string[];
  /** Its inline provider groups (spooled under `inline:` ids), each flattened to its providers. */
  provider_groups: MrfProvider[][];
  /** Its prices in file order; a text column NULL in the spool is '', a code list split on ','. */
  prices: MrfPrice[];
}

/** One `raw_items` row with its rates; a text column NULL in the spool is ''. */
export interface ItemRows {
  /** The item's index in `in_network`. */
  id: number;
  negotiation_arrangement: string;
  name: string;
  billing_code_type: string;
  billing_code: string;
  description: string;
  negotiated_rates: RateRows[];
}

/** One spooled element of the root `provider_references`: its `raw_groups` rows. */
export interface RefRows {
  /** Its index in `provider_references` (`raw_groups.ref_index`). */
  index: number;
  provider_group_id: string;
  /** One per provider row; none for a remote or empty group (its one row has no provider). */
  providers: MrfProvider[];
  location?: string;
  network_name?: string[];
}

/** What a read gives, decoded; on a refusal only `fatal` and `sent` say anything. */
export interface ReadRows {
  fatal: MrfReadError | null;
  header: MrfHeader | null;
  /** In file order. */
  items: ItemRows[];
  /** In file order. */
  refs: RefRows[];
  /** Of the scanner, the header and the parser (the parser's first MAX_PER_KIND per code), by offset, code, path. */
  problems: MrfProblem[];
  /** Problem counts by code, every one counted. */
  counts: Record<string, number>;
  /** readSource's totals, and the items and provider references the parse spooled. */
  totals: (Pick<ReadSourceResult, 'jsonBytes' | 'inputBytes' | 'sha256' | 'skippedItems'> & { items: number; providerReferences: number }) | null;
  /** The elements readSource sent to the parse, in order, with their offsets. */
  sent: SentElement[];
  /** Indices of the items the scanner split. */
  split: number[];
}

/** Reads `bytes` (named `test.json`) fed in chunks of `size` bytes. */
export async function readBytes(bytes: Uint8Array, size = 64 * 1024, o: ReadOptions = {}): Promise<ReadRows> {
  return withDir((dir) => readInProcess('test.json', chunked(bytes, size), { dir, ...o, record: true }));
}

/**
 * Reads the file at `file` as a conversion opens it (open-sources.ts openSources: its size for
 * progress, a zip or 7z entry), `fatal` when it cannot be opened.
 */
export async function readPath(file: string, o: ReadOptions = {}): Promise<ReadRows> {
  return withDir(async (dir) => {
    const progress = o.onProgress ?? (() => undefined);
    let opened: OpenedFile;
    try {
      opened = await openSources({ insurerId: 'test', url: file, location: file }, DEFAULT_FETCH_POLICY, dir, progress);
    } catch (e) {
      if (!(e instanceof MrfReadError)) throw e;
      return { result: null, fatal: e, done: null, split: [], sent: [] };
    }
    try {
      const source = opened.sources[0]!;
      return await readInProcess(source.name, source.open(), {
        dir, ...o, record: true, ...(source.size !== null ? { inputBytes: source.size } : {}), ...(source.archive ? { archive: source.archive } : {}),
      });
    } finally {
      await opened.close();
    }
  });
}

/** An in-process read, or a file that could not be opened (nothing spooled: `done` null). */
type Spooled = Omit<InProcessRead, 'done'> & { done: SourceDone | null };

/** Runs `read` in a temp dir, decodes what it spooled and deletes the dir. */
async function withDir(read: (dir: string) => Promise<Spooled>): Promise<ReadRows> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'compete-reader-test-'));
  try {
    const r = await read(dir);
    try {
      return await decode(r);
    } finally {
      if (r.done) await removeSpool(r.done);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The rows of a read from its spool files, without what a key written twice superseded (as ingest-file.ts drops it). */
async function decode({ result, fatal, done, split, sent }: Spooled): Promise<ReadRows> {
  if (fatal || !result || !done) return { fatal, header: null, items: [], refs: [], problems: [], counts: {}, totals: null, sent, split };
  const groups = (await tableRows(done.files, 'raw_groups')).map((r) => ({ id: r[1] ?? '', provider: providerOf(r), remote: r[6] ?? null, networks: r[7] ?? null, ref: r[8] }));
  const inline = new Map<string, MrfProvider[]>();
  for (const g of groups) if (g.ref === null && g.id.startsWith(INLINE_PREFIX) && g.provider) inline.set(g.id, [...(inline.get(g.id) ?? []), g.provider]);
  const refs = new Map<number, RefRows>();
  for (const g of groups) {
    if (g.ref === null || g.ref === undefined || Number(g.ref) < result.supersededRefs) continue;
    const index = Number(g.ref);
    const ref = refs.get(index) ?? { index, provider_group_id: g.id, providers: [] };
    if (g.provider) ref.providers.push(g.provider);
    if (g.remote !== null) ref.location = g.remote;
    if (g.networks !== null) ref.network_name = JSON.parse(g.networks) as string[];
    refs.set(index, ref);
  }
  const { items } = await decodeItems(done.files, result);
  const problems = [...result.problems, ...done.kept];
  problems.sort((a, b) => a.offset - b.offset || a.code.localeCompare(b.code) || a.path.localeCompare(b.path));
  const counts: Record<string, number> = {};
  for (const p of result.problems) counts[p.code] = (counts[p.code] ?? 0) + 1;
  for (const [code, n] of Object.entries(done.counts)) counts[code] = (counts[code] ?? 0) + n;
  return {
    fatal: null,
    header: result.header,
    items: items.map((i) => ({
      id: i.id, negotiation_arrangement: i.arrangement ?? '', name: i.name ?? '', billing_code_type: i.billingCodeType ?? '', billing_code: i.billingCode ?? '',
      description: i.description ?? '', negotiated_rates: ratesOf(i.prices, inline),
    })).sort((a, b) => a.id - b.id),
    refs: [...refs.values()].sort((a, b) => a.index - b.index),
    problems,
    counts,
    totals: { jsonBytes: result.jsonBytes, inputBytes: result.inputBytes, sha256: result.sha256, skippedItems: result.skippedItems, items: done.items,
      providerReferences: done.providerReferences },
    sent,
    split,
  };
}

/** The provider of a `raw_groups` row (spool-rows.ts SpoolRows.group: npi, tin_type, tin_value at 3-5); null for a row without one. */
function providerOf(r: Field[]): MrfProvider | null {
  if (r[3] === null && r[4] === null && r[5] === null) return null;
  return { npi: r[3] ?? null, tin_type: r[4] ?? '', tin_value: r[5] ?? '' };
}

/** The rates of an item from its price rows (decodeItems), by rate index, prices by price index. */
function ratesOf(prices: PriceRow[], inline: ReadonlyMap<string, MrfProvider[]>): RateRows[] {
  const sorted = [...prices].sort((a, b) => a.rate - b.rate || a.price - b.price);
  const rates: RateRows[] = [];
  for (const { rate, groups, columns } of sorted) {
    let r = rates.at(-1);
    if (r?.rate !== rate) {
      const ids = groups ?? [];
      r = {
        rate,
        provider_references: ids.filter((id) => !id.startsWith(INLINE_PREFIX)),
        provider_groups: ids.filter((id) => id.startsWith(INLINE_PREFIX)).map((id) => inline.get(id) ?? []),
        prices: [],
      };
      rates.push(r);
    }
    r.prices.push(priceOf(columns));
  }
  return rates;
}

/** A price's columns (by `rates` column name, as text) as an MrfPrice (by CMS field). */
function priceOf(columns: Record<string, Field>): MrfPrice {
  const out: Record<string, string | number | string[]> = {};
  for (const c of PRICE_COLUMN_SPECS) {
    const v = columns[c.name] ?? null;
    out[c.field] = c.kind === 'number' ? Number(v) : c.kind === 'codes' ? (v ? v.split(',') : []) : v ?? '';
  }
  return out as unknown as MrfPrice;
}

/** Counts the rows of a read the way independentCounts (mrf-test-helpers.ts) counts the document. */
export function rowCounts(r: ReadRows): Counts {
  const c: Counts = { items: 0, prices: 0, references: 0, referenceProviders: 0, inlineProviders: 0 };
  for (const it of r.items) {
    c.items++;
    for (const rate of it.negotiated_rates) {
      c.prices += rate.prices.length;
      for (const g of rate.provider_groups) c.inlineProviders += g.length;
    }
  }
  for (const ref of r.refs) {
    c.references++;
    c.referenceProviders += ref.providers.length;
  }
  return c;
}

/**
 * Reads `bytes` as readBytes does on the fast path and again on the slow one (every element through
 * JSON.parse and the normalisers, which the fast path falls back to); expects the same rows and
 * problems, and returns them.
 */
export async function readBothWays(bytes: Uint8Array, size = 64 * 1024, o: Omit<ReadOptions, 'slow'> = {}): Promise<ReadRows> {
  const fast = await readBytes(bytes, size, o);
  const slow = await readBytes(bytes, size, { ...o, slow: true });
  expectSameRead(slow, fast);
  return fast;
}

/**
 * Expects reads `a` and `b` to give the same rows, problems, totals and element offsets: compared as
 * JSON first (a deep toEqual of 100,000 prices takes seconds), and by toEqual for its diff when
 * they differ.
 */
export function expectSameRead(a: ReadRows, b: ReadRows): void {
  if (JSON.stringify(a) !== JSON.stringify(b)) expect(a).toEqual(b);
  expect(a.fatal?.message).toBe(b.fatal?.message);
}
