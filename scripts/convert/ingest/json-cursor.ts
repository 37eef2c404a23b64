/**
 * A strict JSON reader over bytes, the base of the parser threads' fast path (fast-rates.ts): it
 * walks one element `b[start, end)` and validates it without building values, keeps where the last
 * string and key are and whether they need decoding or CSV quoting, and reads numbers (whole cents
 * as the double `JSON.parse` gives). It gives up by throwing BAIL on invalid JSON, nesting past
 * MAX_DEPTH and keys that are not plain ASCII; its subclass reads its shape with the protected
 * methods and catches BAIL.
 */

/** Thrown inside the parser when the element leaves the fast path's shape; never escapes it. */
export class Bail extends Error {}
export const BAIL = new Bail('not in the fast path shape');

/** Bytes of JSON's syntax. */
export const QUOTE = 34;
export const BACKSLASH = 92;
export const COMMA = 44;
export const COLON = 58;
export const LBRACE = 123;
export const RBRACE = 125;
export const LBRACKET = 91;
export const RBRACKET = 93;
export const MINUS = 45;
export const PLUS = 43;
export const DOT = 46;
export const ZERO = 48;
export const NINE = 57;
export const SPACE = 32;

/** The bytes of an ASCII string (keys and enum values to compare with). */
export const bytes = (s: string): Uint8Array => Buffer.from(s, 'latin1');

/** The bytes of a plain ASCII key with its quotes, as JsonCursor.keyAs compares them. */
const keyToken = (key: string): Uint8Array => Buffer.from(JSON.stringify(key), 'latin1');

/** The text of `b[s, e)`, decoded as UTF-8. */
export function utf8(b: Uint8Array, s: number, e: number): string {
  return Buffer.from(b.buffer, b.byteOffset + s, e - s).toString('utf8');
}

/** Nesting of an unknown value the skipper follows before giving up. */
const MAX_DEPTH = 32;

/**
 * The keys of an object a reader wants, by id (their index); any other key is id -1
 * (JsonCursor.keyOf). An object's keys are matched first against the order of the last object of
 * its kind (KeyOrder): publishers write every price with the same serializer, so nearly every key
 * is found with one comparison of its bytes instead of a scan and a comparison per candidate.
 */
export class KeySet {
  readonly bytes: Uint8Array[];
  readonly tokens: Uint8Array[];
  constructor(keys: readonly string[]) {
    this.bytes = keys.map(bytes);
    this.tokens = keys.map(keyToken);
  }
}

/** Positions of an object KeyOrder remembers: later keys are looked up. */
const ORDER_SLOTS = 16;

/** The key id (KeySet index, -1 for a key skipped) found at each position of the last object of one kind. */
export class KeyOrder {
  readonly ids = new Int8Array(ORDER_SLOTS).fill(-1);
}

/**
 * The keys one object has had so far (keyOf records them), so that a key written twice makes the
 * fast path give up and the slow path report it: a bit per KeySet id, and the bytes of the keys no
 * KeySet knows (rare). keyOf starts it anew at an object's first key.
 */
export class ObjectKeys {
  known = 0;
  /** [start, end) in the element's bytes of each other key. */
  others = new Int32Array(16);
  otherCount = 0;
}

/** `pairs` as is when it has room for pair number `count`, else a copy twice as large. */
export function roomForPair(pairs: Int32Array<ArrayBuffer>, count: number): Int32Array<ArrayBuffer> {
  if (2 * count + 2 <= pairs.length) return pairs;
  const grown = new Int32Array(2 * pairs.length);
  grown.set(pairs);
  return grown;
}

/** The reading state over one element; subclasses read their shape with its methods. */
export class JsonCursor {
  protected b: Uint8Array = new Uint8Array(0);
  protected i = 0;
  protected end = 0;
  /** The last string read (str) is printable ASCII without backslash. */
  protected plain = false;
  /** ... and holds no comma either: CSV writes it unquoted. */
  protected csvSafe = false;
  /** End of the last string's content (str). */
  protected strEnd = 0;
  /** The last key read (key): b[ks, ke). */
  protected ks = 0;
  protected ke = 0;

  /** Starts reading the element `b[start, end)`. */
  protected begin(b: Uint8Array, start: number, end: number): void {
    this.b = b;
    this.i = start;
    this.end = end;
  }

  // Peeks such as `b[i] === RBRACE` may read past `end` on a truncated element: `i` then ends past
  // `end`, and the check that the element ends exactly at `end` makes the fast path give up.

