/**
 * Byte-level scanner of an in-network-rates root object (docs/architecture.md: split bytes first,
 * then `JSON.parse` small pieces). It reads the decompressed stream chunk by chunk, tracks
 * depth, strings and escapes across chunk boundaries, and cuts out as byte slices:
 * - each element of the root `provider_references[]` and `in_network[]` (one at a time),
 * - the value of every other root key that the caller wants (header scalars); the rest is skipped.
 * It validates the root structure only (object, keys, colons, commas); an element's inside is
 * checked by `JSON.parse` later. Structural errors and truncation throw `MrfReadError`.
 */
import { ItemSplitter, type RateSlice } from './item-splitter.js';
import { peekRejected } from './peek-billing-code.js';
import { ContainerScan } from './container-scan.js';
import { isWs, scalarEnd, skipString } from './scan-bytes.js';
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
  /** `filtered`: the filter rejected its billing code while it streamed; `bytes` is then empty. */
  /** `rates`: of a split item, the stream offsets [start, end) of its negotiated_rates' content, which `bytes` leave out. */
  | { kind: 'element'; array: RootArray; index: number; offset: number; bytes: Buffer; split?: boolean; filtered?: boolean; rates?: [number, number] }
  /** One `negotiated_rates[]` element of the split in_network item `index`. */
  | { kind: 'rate'; index: number; rateIndex: number; offset: number; bytes: Buffer }
  | { kind: 'value'; key: string; offset: number; bytes: Buffer }
  | { kind: 'problem'; code: string; path: string; offset: number; message: string };

const S_START = 0; // before the root '{' (whitespace, BOM)
const S_KEY_OR_END = 1; // after '{'
const S_KEY = 2; // after ','
const S_COLON = 3;
const S_VALUE = 4; // after ':'
const S_AFTER_VALUE = 5;
const S_ARR_FIRST = 6; // after '[' of a root array
const S_ARR_ELEM = 7; // after ',' inside a root array
const S_ARR_NEXT = 8; // after an element
const S_IN_VALUE = 9; // inside a value being scanned
const S_DONE = 10; // after the root '}'
const S_SPLIT = 11; // inside a large in_network element handed to an ItemSplitter

const K_CONTAINER = 1;
const K_STRING = 2;
const K_SCALAR = 3;

const P_KEY = 1;
const P_ROOT_VALUE = 2;
const P_ELEMENT = 3;

const EMPTY: Buffer = Buffer.alloc(0);

function show(c: number): string {
  return c >= 0x20 && c < 0x7f ? `'${String.fromCharCode(c)}'` : `byte 0x${c.toString(16).padStart(2, '0')}`;
}

/** Streaming splitter of one JSON root object; feed chunks with `push`, then call `finish`. */
export class RootScanner {
  private base = 0;
  private state = S_START;
  private bom = 0;
  private key = '';
  private array: RootArray | null = null;
  private index = 0;
  // the value being scanned
  private kind = 0;
  private purpose = 0;
  private depth = 0;
  private inStr = false;
  private esc = false;
  private capture = false;
  /** The open element's code was looked for (found, or not within PEEK_BYTES). */
  private peeked = false;
  private filtered = false;
  /** The open value went past MAX_NESTING. */
  private deep = false;
  private parts: Buffer[] = [];
  private segStart = 0;
  private valueOffset = 0;
  private trailingReported = false;
  private partsBytes = 0;
  private splitter: ItemSplitter | null = null;
  private readonly slices: RateSlice[] = [];
  private readonly containers = new ContainerScan();

  /**
   * @param file name used in errors
   * @param wantValue whether the value of a root key (other than the two arrays) is captured
   * @param splitBytes an in_network element still open past this many bytes is split
   * @param keepBillingCode the catalog's billing-code filter: a split item whose code (written
   *   before its negotiated_rates) it rejects gives no 'rate' events, only its head element
   */
  constructor(
    private readonly file: string,
    private readonly wantValue: (key: string) => boolean,
    private readonly splitBytes: number = DEFAULT_SPLIT_BYTES,
    private readonly keepBillingCode?: (code: string) => boolean,
  ) {}

