/**
 * What the root scanner (root-scanner.ts) gives, and the small pure helpers that make its events:
 * the rates and stray-byte problems of a split item in stream order, the problem of a byte that
 * is not JSON between two elements, how a byte is shown in a message.
 */
import type { ItemSplitter, RateSlice } from './item-splitter.js';
import { elementPath } from './normalize-context.js';
import { MrfReadError } from './types.js';

/**
 * An `in_network[]` element still open past this many bytes is split by its negotiated_rates. 8 MiB
 * keeps what one parser thread holds at once (the parsed element is several times its bytes) small.
 */
export const DEFAULT_SPLIT_BYTES = 8 * 1024 * 1024;

/**
 * Nesting levels an element or a captured root value may reach (itself level 1; a CMS item goes 6
 * deep): past it, it is dropped (`nesting_too_deep`) before any parser walks it. The rates of a
 * split item (item-splitter.ts) reach only parsers that do not recurse.
 */
export const MAX_NESTING = 64;

/** The two root arrays whose elements are cut one by one. */
export type RootArray = 'provider_references' | 'in_network';

/** What the scanner found, in file order. Offsets are bytes of the decompressed stream. */
export type ScanEvent =
  /** `split`: an in_network item whose negotiated_rates came before as 'rate' events (bytes hold `[]`). */
  /** `droppedFor`: of a split item, the billing code for which the filter left its rates out (no 'rate' events). */
  /** `rates`: of a split item, the stream offsets [start, end) of its negotiated_rates' content, which `bytes` leave out. */
  /** `supersededRates`: of a split item whose negotiated_rates is written twice, the rates (indexes below it) of the first ones; `supersededAt` the last key's offset. */
  | { kind: 'element'; array: RootArray; index: number; offset: number; bytes: Buffer; split?: boolean; droppedFor?: string; rates?: [number, number];
    supersededRates?: number; supersededAt?: number }
  /** One `negotiated_rates[]` element of the split in_network item `index`. */
  | { kind: 'rate'; index: number; rateIndex: number; offset: number; bytes: Buffer }
  | { kind: 'value'; key: string; offset: number; bytes: Buffer }
  | { kind: 'problem'; code: string; path: string; offset: number; message: string };

/** `,` `:` `]` `}`: out of place, they break the root's structure (an error), unlike a stray byte. */
export function isStructural(c: number): boolean {
  return c === 0x2c || c === 0x3a || c === 0x5d || c === 0x7d;
}

/** A byte as a message shows it: the character when printable ASCII, else its hex value. */
export function show(c: number): string {
  return c >= 0x20 && c < 0x7f ? `'${String.fromCharCode(c)}'` : `byte 0x${c.toString(16).padStart(2, '0')}`;
}

/** An `invalid_json` problem for byte `c` at `offset`, not JSON, between two elements of the array at `path` (skipped). */
export function strayProblem(offset: number, c: number, path: string): ScanEvent {
  return { kind: 'problem', code: 'invalid_json', path, offset, message: `${show(c)} between two elements is not JSON; skipped` };
}

/**
 * Appends to `out` the rate events of split item `index` (`slices`) and the problems of the stray
 * bytes found between its rates (`stray`, item-splitter.ts), in stream order; empties both lists.
 */
export function sliceEvents(index: number, slices: RateSlice[], stray: Array<{ offset: number; byte: number }>, out: ScanEvent[]): void {
  const path = `${elementPath('in_network', index)}.negotiated_rates`;
  let k = 0;
  for (const s of slices) {
    for (; k < stray.length && stray[k]!.offset < s.offset; k++) out.push(strayProblem(stray[k]!.offset, stray[k]!.byte, path));
    out.push({ kind: 'rate', index, rateIndex: s.rateIndex, offset: s.offset, bytes: s.bytes });
  }
  for (; k < stray.length; k++) out.push(strayProblem(stray[k]!.offset, stray[k]!.byte, path));
  stray.length = 0;
  slices.length = 0;
}

/**
 * The root object's keys as the scanner meets them. A key written twice is reported
 * (`duplicate_key`, at the second); JSON keeps its last value, so the elements of a root array
 * written before are superseded (their indexes below `superseded`: the caller drops them), and
 * the next array goes on numbering (`nextIndex`), so an element id never repeats in a file.
 */
export class RootKeys {
  private readonly seen = new Set<string>();
  /** The next element index of each root array. */
  readonly nextIndex: Record<RootArray, number> = { provider_references: 0, in_network: 0 };
  /** Of each root array, the number of elements a later value of its key replaced (0: none). */
  readonly superseded: Record<RootArray, number> = { provider_references: 0, in_network: 0 };

  /** Notes root key `key` at stream offset `offset`; returns its problem when it was seen before. */
  add(key: string, offset: number): ScanEvent | undefined {
    if (!this.seen.has(key)) {
      this.seen.add(key);
      return undefined;
    }
    const array = key === 'in_network' || key === 'provider_references';
    if (array) this.superseded[key] = this.nextIndex[key];
    return { kind: 'problem', code: 'duplicate_key', path: `$.${key}`, offset,
      message: `root key ${JSON.stringify(key)} written twice; the last value is kept${array ? ', the elements of the first one are dropped' : ''}` };
  }
}

/**
 * One non-whitespace byte `c` (`buf[i]`, stream offset `at`) before the root object's `{`, with
 * `bom` bytes of a UTF-8 byte order mark seen so far: returns the new count, or -1 at the `{`.
 * @throws MrfReadError naming `file` and `at` for anything else (a UTF-16 mark by name).
 */
export function rootStart(file: string, buf: Buffer, i: number, at: number, bom: number): number {
  const c = buf[i]!;
  if (c === 0xef && bom === 0 && at === 0) return 1;
  if (c === 0xbb && bom === 1 && at === 1) return 2;
  if (c === 0xbf && bom === 2 && at === 2) return 3;
  if (c === 0x7b && (bom === 0 || bom === 3)) return -1;
  if ((c === 0xff || c === 0xfe) && at === 0 && buf[i + 1] === (c ^ 0x01)) {
    throw new MrfReadError(file, at, `not JSON: the file is UTF-16 ${c === 0xff ? 'LE' : 'BE'} (byte order mark ${show(c).slice(5)} ${show(c ^ 0x01).slice(5)}); JSON files must be UTF-8`);
  }
  throw new MrfReadError(file, at, `not JSON: expected '{' at the start of the root object, found ${show(c)}`);
}

/** The element event of split item `index` at `offset`, once `splitter` has reached its end. */
export function splitElement(index: number, offset: number, splitter: ItemSplitter): ScanEvent {
  const { ratesStart, ratesEnd, droppedRatesOf: droppedFor, supersededRates, supersededAt } = splitter;
  return { kind: 'element', array: 'in_network', index, offset, bytes: splitter.headBytes(), split: true,
    ...(ratesStart >= 0 ? { rates: [ratesStart, ratesEnd] as [number, number] } : {}), ...(droppedFor !== undefined ? { droppedFor } : {}),
    ...(supersededAt >= 0 ? { supersededRates, supersededAt } : {}) };
}