  /** Skips JSON whitespace. */
  protected ws(): void {
    const b = this.b;
    let i = this.i;
    while (i < this.end) {
      const c = b[i]!;
      if (c !== SPACE && c !== 10 && c !== 13 && c !== 9) break;
      i++;
    }
    this.i = i;
  }

  protected expect(c: number): void {
    if (this.i >= this.end || this.b[this.i] !== c) throw BAIL;
    this.i++;
  }

  /** A string at `i` (its opening quote); returns where its content starts (strEnd: where it ends). */
  protected str(): number {
    const b = this.b;
    if (b[this.i] !== QUOTE) throw BAIL;
    const start = ++this.i;
    let i = start;
    let plain = true;
    let comma = false;
    for (;;) {
      if (i >= this.end) throw BAIL;
      const c = b[i]!;
      if (c === QUOTE) break;
      if (c < 0x20) throw BAIL; // a raw control character: not JSON
      if (c === BACKSLASH) {
        plain = false;
        const e = b[i + 1];
        if (e === 117) { // \uXXXX
          for (let k = 2; k < 6; k++) if (!isHex(b[i + k])) throw BAIL;
          i += 6;
        } else if (e === QUOTE || e === BACKSLASH || e === 47 || e === 98 || e === 102 || e === 110 || e === 114 || e === 116) i += 2;
        else throw BAIL;
        continue;
      }
      if (c >= 0x7f) plain = false;
      else if (c === COMMA) comma = true;
      i++;
    }
    this.strEnd = i;
    this.i = i + 1;
    this.plain = plain;
    this.csvSafe = plain && !comma;
    return start;
  }

  /** An object key and its colon; the key is b[ks, ke) (a key that is not plain: BAIL). */
  protected key(): void {
    this.ws();
    const s = this.str();
    if (!this.plain) throw BAIL;
    this.ks = s;
    this.ke = this.strEnd;
    this.ws();
    this.expect(COLON);
    this.ws();
  }

  /**
   * The next key of an object (after its `{` or a comma) as an id of `keys` (-1 for another key):
   * first the key the last object of this kind had at position `pos` (keyAs), else read (key) and
   * looked up, and remembered for the next object. A key the object had already (`seen`): BAIL.
   */
  protected keyOf(keys: KeySet, order: KeyOrder, pos: number, seen: ObjectKeys): number {
    this.ws();
    const ids = order.ids;
    const guess = pos < ORDER_SLOTS ? ids[pos]! : -1;
    if (guess >= 0 && this.keyAs(keys.tokens[guess]!)) {
      this.noteKey(seen, guess, pos);
      return guess;
    }
    this.key();
    let id = -1;
    for (let k = 0; k < keys.bytes.length; k++) {
      if (this.keyIs(this.ks, this.ke, keys.bytes[k]!)) {
        id = k;
        break;
      }
    }
    if (pos < ORDER_SLOTS) ids[pos] = id;
    this.noteKey(seen, id, pos);
    return id;
  }

  /**
   * Reads the key at `i` as key() does when its bytes are exactly `token` (the key with its quotes,
   * keyToken()), which it then returns true for; otherwise moves nothing and returns false. One
   * comparison instead of key()'s scan and the caller's keyIs: for keys that come in the order the
   * last object of the same kind had (KeyOrder, keyOf).
   */
  protected keyAs(token: Uint8Array): boolean {
    const b = this.b;
    const i = this.i;
    const n = token.length;
    if (i + n > this.end) return false;
    for (let j = 0; j < n; j++) if (b[i + j] !== token[j]) return false;
    this.ks = i + 1;
    this.ke = i + n - 1;
    this.i = i + n;
    this.ws();
    this.expect(COLON);
    this.ws();
    return true;
  }

  protected keyIs(s: number, e: number, k: Uint8Array): boolean {
    if (e - s !== k.length) return false;
    const b = this.b;
    for (let j = 0; j < k.length; j++) if (b[s + j] !== k[j]) return false;
    return true;
  }

