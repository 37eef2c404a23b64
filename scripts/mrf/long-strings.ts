/**
 * Strings of any length in bounded memory, for the read loop (scan-chunks.ts). A JSON string over
 * MAX_STRING_BYTES (its bytes as written, between the quotes) is cut to at most that many bytes,
 * at a character boundary, and reported as `string_too_long` with its JSON path and byte offset;
 * the rest of the file reads as usual. No field of a CMS in-network file comes near the limit; a
 * description of hundreds of MB is a publisher's error, and keeping its first MiB keeps the item.
 *
 * How, without a look at every byte: chunks are at most MAX_STRING_BYTES long, so a longer string
 * spans a chunk end, where the root scanner knows it is inside a string (RootScanner.openString).
 * There the string's start is found by looking back from the chunk end, and its end by looking
 * ahead in the next chunk: two short searches per chunk end that falls inside a string. Once an
 * open string is longer than the limit (plus a little), its next bytes are not pushed at all until
 * its closing quote: the scanner holds at most the limit and one chunk of it. When the element that
 * holds it comes out of the scanner, the string is cut to the limit in the element's bytes.
 */
import { pathAt } from './json-checks.js';
import { elementPath } from './normalize-context.js';
import { openQuoteBefore, skipString } from './scan-bytes.js';
import type { RootScanner, ScanEvent } from './root-scanner.js';

/** The longest string kept whole, in bytes as written between its quotes (1 MiB). */
export const MAX_STRING_BYTES = 1 << 20;

/**
 * Bytes past the limit an open string may reach before its next bytes are dropped: room for the
 * longest escape (`\uXXXX`) or UTF-8 sequence the cut may have to step back over.
 */
const SLACK = 16;

const BACKSLASH = 0x5c;

/** One string over the limit, as found in the stream. */
interface LongString {
  /** Stream offset of its opening quote. */
  start: number;
  /** Its bytes as written, between the quotes; -1 while it is still open. */
  length: number;
  /** Its bytes between the quotes as pushed to the scanner (all of them, unless dropped). */
  pushed: number;
}

/**
 * skipString from `from`, where a string is open and its first byte escaped when `esc`: the index
 * of its closing quote, -1 when the chunk ends inside it, -2 when its next byte is escaped.
 */
function closingQuote(b: Uint8Array, from: number, esc: boolean): number {
  if (!esc) return skipString(b, from);
  return from >= b.length ? -2 : skipString(b, from + 1);
}

/**
 * Where a string's content may be cut: the largest index `<= from + max` of `b[from, end)` that
 * splits neither an escape nor a UTF-8 sequence.
 */
function safeCut(b: Uint8Array, from: number, end: number, max: number): number {
  const limit = Math.min(end, from + max);
  let i = from;
  for (;;) {
    const c = b[i]!;
    const n = c === BACKSLASH ? (b[i + 1] === 0x75 ? 6 : 2) : c < 0x80 ? 1 : c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
    if (i + n > limit) return i;
    i += n;
  }
}

/** The JSON path of an event's bytes, under which its long strings' paths are given. */
function eventPath(ev: Extract<ScanEvent, { kind: 'element' | 'rate' | 'value' }>): string {
  if (ev.kind === 'value') return `$.${ev.key}`;
  return ev.kind === 'rate' ? elementPath('in_network', ev.index, ev.rateIndex) : elementPath(ev.array, ev.index);
}

/** Follows the strings of one stream through its scanner (scan-chunks.ts). */
export class LongStrings {
  /** Long strings found and not yet given to the event that holds them, in stream order. */
  private found: LongString[] = [];
  /** Stream offset of the quote of the string open at the last chunk end, or -1. */
  private openAt = -1;
  /** The open string is being dropped up to its closing quote. */
  private dropping = false;
  /** ... and the byte after the last one dropped is escaped. */
  private dropEsc = false;

  constructor(private readonly scanner: RootScanner) {}

