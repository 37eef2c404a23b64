/**
 * Splits one large `in_network[]` element while it streams (docs/architecture.md): each element of
 * its `negotiated_rates[]` is cut out as its own byte slice, and the rest of the item (its "head":
 * billing code, name, ... with `"negotiated_rates":[]` left empty) is kept apart. So an item of
 * hundreds of MB (above V8's 512 MiB string limit too) is never held or parsed whole.
 *
 * The root scanner hands an element over once it grows past its split threshold, replaying the
 * bytes seen so far from the element's first byte.
 */

/** A `negotiated_rates[]` element cut from a split item. */
export interface RateSlice {
  /** Index in the item's `negotiated_rates[]`. */
  rateIndex: number;
  /** Byte offset in the decompressed stream. */
  offset: number;
  bytes: Buffer;
}

import { isScalarByte, isScalarStart, isWs } from './scan-bytes.js';
import { peekBillingCode } from './peek-billing-code.js';
import { ContainerScan } from './container-scan.js';

const KEY = Buffer.from('negotiated_rates');

/** Streaming state machine over one item object, from its `{` to its matching `}`. */
export class ItemSplitter {
  private depth = 0;
  private inStr = false;
  private esc = false;
  private inRates = false;
  /** 0 none; 1 after the key string "negotiated_rates" at depth 1; 2 after its ':'. */
  private keyState = 0;
  private strStart = -1;
  private strParts: Buffer[] = [];
  private readonly head: Buffer[] = [];
  private rateParts: Buffer[] = [];
  private rateStart = -1;
  private rateOffset = 0;
  private rateIndex = 0;
  /**
   * Stream offsets of the negotiated_rates array's content, [after its `[`, its `]`): the bytes the
   * head leaves out (long-strings.ts finds a head's strings by their offsets).
   */
  ratesStart = -1;
  ratesEnd = -1;
  /**
   * The rates (indexes below it) of a `negotiated_rates` written before the item's last one: JSON
   * keeps a key's last value, so the caller drops them; the last array's rates are numbered on
   * from it (0: the key was written once).
   */
  supersededRates = 0;
  /** The stream offset of the last `negotiated_rates` key when it is written twice (-1: once). */
  supersededAt = -1;
  /** The stream offset of the last string opened at the item's top level (a key, or a value). */
  private stringOffset = 0;
  /** Total bytes of rate elements cut so far. */
  rateBytes = 0;
  /** The item's billing code is filtered out: its rates are scanned past, not cut. */
  private dropRates = false;
  /** The billing code the filter rejected when the rates were dropped. */
  private dropCode: string | undefined;
  /** A rate element is open (its bytes so far in `rateParts` when it spans chunks). */
  private inRate = false;
  /** The open rate element is a scalar (number, true, ...: invalid, reported when parsed). */
  private scalar = false;
  /** A stray byte of the current gap between two rates was reported already. */
  private strayReported = false;
  /**
   * Bytes between two rates that are not JSON, the first of each gap: the index of the rate that
   * follows, the stream offset and the byte. The caller takes them (and empties the list).
   */
  readonly strayBytes: Array<{ rateIndex: number; offset: number; byte: number }> = [];

  /**
   * @param keepBillingCode the billing-code filter: when the item's `billing_code` comes before its
   *   `negotiated_rates` (as publishers write it) and the filter rejects it, no rate slice is made.
   * @param containers the container loop (the root scanner's, which has the chunk copied already)
   * @param rejected a code the filter rejected from the item's first bytes: its rates are dropped
   *   unless the code found before them (the last one written there) is kept
   */
  constructor(
    private readonly keepBillingCode?: (code: string) => boolean,
    private readonly containers: ContainerScan = new ContainerScan(),
    rejected?: string,
  ) {
    this.dropRates = rejected !== undefined;
    this.dropCode = rejected;
  }

  /** The billing code for which the filter dropped the rates, or undefined when they were cut. */
  get droppedRatesOf(): string | undefined {
    return this.dropRates ? this.dropCode : undefined;
  }

