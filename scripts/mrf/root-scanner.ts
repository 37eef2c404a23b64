/**
 * Byte-level scanner of an in-network-rates root object (docs/architecture.md: split bytes first,
 * then `JSON.parse` small pieces). It reads the decompressed stream chunk by chunk, tracks depth,
 * strings and escapes across chunk boundaries (open-value.ts), and cuts out as byte slices each element of the root
 * `provider_references[]` and `in_network[]` and the root values the caller wants (header scalars).
 * It validates the root structure only (a byte that is not JSON between two elements is skipped and
 * reported); `JSON.parse` checks an element later. Structural errors and truncation throw `MrfReadError`.
 */
import { ItemSplitter, type RateSlice } from './item-splitter.js';
import { DEFAULT_SPLIT_BYTES, MAX_NESTING, RootKeys, isStructural, rootStart, splitElement, show, sliceEvents, strayProblem, type RootArray, type ScanEvent } from './scan-event.js';
import { peekRejected } from './peek-billing-code.js';
import { ContainerScan } from './container-scan.js';
import { isValueStart, isWs, scalarEnd } from './scan-bytes.js';
import { OpenValue } from './open-value.js';
import { elementPath } from './normalize-context.js';
import { MrfReadError } from './types.js';
export { DEFAULT_SPLIT_BYTES, MAX_NESTING, type RootArray, type ScanEvent } from './scan-event.js';

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

// the kind of the value being scanned, and what it is for
const [K_CONTAINER, K_STRING, K_SCALAR] = [1, 2, 3];
const [P_KEY, P_ROOT_VALUE, P_ELEMENT] = [1, 2, 3];

