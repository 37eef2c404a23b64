/**
 * One CSV file of the converter's spool (spool-rows.ts), written field by field into an off-heap
 * buffer and out in pieces, in parts of about SPOOL_PART_BYTES, with the conventions DuckDB reads
 * back (`allow_quoted_nulls = false`): an empty unquoted field is NULL, `""` is the empty string; a
 * field holding `"`, `,`, CR or LF is quoted with `"` doubled. A field can be replaced by its value
 * code (beginField / endField, price-values.ts).
 */
import { closeSync, ftruncateSync, openSync, writeSync } from 'node:fs';
import type { PriceValues } from './price-values';

/** A place in a CsvFile (CsvFile.mark): its bytes and rows up to there. */
export interface CsvMark {
  bytes: number;
  rows: number;
}

/** Characters that make a CSV field quoted. */
const SPECIAL = /[",\n\r]/;

/** Bytes of a CsvFile's buffer: the file is written in pieces of about this size. */
const CSV_BUFFER_BYTES = 1 << 20;

/**
 * Bytes after which a CsvFile goes on in a new part file (CsvFile.nextPart, between batches), so
 * that spool.ts loads and compresses a large table a part at a time. 48 MiB is the size that loads
 * fastest without raising the load's peak RSS (each CHECKPOINT has its own cost; docs/benchmarks.md).
 */
export const SPOOL_PART_BYTES = 48 << 20;

const QUOTE = 34;
const COMMA = 44;
const NEWLINE = 10;
const ZERO = 48;

/**
 * One CSV file written field by field straight into an off-heap buffer (written out when full),
 * with the conventions above. The hot path allocates nothing: integers and whole-cent rates are
 * written as digits, text that is ASCII without `"`, `,`, CR or LF is copied code unit by code unit;
 * anything else is encoded (UTF-8) by `Buffer#write`. Building each row as a string instead made a
 * parser thread allocate ~25 bytes per byte of JSON it read: the row's template pieces, then the
 * lines joined before writing (a string tree V8's young-generation collector copied at every
 * pass), which with the number formatting cost a third of the thread's time.
 * A row is its fields with `sep()` between them and `end()` after the last.
 */
export class CsvFile {
  private buf = Buffer.allocUnsafe(CSV_BUFFER_BYTES);
  private at = 0;
  /** Where the coded field being written starts in `buf` (beginField), -1 when none is. */
  private pin = -1;
  /** Where the price shape being written starts in `buf` (beginShape), -1 when none is; never after `pin`. */
  private shapePin = -1;
  private fd: number | null = null;
  /** Bytes in the part file (written at this position: rollback may cut the file back). */
  private written = 0;
  rows = 0;
  /** The part being written (nextPart): 0 for `<stem>.csv`, n for `<stem>-<n>.csv`. */
  private part = 0;
  /** `rows` when the part began. */
  private partStartRows = 0;
  /** The finished parts that have rows. */
  private readonly parts: string[] = [];
  /** @param stem the path of the first part without `.csv`. */
  constructor(private readonly stem: string) {}

  /** The path of the part being written. */
  get path(): string {
    return this.part === 0 ? `${this.stem}.csv` : `${this.stem}-${this.part}.csv`;
  }

  /**
   * Closes the part once it holds SPOOL_PART_BYTES (`partBytes`) or more; the next rows go to a
   * new part. Call between rows and never between a mark and its rollback (the worker calls it
   * after each batch: SpoolRows.endBatch).
   * @throws when the file cannot be written or closed.
   */
  nextPart(partBytes = SPOOL_PART_BYTES): void {
    if (this.written + this.at < partBytes) return;
    this.writeBuffer();
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    if (this.rows > this.partStartRows) this.parts.push(this.path);
    this.part++;
    this.written = 0;
    this.partStartRows = this.rows;
  }

  /** Where the file ends now, for rollback. */
  mark(): CsvMark {
    return { bytes: this.written + this.at, rows: this.rows };
  }

  /**
   * Takes back every row since `m` (mark): from the buffer, or, when the buffer was written out
   * since, from the file too (truncated).
   * @throws when the file cannot be truncated.
   */
  rollback(m: CsvMark): void {
    this.pin = -1;
    this.shapePin = -1;
    if (m.bytes >= this.written) this.at = m.bytes - this.written;
    else {
      ftruncateSync(this.fd!, m.bytes);
      this.written = m.bytes;
      this.at = 0;
    }
    this.rows = m.rows;
  }

  /**
   * Bytes `src[start, end)` as they are: the caller vouches that they are ASCII without `"`, `,`,
   * CR or LF (what `text` would write unquoted).
   */
  ascii(src: Uint8Array, start: number, end: number): void {
    const n = end - start;
    if (!this.room(n)) {
      this.write(Buffer.from(src.buffer, src.byteOffset + start, n));
      return;
    }
    const b = this.buf;
    let at = this.at;
    for (let k = start; k < end; k++) b[at++] = src[k]!;
    this.at = at;
  }

  /** One byte (ASCII, no `"`, `,`, CR or LF), e.g. GROUP_ID_SEPARATOR. */
  byte(c: number): void {
    this.room(1);
    this.buf[this.at++] = c;
  }

  /**
   * Makes room for `bytes` more bytes; false when they can never fit in the buffer. While a coded
   * field or a shape is written (beginField, beginShape), its bytes stay in the buffer, which grows
   * when they do not fit.
   */
  private room(bytes: number): boolean {
    if (this.at + bytes <= this.buf.length) return true;
    const keep = this.shapePin >= 0 ? this.shapePin : this.pin;
    if (keep < 0) {
      this.writeBuffer();
      return bytes <= this.buf.length;
    }
    this.write(this.buf.subarray(0, keep));
    this.buf.copyWithin(0, keep, this.at);
    this.at -= keep;
    if (this.pin >= 0) this.pin -= keep;
    if (this.shapePin >= 0) this.shapePin -= keep;
    if (this.at + bytes > this.buf.length) {
      const grown = Buffer.allocUnsafe(Math.max(2 * this.buf.length, this.at + bytes));
      this.buf.copy(grown, 0, 0, this.at);
      this.buf = grown;
    }
    return true;
  }

  /**
   * Starts a field that endField replaces by its code: write it with the methods above between
   * the two calls.
   */
  beginField(): void {
    this.pin = this.at;
  }

  /**
   * Replaces the field written since beginField by its code in `values` (price-values.ts); an
   * empty field (NULL) stays empty.
   */
  endField(values: PriceValues): void {
    const s = this.pin;
    this.pin = -1;
    if (this.at === s) return;
    const code = values.code(this.buf, s, this.at);
    this.at = s;
    this.int(code);
  }

  /**
   * Starts a price's shape (price-values.ts PRICE_SHAPE_COLUMNS), which endShape replaces by its
   * code: the shape's fields are written between the two calls, coded (beginField, endField) and
   * separated by SHAPE_SEPARATOR.
   */
  beginShape(): void {
    this.shapePin = this.at;
  }

  /**
   * Replaces the shape written since beginShape (its fields' codes and separators, ASCII) by its
   * code in `shapes`, whose `raw_shapes` row holds that text.
   */
  endShape(shapes: PriceValues): void {
    const s = this.shapePin;
    this.shapePin = -1;
    const code = shapes.code(this.buf, s, this.at);
    this.at = s;
    this.int(code);
  }

  /** The field separator. */
  sep(): void {
    this.room(1);
    this.buf[this.at++] = COMMA;
  }

  /** The end of a row. */
  end(): void {
    this.room(1);
    this.buf[this.at++] = NEWLINE;
    this.rows++;
  }

  /** A non-negative integer below 2^31 as its digits (ids, indexes, codes); other numbers as String(n). */
  int(n: number): void {
    if (!(n >= 0 && n < 2147483648) || (n | 0) !== n) {
      this.utf8(String(n));
      return;
    }
    this.room(10);
    let digits = 1;
    for (let x = n; x >= 10; x = (x / 10) | 0) digits++;
    const b = this.buf;
    let at = (this.at += digits);
    let x = n;
    do {
      const q = (x / 10) | 0;
      b[--at] = ZERO + x - 10 * q;
      x = q;
    } while (x > 0);
  }

  /**
   * A `negotiated_rate` (USD or percent) as text DuckDB reads back as the same double. Most rates
   * are whole cents, written as the digits of the integer number of cents (no trailing zero):
   * when `cents / 100 === v` (IEEE division is correctly rounded), `v` is the double nearest to
   * the decimal `cents / 100`, which is what a correctly rounding reader (DuckDB's) makes of the
   * text. Other values: String(v), 4x slower.
   */
  rate(v: number): void {
    const cents = Math.round(v * 100);
    if (cents / 100 !== v || cents < 0 || cents >= 214748364800) {
      this.utf8(String(v));
      return;
    }
    const r = cents % 100;
    this.int((cents - r) / 100);
    if (r === 0) return;
    this.room(3);
    const b = this.buf;
    b[this.at++] = 46; // '.'
    const tens = (r / 10) | 0;
    b[this.at++] = ZERO + tens;
    if (r !== 10 * tens) b[this.at++] = ZERO + r - 10 * tens;
  }

  /**
   * A text field: NULL (nothing) for null, undefined and '' — or `""` for '' when `keepEmpty` —
   * quoted with `"` doubled when it holds `"`, `,`, CR or LF.
   */
  text(s: string | null | undefined, keepEmpty = false): void {
    if (s == null || s === '') {
      if (keepEmpty) {
        this.room(2);
        this.buf[this.at++] = QUOTE;
        this.buf[this.at++] = QUOTE;
      }
      return;
    }
    const n = s.length;
    if (!this.room(n)) {
      this.quoted(s);
      return;
    }
    const b = this.buf;
    let at = this.at;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c >= 128 || c === QUOTE || c === COMMA || c === NEWLINE || c === 13) {
        this.quoted(s); // the bytes copied so far are past `at` and get overwritten
        return;
      }
      b[at++] = c;
    }
    this.at = at;
  }

  /**
   * A list of codes joined by commas, as `text(codes.join(','), true)` writes it: `""` for none,
   * two or more in quotes (the commas), each code's `"` doubled; a code that is not ASCII sends
   * the list the slow way.
   */
  codes(codes: readonly string[]): void {
    if (codes.length < 2) {
      this.text(codes.length === 1 ? codes[0] : '', true);
      return;
    }
    let n = 2 + codes.length;
    for (const c of codes) n += 2 * c.length;
    if (!this.room(n)) {
      this.quoted(codes.join(','));
      return;
    }
    const b = this.buf;
    let at = this.at;
    b[at++] = QUOTE;
    for (let k = 0; k < codes.length; k++) {
      if (k > 0) b[at++] = COMMA;
      const s = codes[k]!;
      for (let i = 0; i < s.length; i++) {
        const c = s.charCodeAt(i);
        if (c >= 128) {
          this.quoted(codes.join(','));
          return;
        }
        b[at++] = c;
        if (c === QUOTE) b[at++] = QUOTE;
      }
    }
    b[at++] = QUOTE;
    this.at = at;
  }

  /** Text that may need quotes or is not ASCII. */
  private quoted(s: string): void {
    this.utf8(SPECIAL.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
  }

  /** Any text, encoded as UTF-8 (a UTF-16 unit takes at most 3 bytes). */
  private utf8(s: string): void {
    if (this.room(3 * s.length)) this.at += this.buf.write(s, this.at, 'utf8');
    else this.write(Buffer.from(s, 'utf8'));
  }

  private write(bytes: Buffer): void {
    this.fd ??= openSync(this.path, 'w');
    for (let done = 0; done < bytes.length;) {
      const n = writeSync(this.fd, bytes, done, bytes.length - done, this.written);
      done += n;
      this.written += n;
    }
  }

  private writeBuffer(): void {
    if (this.at === 0) return;
    this.write(this.buf.subarray(0, this.at));
    this.at = 0;
  }

  /** Flushes and closes the part being written; returns the paths of every part that has rows, in order. */
  close(): string[] {
    this.writeBuffer();
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    return this.rows > this.partStartRows ? [...this.parts, this.path] : [...this.parts];
  }
}