  /** Records key `id` (-1: the key just read, b[ks, ke)) in `seen`, a new object's at `pos` 0; BAIL when the object had it already. */
  private noteKey(seen: ObjectKeys, id: number, pos: number): void {
    if (pos === 0) seen.known = seen.otherCount = 0;
    if (id >= 0) {
      if (seen.known & (1 << id)) throw BAIL;
      seen.known |= 1 << id;
      return;
    }
    const { ks, ke } = this;
    for (let k = 0; k < seen.otherCount; k++) {
      if (this.keyIs(ks, ke, this.b.subarray(seen.others[2 * k]!, seen.others[2 * k + 1]!))) throw BAIL;
    }
    seen.others = roomForPair(seen.others, seen.otherCount);
    seen.others[2 * seen.otherCount] = ks;
    seen.others[2 * seen.otherCount + 1] = ke;
    seen.otherCount++;
  }

  /** Index in `values` of the plain string just read (str), or BAIL. */
  protected enumOf(s: number, values: Uint8Array[]): number {
    if (!this.plain) throw BAIL;
    for (let v = 0; v < values.length; v++) if (this.keyIs(s, this.strEnd, values[v]!)) return v;
    throw BAIL;
  }

  /** Validates and skips any JSON value. */
  protected skipValue(depth: number): void {
    if (depth > MAX_DEPTH || this.i >= this.end) throw BAIL;
    const c = this.b[this.i]!;
    if (c === QUOTE) this.str();
    else if (c === LBRACE || c === LBRACKET) {
      const close = c === LBRACE ? RBRACE : RBRACKET;
      this.i++;
      this.ws();
      if (this.b[this.i] === close) {
        this.i++;
        return;
      }
      for (;;) {
        if (c === LBRACE) this.key();
        this.skipValue(depth + 1);
        this.ws();
        const d = this.b[this.i++];
        if (d === close) return;
        if (d !== COMMA) throw BAIL;
        this.ws();
      }
    } else if (c === MINUS || (c >= ZERO && c <= NINE)) this.number();
    else if (!this.literal()) throw BAIL;
  }

  /** `true`, `false` or `null` at `i`: skipped, true; anything else: false. */
  protected literal(): boolean {
    const b = this.b;
    const i = this.i;
    const c = b[i];
    const word = c === 116 ? 'true' : c === 102 ? 'false' : c === 110 ? 'null' : null;
    if (word === null || i + word.length > this.end) return false;
    for (let k = 1; k < word.length; k++) if (b[i + k] !== word.charCodeAt(k)) return false;
    this.i = i + word.length;
    return true;
  }

  /** A `null` at `i`: skipped, true. */
  protected isNull(): boolean {
    return this.b[this.i] === 110 && this.literal();
  }

  /**
   * A JSON number at `i`, validated and skipped; returns its value: whole cents as `cents / 100`
   * (the double nearest the decimal, as `JSON.parse` reads it), else `Number` of its text.
   */
  protected number(): number {
    const b = this.b;
    const start = this.i;
    let i = start;
    const neg = b[i] === MINUS;
    if (neg) i++;
    let whole = 0;
    let wholeDigits = 0;
    if (b[i] === ZERO) {
      i++;
      wholeDigits = 1;
    } else {
      while (i < this.end && b[i]! >= ZERO && b[i]! <= NINE) {
        whole = whole * 10 + b[i]! - ZERO;
        wholeDigits++;
        i++;
      }
      if (wholeDigits === 0) throw BAIL;
    }
    let frac = 0;
    let fracDigits = 0;
    if (b[i] === DOT) {
      i++;
      while (i < this.end && b[i]! >= ZERO && b[i]! <= NINE) {
        if (fracDigits < 3) frac = frac * 10 + b[i]! - ZERO;
        fracDigits++;
        i++;
      }
      if (fracDigits === 0) throw BAIL;
    }
    let exponent = false;
    if (b[i] === 101 || b[i] === 69) {
      exponent = true;
      i++;
      if (b[i] === PLUS || b[i] === MINUS) i++;
      const d = i;
      while (i < this.end && b[i]! >= ZERO && b[i]! <= NINE) i++;
      if (i === d) throw BAIL;
    }
    this.i = i;
    if (!exponent && wholeDigits <= 13 && fracDigits <= 2) {
      const cents = whole * 100 + (fracDigits === 1 ? frac * 10 : frac);
      return neg ? -(cents / 100) : cents / 100;
    }
    return Number(Buffer.from(b.buffer, b.byteOffset + start, i - start).toString('latin1'));
  }

  /** The text of b[s, e), decoded as UTF-8. */
  protected utf8(s: number, e: number): string {
    return utf8(this.b, s, e);
  }
}

function isHex(c: number | undefined): boolean {
  return c !== undefined && ((c >= ZERO && c <= NINE) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102));
}