const EMPTY: Buffer = Buffer.alloc(0);

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
  private capture = false;
  /** The open element's code was looked for (found, or not within PEEK_BYTES). */
  private peeked = false;
  /** The root keys seen, each array's next index, and what a second array superseded (RootKeys). */
  private readonly keys = new RootKeys();
  /** Bytes that are not JSON were reported in the current gap between two root array elements. */
  private strayReported = false;
  /** The open value went past MAX_NESTING. */
  private deep = false;
  /** The open value is a root array element's `{` whose next byte other than whitespace is not yet seen (elementHead). */
  private head = false;
  private parts: Buffer[] = [];
  private segStart = 0;
  private valueOffset = 0;
  private trailingReported = false;
  private partsBytes = 0;
  private splitter: ItemSplitter | null = null;
  private readonly slices: RateSlice[] = [];
  private readonly containers = new ContainerScan();
  /** Where the open value ends, across chunks. */
  private readonly value = new OpenValue(this.containers);

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

  /**
   * Of each root array, how many elements (indexes below it) a later value of the same key
   * replaced: JSON keeps a key's last value, so the caller drops them (0: none).
   */
  get superseded(): Readonly<Record<RootArray, number>> {
    return this.keys.superseded;
  }

  /** Decompressed bytes consumed so far. */
  get bytes(): number {
    return this.base;
  }

  /** Whether the bytes pushed so far end inside a string (a key, a value, in an element), and its next byte is escaped. */
  get openString(): { inStr: boolean; esc: boolean } {
    if (this.state === S_SPLIT) return this.splitter!.openString;
    if (this.state !== S_IN_VALUE || this.kind === K_SCALAR) return { inStr: false, esc: false };
    return { inStr: this.kind === K_STRING || this.value.inStr, esc: this.value.esc };
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
        out.push(splitElement(this.index++, this.valueOffset, this.splitter!));
        this.splitter = null;
        this.state = S_ARR_NEXT;
        i = end;
        continue;
      }
      if (this.state === S_IN_VALUE && this.head) {
        while (i < n && isWs(buf[i]!)) i++;
        if (i === n) break;
        i = this.elementHead(buf, i, out);
        continue;
      }
      if (this.state === S_IN_VALUE) {
        // an item is split once it passes splitBytes, wherever the chunks end, so that it reads the
        // same way (and its damage costs the same) whatever the chunking
        const splittable = this.purpose === P_ELEMENT && this.array === 'in_network' && this.kind === K_CONTAINER && this.capture;
        const room = this.segStart + this.splitBytes + 1 - this.partsBytes;
        const limit = splittable && room < n ? room : n;
        const end = this.kind === K_CONTAINER ? this.value.containerEnd(buf, i, limit) : this.kind === K_STRING ? this.value.stringEnd(buf, i) : scalarEnd(buf, i);
        if (this.kind === K_CONTAINER && !this.deep && this.containers.maxDepth > MAX_NESTING) this.deep = this.stopCapture();
        if (end < 0 && splittable && this.capture && room <= n) {
          this.startSplit();
          i = this.segStart;
          continue;
        }
        if (end < 0 && limit === n) break;
        if (end < 0) i = limit; // nested too deep at the threshold: scanned on, not split
        if (end < 0) continue;
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
      this.array === 'in_network' && this.kind === K_CONTAINER) {
      // the code, read from the element's first bytes (peekRejected), is rejected: its bytes are no
      // longer kept; a splitter keeps its head and scans past its rates, so a billing_code written
      // again later is still seen (the last one counts, as for the parser)
      const peek = peekRejected(this.parts, buf.subarray(this.segStart), this.keepBillingCode);
      this.peeked = peek.decided;
      if (peek.rejected) {
        this.startSplit(peek.code);
        this.splitter!.push(buf, this.segStart, this.base, this.slices);
        this.takeSlices(out);
      }
    }
    // a value still open at the chunk end keeps its bytes of this chunk
    if (this.state === S_IN_VALUE && this.capture && this.segStart < n) {
      this.parts.push(buf.subarray(this.segStart));
      this.partsBytes += n - this.segStart;
    }
    this.containers.tail(buf);
    this.base += n;
  }

  /** Keeps no more bytes of the open value (filtered out, or nested too deep: endValue says which); returns true. */
  private stopCapture(): true {
    this.capture = false;
    this.parts = [];
    this.partsBytes = 0;
    return true;
  }

  /**
   * Hands the open in_network element to an ItemSplitter, replaying its bytes of earlier chunks;
   * the caller pushes this chunk's from `segStart`. `rejected`: the code the filter rejected.
   */
  private startSplit(rejected?: string): void {
    const splitter = new ItemSplitter(this.keepBillingCode, this.containers, rejected);
    let offset = this.valueOffset;
    // the replay scans from the element's first byte again: each part follows the one before it
    this.containers.restart();
    for (const part of this.parts) {
      splitter.push(part, 0, offset, this.slices);
      this.containers.tail(part);
      offset += part.length;
    }
    this.parts = [];
    this.partsBytes = 0;
    this.splitter = splitter;
    this.state = S_SPLIT;
  }

  /** Emits the rate slices and the stray-byte problems the splitter found (sliceEvents). */
  private takeSlices(out: ScanEvent[]): void {
    sliceEvents(this.index, this.slices, this.splitter?.strayBytes ?? [], out);
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
        this.bom = rootStart(this.file, buf, i, this.base + i, this.bom);
        if (this.bom < 0) this.state = S_KEY_OR_END;
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
            this.index = this.keys.nextIndex[this.key];
            this.strayReported = false;
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
        if (c === 0x5d && this.state === S_ARR_FIRST) return this.endArray(i);
        if (!isValueStart(c) && !isStructural(c)) return this.stray(i, c, out);
        this.strayReported = false;
        return this.beginValue(buf, i, c, P_ELEMENT, true);
      case S_ARR_NEXT:
        if (c === 0x2c) {
          this.strayReported = false;
          this.state = S_ARR_ELEM;
        } else if (c === 0x5d) return this.endArray(i);
        else if (!isValueStart(c) && !isStructural(c)) return this.stray(i, c, out);
        else if (this.strayReported) {
          // the stray bytes stood where the comma was: the next element starts here
          this.strayReported = false;
          return this.beginValue(buf, i, c, P_ELEMENT, true);
        } else if (c === 0x7b) {
          // a comma left out (or a stray '{', which elementHead then skips): an object starts here
          out.push({ kind: 'problem', code: 'invalid_json', path: `$.${this.array}`, offset: this.base + i, message: `no ',' between two elements of ${this.array}; read on` });
          return this.beginValue(buf, i, c, P_ELEMENT, true);
        } else this.fail(i, `not JSON: expected ',' or ']' in ${this.array}, found ${show(c)}`);
        return i + 1;
      default: // S_DONE
        if (!this.trailingReported) {
          this.trailingReported = true;
          out.push({ kind: 'problem', code: 'trailing_data', path: '$', offset: this.base + i, message: 'data after the end of the root object; ignored' });
        }
        return buf.length;
    }
  }

  /** The `]` at `i` closes the open root array; returns the next index. */
  private endArray(i: number): number {
    this.keys.nextIndex[this.array!] = this.index;
    this.state = S_AFTER_VALUE;
    return i + 1;
  }

  /**
   * A byte that is not JSON between two elements of a root array (a form feed, a letter):
   * skipped, the first of each gap reported, so the next element is read as it is written.
   */
  private stray(i: number, c: number, out: ScanEvent[]): number {
    if (!this.strayReported) out.push(strayProblem(this.base + i, c, `$.${this.array}`));
    this.strayReported = true;
    return i + 1;
  }

  /**
   * The first byte other than whitespace after a root array element's `{`. An object's first
   * byte is a key's quote or its `}`; a `{`, `,` or `]` there means that `{` was a stray byte
   * between two elements (JSON.parse could not read past it, and its bracket would swallow every
   * element up to a bracket that happens to balance it): it is reported and skipped, and the
   * byte is read again between two elements. Any other byte is left to JSON.parse (a damaged
   * first key costs its element only). Returns the index to scan on from.
   */
  private elementHead(buf: Buffer, i: number, out: ScanEvent[]): number {
    this.head = false;
    const c = buf[i]!;
    if (c !== 0x7b && c !== 0x2c && c !== 0x5d) return i;
    if (!this.strayReported) out.push(strayProblem(this.valueOffset, 0x7b, `$.${this.array}`));
    this.strayReported = true;
    this.parts = [];
    this.partsBytes = 0;
    this.state = S_ARR_NEXT;
    return i;
  }

  private beginValue(buf: Buffer, i: number, c: number, purpose: number, capture: boolean): number {
    if (c === 0x2c || c === 0x3a || c === 0x5d || c === 0x7d) this.fail(i, `not JSON: expected a value, found ${show(c)}`);
    this.purpose = purpose;
    this.capture = capture;
    this.valueOffset = this.base + i;
    this.segStart = i;
    this.state = S_IN_VALUE;
    this.value.begin(c === 0x7b || c === 0x5b);
    this.peeked = false;
    this.deep = false;
    this.head = purpose === P_ELEMENT && c === 0x7b;
    if (c === 0x7b || c === 0x5b) {
      this.kind = K_CONTAINER;
      return i + 1;
    }
    if (c === 0x22) {
      this.kind = K_STRING;
      return i + 1;
    }
    // a number, true, false, null (or NaN / Infinity, which parse-element.ts tolerates inside an element)
    if (!isValueStart(c)) this.fail(i, `not JSON: expected a value, found ${show(c)}`);
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
      const twice = this.keys.add(this.key, offset);
      if (twice) out.push(twice);
      this.state = S_COLON;
    } else if (this.purpose === P_ROOT_VALUE) {
      if (this.capture) out.push({ kind: 'value', key: this.key, offset, bytes });
      this.state = S_AFTER_VALUE;
    } else {
      out.push({ kind: 'element', array: this.array!, index: this.index++, offset, bytes });
      this.state = S_ARR_NEXT;
    }
  }
}