  /** Decompressed bytes consumed so far. */
  get bytes(): number {
    return this.base;
  }

  /** Whether the bytes pushed so far end inside a string (a key, a value, in an element), and its next byte is escaped. */
  get openString(): { inStr: boolean; esc: boolean } {
    if (this.state === S_SPLIT) return this.splitter!.openString;
    if (this.state !== S_IN_VALUE || this.kind === K_SCALAR) return { inStr: false, esc: false };
    return { inStr: this.kind === K_STRING || this.inStr, esc: this.esc };
  }

  /** Counts `n` stream bytes not pushed (a long string's middle, long-strings.ts); negative before bytes pushed in their place. */
  skip(n: number): void {
    this.base += n;
  }

  /** Scans one chunk, appending what it completes to `out`. Throws MrfReadError on bad structure. */
  push(buf: Buffer, out: ScanEvent[]): void {
    const n = buf.length;
    let i = 0;
    this.segStart = 0;
    this.containers.newChunk();
    while (i < n) {
      if (this.state === S_SPLIT) {
        const end = this.splitter!.push(buf, i, this.base, this.slices);
        this.takeSlices(out);
        if (end < 0) break;
        const { ratesStart, ratesEnd } = this.splitter!;
        out.push({ kind: 'element', array: 'in_network', index: this.index++, offset: this.valueOffset, bytes: this.splitter!.headBytes(), split: true,
          ...(ratesStart >= 0 ? { rates: [ratesStart, ratesEnd] as [number, number] } : {}) });
        this.splitter = null;
        this.state = S_ARR_NEXT;
        i = end;
        continue;
      }
      if (this.state === S_IN_VALUE) {
        const end = this.kind === K_CONTAINER ? this.scanContainer(buf, i) : this.kind === K_STRING ? this.scanString(buf, i) : scalarEnd(buf, i);
        if (this.kind === K_CONTAINER && !this.deep && this.containers.maxDepth > MAX_NESTING) this.deep = this.stopCapture();
        if (end < 0 && this.purpose === P_ELEMENT && this.array === 'in_network' && this.kind === K_CONTAINER && this.capture &&
          this.partsBytes + n - this.segStart > this.splitBytes) {
          this.startSplit(buf, out);
          break;
        }
        if (end < 0) break;
        this.endValue(buf, end, out);
        i = end;
        continue;
      }
      const c = buf[i]!;
      if (isWs(c)) {
        i++;
        continue;
      }
      i = this.structural(buf, i, c, out);
    }
    if (this.state === S_IN_VALUE && this.capture && !this.peeked && this.keepBillingCode && this.purpose === P_ELEMENT &&
      this.array === 'in_network' && this.rejectedByPeek(buf)) this.filtered = this.stopCapture();
    // a value still open at the chunk end keeps its bytes of this chunk
    if (this.state === S_IN_VALUE && this.capture && this.segStart < n) {
      this.parts.push(buf.subarray(this.segStart));
      this.partsBytes += n - this.segStart;
    }
    this.base += n;
  }

  /**
   * Whether the open in_network element's `billing_code`, read from its first bytes (those kept
   * so far and this chunk's), is known and rejected by the filter (peekRejected).
   */
  private rejectedByPeek(buf: Buffer): boolean {
    const { decided, rejected } = peekRejected(this.parts, buf.subarray(this.segStart), this.keepBillingCode!);
    this.peeked = decided;
    return rejected;
  }

  /** Keeps no more bytes of the open value (filtered out, or nested too deep: endValue says which); returns true. */
  private stopCapture(): true {
    this.capture = false;
    this.parts = [];
    this.partsBytes = 0;
    return true;
  }

  /** Hands the open in_network element to an ItemSplitter, replaying its bytes so far. */
  private startSplit(buf: Buffer, out: ScanEvent[]): void {
    const splitter = new ItemSplitter(this.keepBillingCode, this.containers);
    let offset = this.valueOffset;
    for (const part of this.parts) {
      splitter.push(part, 0, offset, this.slices);
      offset += part.length;
    }
    splitter.push(buf, this.segStart, this.base, this.slices);
    this.parts = [];
    this.partsBytes = 0;
    this.splitter = splitter;
    this.state = S_SPLIT;
    this.takeSlices(out);
  }

