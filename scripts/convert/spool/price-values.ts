/**
 * The value codes of a parser thread's `raw_prices` spool (spool-rows.ts): the price columns of
 * few distinct values (PRICE_VALUE_COLUMNS: the price columns of contract/files/price-columns.ts but the
 * rate) are written as integer codes, and each code's text goes once
 * into the thread's `raw_values(code, value)` spool, whose rows spool.ts loads and joins back.
 * The CSV is a third smaller, and DuckDB loads and compresses integers instead of strings
 * (spool.ts; docs/benchmarks.md).
 *
 * A code is looked up by the field's CSV bytes (what CsvFile wrote: quoted, `""` for the empty
 * string), so both ways of the parser threads (fast-rates.ts and SpoolRows.rate) give a value the
 * same code. Memory is bounded: at most MAX_ENTRIES values of at most MAX_KEY_BYTES each are
 * remembered; any other value gets a fresh code and a `raw_values` row every time (free text).
 * Codes start at 0 in each writer (a source's spool of one thread); spool.ts offsets them at load.
 */
import { PRICE_COLUMNS, type PriceColumnName } from '../../../contract/files/price-columns';
import type { CsvFile, CsvMark } from './csv-file';

/**
 * The `raw_prices` columns written as codes, in CSV order (spool.ts): every price column
 * (contract/files/price-columns.ts) but the numbers.
 */
export const PRICE_VALUE_COLUMNS: readonly PriceColumnName[] = PRICE_COLUMNS.filter((c) => c.kind !== 'number').map((c) => c.name);

/**
 * The value columns that make a price's shape (PRICE_COLUMNS `shape`): the spool's `raw_prices` row
 * holds one code for their codes together (spool-rows.ts), whose `raw_shapes` row lists them, in
 * this order, joined by SHAPE_SEPARATOR (empty for NULL). A file's prices have few shapes (45 on the
 * 1 GB benchmark file), so that DuckDB loads and compresses one integer column instead of six
 * (spool.ts). `additional_information`, free text in some files, keeps a code of its own.
 */
export const PRICE_SHAPE_COLUMNS: readonly PriceColumnName[] = PRICE_COLUMNS.filter((c) => c.shape).map((c) => c.name);

/**
 * The price columns a `raw_prices` row holds after its shape, in CSV order: the rate and the value
 * columns outside the shape (a code each).
 */
export const PRICE_ROW_COLUMNS: readonly PriceColumnName[] = PRICE_COLUMNS.filter((c) => !c.shape).map((c) => c.name);

/** The price columns in a `raw_prices` CSV row, in order: the shape's, then PRICE_ROW_COLUMNS. */
export const SPOOL_PRICE_ORDER: readonly PriceColumnName[] = [...PRICE_SHAPE_COLUMNS, ...PRICE_ROW_COLUMNS];

/** Between the codes of a shape's columns in its text (`:`, which CSV does not quote). */
export const SHAPE_SEPARATOR = 58;

/** Most values a writer remembers, and most bytes of one (longer values get a code each time). */
export const MAX_ENTRIES = 8192;
export const MAX_KEY_BYTES = 256;
/** Most bytes of the remembered values together. */
const MAX_POOL_BYTES = 1 << 20;
/** Slots of the hash table: a power of two, twice MAX_ENTRIES. */
const SLOTS = 2 * MAX_ENTRIES;

/** A place in a PriceValues (mark), to take back the codes given since (rollback). */
export interface PriceValuesMark {
  entries: number;
  next: number;
  pool: number;
  file: CsvMark;
}

/**
 * One writer's value codes, their `raw_values` rows written to `file` (`code,value`, the value's
 * CSV bytes as written in `raw_prices`). Not re-entrant.
 */
export class PriceValues {
  /** The next code to give; also the number of codes given. */
  next = 0;
  private entries = 0;
  /** slot -> entry index + 1 (0: empty); open addressing, linear probing. */
  private readonly slots = new Int32Array(SLOTS);
  private readonly keyStart = new Int32Array(MAX_ENTRIES);
  private readonly keyLength = new Int32Array(MAX_ENTRIES);
  private readonly keyHash = new Int32Array(MAX_ENTRIES);
  private readonly codes = new Float64Array(MAX_ENTRIES);
  private pool = new Uint8Array(16 << 10);
  private poolUsed = 0;

  constructor(readonly file: CsvFile) {}

  /**
   * The code of the value whose CSV bytes are `b[s, e)` (not empty): remembered, or given now,
   * its `raw_values` row written.
   */
  code(b: Uint8Array, s: number, e: number): number {
    const n = e - s;
    let h = 0x811c9dc5 | 0;
    for (let k = s; k < e; k++) h = Math.imul(h ^ b[k]!, 0x01000193);
    let slot = h & (SLOTS - 1);
    for (;;) {
      const at = this.slots[slot]!;
      if (at === 0) break;
      const x = at - 1;
      if (this.keyHash[x] === h && this.keyLength[x] === n && this.same(x, b, s, n)) return this.codes[x]!;
      slot = (slot + 1) & (SLOTS - 1);
    }
    const code = this.next++;
    const f = this.file;
    f.int(code); f.sep(); f.ascii(b, s, e); f.end();
    if (n <= MAX_KEY_BYTES && this.entries < MAX_ENTRIES && this.poolUsed + n <= MAX_POOL_BYTES) {
      if (this.poolUsed + n > this.pool.length) {
        const grown = new Uint8Array(Math.min(MAX_POOL_BYTES, Math.max(2 * this.pool.length, this.poolUsed + n)));
        grown.set(this.pool.subarray(0, this.poolUsed));
        this.pool = grown;
      }
      const x = this.entries++;
      this.pool.set(b.subarray(s, e), this.poolUsed);
      this.keyStart[x] = this.poolUsed;
      this.keyLength[x] = n;
      this.keyHash[x] = h;
      this.codes[x] = code;
      this.poolUsed += n;
      this.slots[slot] = x + 1;
    }
    return code;
  }

  /** The code of an ASCII value `text` that needs no CSV quoting (the CMS enum values). */
  codeOf(text: string): number {
    const b = Buffer.from(text, 'latin1');
    return this.code(b, 0, b.length);
  }

  private same(x: number, b: Uint8Array, s: number, n: number): boolean {
    const p = this.pool;
    const at = this.keyStart[x]!;
    for (let k = 0; k < n; k++) if (p[at + k] !== b[s + k]) return false;
    return true;
  }

  /** Where the codes stand now, for rollback. */
  mark(): PriceValuesMark {
    return { entries: this.entries, next: this.next, pool: this.poolUsed, file: this.file.mark() };
  }

  /**
   * Takes back every code given since `m` (mark), and its `raw_values` row, so that the codes
   * given next are those a writer that never saw them would give.
   * @throws when the file cannot be truncated.
   */
  rollback(m: PriceValuesMark): void {
    // entries leave in the reverse of their order: no entry left probed past a freed slot
    for (let x = this.entries - 1; x >= m.entries; x--) {
      let slot = this.keyHash[x]! & (SLOTS - 1);
      while (this.slots[slot] !== x + 1) slot = (slot + 1) & (SLOTS - 1);
      this.slots[slot] = 0;
    }
    this.entries = m.entries;
    this.poolUsed = m.pool;
    this.next = m.next;
    this.file.rollback(m.file);
  }
}