  /**
   * Scans `buf` from `start`; `base` is the stream offset of `buf[0]`. Appends finished rate slices
   * to `out`. Returns the index after the item's closing `}`, or -1 when the item goes on.
   * Slices and the head are views of the chunks (as the root scanner's elements are), so a chunk's
   * bytes must not change once pushed; a copy of every rate (the 1 GB benchmark file's 200 MB item)
   * made ~200 MB of small off-heap buffers, and V8 answered with a full collection every ~50 ms.
   */
  push(buf: Buffer, start: number, base: number, out: RateSlice[]): number {
    const n = buf.length;
    let headStart = this.inRates ? -1 : start;
    if (this.inRates && this.rateStart < 0 && this.inRate) this.rateStart = start;
    if (this.strParts.length > 0 || this.strStart === -2) this.strStart = start;
    let i = start;
    for (; i < n; i++) {
      if (this.depth > 2 && this.inRates && !this.inStr && !this.esc) {
        // inside a rate element: only strings and brackets matter until it closes
        const close = this.skipInRate(buf, i);
        if (close < 0) {
          i = n;
          break;
        }
        i = close;
        this.depth = 2;
        this.endRate(buf, i + 1, out);
        continue;
      }
      const c = buf[i]!;
      if (this.esc) {
        this.esc = false;
        continue;
      }
      if (this.inStr) {
        if (c === 0x5c) this.esc = true;
        else if (c === 0x22) {
          this.inStr = false;
          if (this.depth === 1 && !this.inRates) this.endString(buf, i);
          else if (this.depth === 2 && this.inRates) this.endRate(buf, i + 1, out);
        }
        continue;
      }
      if (this.inRates && this.depth === 2) {
        if (this.scalar) {
          if (isScalarByte(c)) continue;
          this.scalar = false;
          this.endRate(buf, i, out);
        }
        this.betweenRates(buf, i, c, base);
        if (!this.inRates) headStart = i;
        continue;
      }
      if (c === 0x22) {
        this.inStr = true;
        if (this.depth === 1) {
          this.stringOffset = base + i;
          this.strStart = i + 1;
          this.strParts = [];
        }
        if (this.keyState === 2) this.keyState = 0;
        continue;
      }
      if (isWs(c)) continue;
      if (this.keyState === 1) this.keyState = c === 0x3a ? 2 : 0;
      else if (this.keyState === 2) {
        this.keyState = 0;
        if (c === 0x5b && this.depth === 1) {
          this.head.push(buf.subarray(headStart, i + 1));
          headStart = -1;
          this.inRates = true;
          if (this.ratesStart >= 0) {
            this.supersededRates = this.rateIndex;
            this.supersededAt = this.stringOffset;
          }
          this.ratesStart = base + i + 1;
          if (this.keepBillingCode) {
            const code = peekBillingCode(Buffer.concat(this.head));
            if (code !== undefined) {
              this.dropRates = !this.keepBillingCode(code);
              this.dropCode = code;
            }
          }
          this.depth = 2;
          continue;
        }
      }
      if (c === 0x7b || c === 0x5b) this.depth++;
      else if (c === 0x7d || c === 0x5d) {
        this.depth--;
        if (this.depth === 0) {
          this.head.push(buf.subarray(headStart, i + 1));
          return i + 1;
        }
      }
    }
    if (headStart >= 0) this.head.push(buf.subarray(headStart, n));
    if (this.inRates && this.rateStart >= 0) {
      if (!this.dropRates) this.rateParts.push(buf.subarray(this.rateStart, n));
      this.rateStart = -1;
    }
    if (this.inStr && this.strStart >= 0) {
      this.strParts.push(buf.subarray(this.strStart, n));
      this.strStart = -2;
    }
    return -1;
  }

  /**
   * One byte `c` at `buf[i]` between two elements of negotiated_rates (depth 2, outside any
   * element). A bracket moves the depth exactly as the container scan does (container-scan.ts),
   * so the item ends where an unsplit read ends it whatever the bytes: `]` (or a stray `}`)
   * closes the array; `{`, `[`, `"` and a scalar's first byte start an element. Any other byte
   * is not JSON: it is skipped, reported once per gap between two elements (`strayBytes`), and
   * never swallows the next element's first byte.
   */
  private betweenRates(buf: Buffer, i: number, c: number, base: number): void {
    if (isWs(c)) return;
    if (c === 0x2c) {
      this.strayReported = false;
      return;
    }
    if (c === 0x5d || c === 0x7d) {
      this.inRates = false;
      this.ratesEnd = base + i;
      this.depth = 1;
      return;
    }
    const opens = c === 0x7b || c === 0x5b;
    if (opens || c === 0x22 || isScalarStart(c)) {
      this.strayReported = false;
      this.inRate = true;
      this.rateStart = i;
      this.rateOffset = base + i;
      this.rateParts = [];
      if (opens) this.depth = 3;
      else if (c === 0x22) this.inStr = true;
      else this.scalar = true;
      return;
    }
    if (!this.strayReported) {
      this.strayReported = true;
      this.strayBytes.push({ rateIndex: this.rateIndex, offset: base + i, byte: c });
    }
  }

  /**
   * Scans from `i` inside a rate element (depth > 2): returns the index of the bracket that closes
   * it, or -1 at the chunk end (depth, string and escape state kept for the next chunk).
   */
  private skipInRate(buf: Buffer, i: number): number {
    const end = this.containers.scan(buf, i, this.depth, 2);
    if (end >= 0) return end - 1;
    this.depth = this.containers.depth;
    this.inStr = this.containers.inStr;
    this.esc = this.containers.esc;
    return -1;
  }

  /** The item without its rates: valid JSON with `"negotiated_rates":[]`. Call after the end. */
  headBytes(): Buffer {
    return Buffer.concat(this.head);
  }

  /** Whether the bytes pushed so far end inside a string, and right after a backslash there. */
  get openString(): { inStr: boolean; esc: boolean } {
    return { inStr: this.inStr, esc: this.esc };
  }

  /** Number of rate elements cut. */
  get rates(): number {
    return this.rateIndex;
  }

  private endString(buf: Buffer, end: number): void {
    const start = this.strStart < 0 ? 0 : this.strStart;
    const s = this.strParts.length ? Buffer.concat([...this.strParts, buf.subarray(start, end)]) : buf.subarray(start, end);
    this.strParts = [];
    this.strStart = -1;
    this.keyState = s.equals(KEY) ? 1 : 0;
  }

  private endRate(buf: Buffer, end: number, out: RateSlice[]): void {
    this.inRate = false;
    if (this.dropRates) {
      this.rateStart = -1;
      this.rateIndex++;
      return;
    }
    const start = this.rateStart < 0 ? 0 : this.rateStart;
    const last = buf.subarray(start, end);
    const bytes = this.rateParts.length ? Buffer.concat([...this.rateParts, last]) : last;
    this.rateParts = [];
    this.rateStart = -1;
    this.rateBytes += bytes.length;
    out.push({ rateIndex: this.rateIndex++, offset: this.rateOffset, bytes });
  }
}