  private takeSlices(out: ScanEvent[]): void {
    for (const s of this.slices) out.push({ kind: 'rate', index: this.index, rateIndex: s.rateIndex, offset: s.offset, bytes: s.bytes });
    this.slices.length = 0;
  }

  /** Call at end of stream: throws MrfReadError unless the root object was closed. */
  finish(): void {
    if (this.state === S_DONE) return;
    if (this.base === 0) throw new MrfReadError(this.file, 0, 'empty file');
    const where = this.state === S_START ? 'no JSON object in the file' : 'truncated JSON: the stream ends inside the root object';
    throw new MrfReadError(this.file, this.base, where);
  }

  private fail(i: number, reason: string): never {
    throw new MrfReadError(this.file, this.base + i, reason);
  }

  /** Handles one non-whitespace byte outside a value; returns the next index. */
  private structural(buf: Buffer, i: number, c: number, out: ScanEvent[]): number {
    switch (this.state) {
      case S_START:
        if (c === 0xef && this.bom === 0 && this.base + i === 0) this.bom = 1;
        else if (c === 0xbb && this.bom === 1 && this.base + i === 1) this.bom = 2;
        else if (c === 0xbf && this.bom === 2 && this.base + i === 2) this.bom = 3;
        else if (c === 0x7b && (this.bom === 0 || this.bom === 3)) this.state = S_KEY_OR_END;
        else if ((c === 0xff || c === 0xfe) && this.base + i === 0 && buf[i + 1] === (c ^ 0x01)) {
          this.fail(i, `not JSON: the file is UTF-16 ${c === 0xff ? 'LE' : 'BE'} (byte order mark ${show(c).slice(5)} ${show(c ^ 0x01).slice(5)}); JSON files must be UTF-8`);
        } else this.fail(i, `not JSON: expected '{' at the start of the root object, found ${show(c)}`);
        return i + 1;
      case S_KEY_OR_END:
      case S_KEY:
        if (c === 0x7d && this.state === S_KEY_OR_END) {
          this.state = S_DONE;
          return i + 1;
        }
        if (c !== 0x22) this.fail(i, `not JSON: expected a key in the root object, found ${show(c)}`);
        return this.beginValue(buf, i, c, P_KEY, true);
      case S_COLON:
        if (c !== 0x3a) this.fail(i, `not JSON: expected ':' after root key "${this.key}", found ${show(c)}`);
        this.state = S_VALUE;
        return i + 1;
      case S_VALUE:
        if (this.key === 'provider_references' || this.key === 'in_network') {
          if (c === 0x5b) {
            this.array = this.key;
            this.index = 0;
            this.state = S_ARR_FIRST;
            return i + 1;
          }
          out.push({ kind: 'problem', code: 'invalid_field', path: `$.${this.key}`, offset: this.base + i, message: `${this.key} is not an array; ignored` });
          return this.beginValue(buf, i, c, P_ROOT_VALUE, false);
        }
        return this.beginValue(buf, i, c, P_ROOT_VALUE, this.wantValue(this.key));
      case S_AFTER_VALUE:
        if (c === 0x2c) this.state = S_KEY;
        else if (c === 0x7d) this.state = S_DONE;
        else this.fail(i, `not JSON: expected ',' or '}' in the root object, found ${show(c)}`);
        return i + 1;
      case S_ARR_FIRST:
      case S_ARR_ELEM:
        if (c === 0x5d && this.state === S_ARR_FIRST) {
          this.state = S_AFTER_VALUE;
          return i + 1;
        }
        return this.beginValue(buf, i, c, P_ELEMENT, true);
      case S_ARR_NEXT:
        if (c === 0x2c) this.state = S_ARR_ELEM;
        else if (c === 0x5d) this.state = S_AFTER_VALUE;
        else this.fail(i, `not JSON: expected ',' or ']' in ${this.array}, found ${show(c)}`);
        return i + 1;
      default: // S_DONE
        if (!this.trailingReported) {
          this.trailingReported = true;
          out.push({ kind: 'problem', code: 'trailing_data', path: '$', offset: this.base + i, message: 'data after the end of the root object; ignored' });
        }
        return buf.length;
    }
  }