  /**
   * Pushes chunk `buf` (at most MAX_STRING_BYTES; stream offset `scanner.bytes`) to the scanner,
   * or the part of it that is not the middle of a long string, and appends its events to `out`
   * with every long string they hold cut and reported (a `problem` event before its event).
   */
  push(buf: Buffer, out: ScanEvent[]): void {
    const base = this.scanner.bytes; // the stream offset of buf[0]
    if (this.dropping) {
      const close = closingQuote(buf, 0, this.dropEsc);
      if (close < 0) {
        this.dropEsc = close === -2;
        this.scanner.skip(buf.length);
        return;
      }
      const s = this.found[this.found.length - 1]!;
      s.length = base + close - s.start - 1;
      this.dropping = false;
      this.openAt = -1;
      // the byte the scanner takes as escaped: `\n`, then the closing quote
      const fill = this.scanner.openString.esc ? Buffer.from('n') : null;
      this.scanner.skip(close - (fill ? 1 : 0));
      if (fill) {
        s.pushed++;
        this.scanner.push(fill, out);
      }
      buf = buf.subarray(close);
    }
    const at = this.scanner.bytes;
    const before = this.scanner.openString;
    const start = out.length;
    this.scanner.push(buf, out);
    // the string open at the last chunk end: where it closes; the one open at this chunk's end opens after
    let from = 0;
    if (this.openAt >= 0) {
      const close = closingQuote(buf, 0, before.esc);
      if (close >= 0) {
        const length = at + close - this.openAt - 1;
        if (length > MAX_STRING_BYTES) this.found.push({ start: this.openAt, length, pushed: length });
        this.openAt = -1;
        from = close + 1;
      } else from = buf.length;
    }
    const now = this.scanner.openString;
    if (!now.inStr) this.openAt = -1;
    else {
      const q = openQuoteBefore(buf, from, buf.length);
      if (q >= 0) this.openAt = at + q;
      const open = at + buf.length - this.openAt - 1;
      if (this.openAt >= 0 && open > MAX_STRING_BYTES + SLACK) {
        this.found.push({ start: this.openAt, length: -1, pushed: open });
        this.dropping = true;
        this.dropEsc = now.esc;
      }
    }
    if (this.found.length > 0) this.cutEvents(out, start);
  }

  /** Cuts the long strings of the events `out[start...]` and reports them before their event. */
  private cutEvents(out: ScanEvent[], start: number): void {
    const events = out.splice(start);
    for (let k = 0; k < events.length; k++) {
      const ev = events[k]!;
      if (ev.kind === 'problem') {
        out.push(ev);
        continue;
      }
      // the event's stream range: its bytes plus what was dropped of its strings; a split item's
      // head spans its rates too, whose strings went with their own events before it
      const split = ev.kind === 'element' && ev.split === true;
      const next = events.slice(k + 1).find((e) => e.kind !== 'problem');
      const limit = split ? (next && 'offset' in next ? next.offset : Infinity) : -1;
      const mine: LongString[] = [];
      const rest: LongString[] = [];
      let end = ev.offset + ev.bytes.length;
      for (const s of this.found) {
        // still open: a later event's; before this one: a split head's (after its rates), or in no
        // event (a root key, a value nobody keeps)
        if (s.length < 0 || (s.start < ev.offset && ev.kind === 'rate')) rest.push(s);
        else if (s.start < ev.offset) continue;
        else if (split ? s.start < limit : s.start < end) {
          mine.push(s);
          end += s.length - s.pushed;
        } else rest.push(s);
      }
      this.found = rest;
      if (mine.length === 0) {
        out.push(ev);
        continue;
      }
      out.push(...this.cut(ev, mine));
    }
  }

  /** The problems of `mine` and `ev` with each of them cut to MAX_STRING_BYTES. */
  private cut(ev: Extract<ScanEvent, { kind: 'element' | 'rate' | 'value' }>, mine: LongString[]): ScanEvent[] {
    const b = ev.bytes;
    const prefix = eventPath(ev);
    const problems: ScanEvent[] = [];
    const pieces: Buffer[] = [];
    let copied = 0;
    let dropped = 0;
    // a split head leaves its rates out
    const [ratesStart, ratesEnd] = ev.kind === 'element' && ev.rates ? ev.rates : [Infinity, Infinity];
    for (const s of mine) {
      const q = s.start - ev.offset - dropped - (s.start >= ratesEnd ? ratesEnd - ratesStart : 0); // its opening quote in `b`
      const close = q + 1 + s.pushed;
      const cut = safeCut(b, q + 1, close, MAX_STRING_BYTES);
      problems.push({
        kind: 'problem',
        code: 'string_too_long',
        path: pathAt(b, 0, b.length, q, prefix),
        offset: s.start,
        message: `a string of ${s.length} bytes, over the limit of ${MAX_STRING_BYTES}: cut to its first ${cut - q - 1} bytes`,
      });
      pieces.push(b.subarray(copied, cut));
      copied = close;
      dropped += s.length - s.pushed;
    }
    pieces.push(b.subarray(copied));
    return [...problems, { ...ev, bytes: Buffer.concat(pieces) }];
  }
}