  private beginValue(buf: Buffer, i: number, c: number, purpose: number, capture: boolean): number {
    if (c === 0x2c || c === 0x3a || c === 0x5d || c === 0x7d) this.fail(i, `not JSON: expected a value, found ${show(c)}`);
    this.purpose = purpose;
    this.capture = capture;
    this.valueOffset = this.base + i;
    this.segStart = i;
    this.state = S_IN_VALUE;
    this.inStr = false;
    this.esc = false;
    this.peeked = false;
    this.filtered = false;
    this.deep = false;
    if (c === 0x7b || c === 0x5b) {
      this.kind = K_CONTAINER;
      this.depth = 1;
      this.containers.maxDepth = 1;
      return i + 1;
    }
    if (c === 0x22) {
      this.kind = K_STRING;
      return i + 1;
    }
    // a number, true, false, null (or NaN / Infinity, which parse-element.ts tolerates inside an element)
    if (!(c === 0x2d || (c >= 0x30 && c <= 0x39) || c === 0x74 || c === 0x66 || c === 0x6e || c === 0x4e || c === 0x49)) {
      this.fail(i, `not JSON: expected a value, found ${show(c)}`);
    }
    this.kind = K_SCALAR;
    return i;
  }

  private endValue(buf: Buffer, end: number, out: ScanEvent[]): void {
    let bytes = EMPTY;
    if (this.capture) {
      const last = buf.subarray(this.segStart, end);
      bytes = this.parts.length === 0 ? last : Buffer.concat([...this.parts, last]);
      this.parts = [];
      this.partsBytes = 0;
    }
    const offset = this.valueOffset;
    if (this.deep && this.purpose !== P_KEY) {
      const path = this.purpose === P_ROOT_VALUE ? `$.${this.key}` : elementPath(this.array!, this.index++);
      out.push({ kind: 'problem', code: 'nesting_too_deep', path, offset, message: `nested more than ${MAX_NESTING} levels deep; dropped` });
      this.state = this.purpose === P_ROOT_VALUE ? S_AFTER_VALUE : S_ARR_NEXT;
      return;
    }
    if (this.purpose === P_KEY) {
      try {
        this.key = JSON.parse(bytes.toString('utf8')) as string;
      } catch {
        throw new MrfReadError(this.file, offset, 'not JSON: invalid root key');
      }
      this.state = S_COLON;
    } else if (this.purpose === P_ROOT_VALUE) {
      if (this.capture) out.push({ kind: 'value', key: this.key, offset, bytes });
      this.state = S_AFTER_VALUE;
    } else {
      if (this.filtered) out.push({ kind: 'element', array: this.array!, index: this.index++, offset, bytes, filtered: true });
      else out.push({ kind: 'element', array: this.array!, index: this.index++, offset, bytes });
      this.state = S_ARR_NEXT;
    }
  }

  /**
   * Finds the end of an object/array (container-scan.ts, in WebAssembly); returns the index after
   * it, or -1 at chunk end. A string or escape left open by the previous chunk is finished here.
   */
  private scanContainer(buf: Buffer, i: number): number {
    const depth = this.depth;
    if (this.esc) {
      this.esc = false;
      i++;
    }
    if (this.inStr) {
      i = skipString(buf, i);
      if (i < 0) return this.openAtEnd(depth, true, i === -2);
      i++;
    }
    const end = this.containers.scan(buf, i, depth);
    if (end >= 0) {
      this.depth = 0;
      this.inStr = false;
      return end;
    }
    return this.openAtEnd(this.containers.depth, this.containers.inStr, this.containers.esc);
  }

  private openAtEnd(depth: number, inStr: boolean, esc: boolean): -1 {
    this.depth = depth;
    this.inStr = inStr;
    this.esc = esc;
    return -1;
  }

  /** The end of a string value (after its quote, skipString), or -1 at chunk end. */
  private scanString(buf: Buffer, i: number): number {
    if (this.esc) {
      this.esc = false;
      i++;
    }
    const q = skipString(buf, i);
    this.esc = q === -2;
    return q < 0 ? -1 : q + 1;
  }
}
