/**
 * The parser threads' fast path (parse-worker.ts): an `in_network[]` element, or a negotiated rate
 * cut from a split item, in the shape nearly every price of a real file has, is spooled as
 * `raw_prices` rows straight from its bytes, without `JSON.parse`, the id quoting of
 * quote-id-tokens.ts, the normalisers' objects or their garbage; it reads them with json-cursor.ts
 * and writes their code lists with fast-code-list.ts. Anything else in its rates (an
 * escaped or non-ASCII string where a value is copied, a price or rate the normalisers would
 * report a problem on, `provider_groups` given inline, `negotiated_prices` before
 * `provider_references`, invalid JSON) makes it give up: it takes back what it wrote, and the
 * caller takes the slow path, which gives the element's rows and problems. So the rows of an
 * element are the same either way, which test/convert/fast-rates.test.ts checks on generated and
 * real elements. The item's own fields (billing code, name, ...) are few: they are parsed with
 * `JSON.parse` and normalised by normalizeInNetworkItem, as on the slow path.
 *
 * A price's fields become what normalize-price.ts makes of them, by kind (contract/files/price-columns.ts):
 * an enum one of the CMS values as written in lower case, the rate a finite JSON number (whole cents
 * read as `cents / 100`, the double `JSON.parse` gives), a trimmed text copied when it has no
 * surrounding space, a code list copied when already upper-case, sorted and without repeats (else
 * through `JSON.parse` and codeList), a verbatim text copied or decoded; anything else: slow path.
 * A provider-group id is its token's text (docs/converter.md, Quirks of real files) or a string copied.
 */
import { PRICE_COLUMNS } from '../../../contract/files/price-columns';
import { firstInvalidUtf8 } from '../../mrf/json-checks';
import type { ElementContext } from '../../mrf/normalize-context';
import { normalizeInNetworkItem } from '../../mrf/normalize-item';
import { quoteIdTokens } from '../../mrf/quote-id-tokens';
import type { MrfInNetworkItem } from '../../mrf/types';
import { writeCodeList } from './fast-code-list';
import { BAIL, bytes, COMMA, JsonCursor, KeyOrder, KeySet, LBRACE, LBRACKET, MINUS, NINE, ObjectKeys, QUOTE, RBRACE, RBRACKET, roomForPair, SPACE, ZERO } from './json-cursor';
import { SHAPE_SEPARATOR, type PriceValues, type PriceValuesMark } from '../spool/price-values';
import type { CsvFile, CsvMark } from '../spool/csv-file';
import { GROUP_ID_SEPARATOR, type SpoolRows } from '../spool/spool-rows';

/** group-ids.ts GROUP_ID_SEPARATOR, as a byte: the ids copied here are printable ASCII, never escaped. */
const SEPARATOR = GROUP_ID_SEPARATOR.charCodeAt(0);
const K_NEGOTIATED_RATES = bytes('negotiated_rates');

/** The keys of a negotiated rate the fast path reads; RateKey is their id (JsonCursor.keyOf). */
const RATE_KEYS = new KeySet(['provider_references', 'negotiated_prices', 'provider_groups']);
const enum RateKey { ProviderReferences, NegotiatedPrices, ProviderGroups }

/**
 * The keys of a price, the CMS fields of contract/files/price-columns.ts in order; PriceKey their id. The
 * price code names each in a `switch` and writes them in SPOOL_PRICE_ORDER (speed: no loop over the
 * table), so it is written for one table: fast-price-columns.ts, where a column added to
 * PRICE_COLUMNS, or one whose field, kind, trimming, padding or place in the shape changes, is a
 * type error until this code learns it (the enum values are read from the table).
 */
const PRICE_KEYS = new KeySet(PRICE_COLUMNS.map((c) => c.field));
const enum PriceKey { BillingClass, NegotiatedType, NegotiatedRate, ServiceCode, Modifier, ExpirationDate, Setting, AdditionalInformation }

/** The CMS values of the enum price columns as bytes (an index is the value's code); whether a code list pads one digit. */
const [CLASS_BYTES, TYPE_BYTES, SETTING_BYTES] = [PriceKey.BillingClass, PriceKey.NegotiatedType, PriceKey.Setting]
  .map((k) => (PRICE_COLUMNS[k].values ?? []).map(bytes)) as [Uint8Array[], Uint8Array[], Uint8Array[]];
const [PAD_SERVICE_CODES, PAD_MODIFIERS] = [PRICE_COLUMNS[PriceKey.ServiceCode].pad, PRICE_COLUMNS[PriceKey.Modifier].pad];
/** What `FastRates.item` did. */
export type FastItemOutcome =
  | { done: false }
  | { done: true; item: MrfInNetworkItem | null; kept: boolean };

/** Where a FastRates spool stands: its price rows, value codes and shape codes (mark, rollback). */
interface SpoolMark {
  prices: CsvMark;
  values: PriceValuesMark;
  shapes: PriceValuesMark;
}

/**
 * The fast path of one parser thread for one source's spool (`rows`). Not re-entrant; state is
 * reused from element to element, so that a price allocates nothing.
 */
export class FastRates extends JsonCursor {
  /** [start, end) of the current rate's provider-group ids. */
  private ids = new Int32Array(64);
  private idCount = 0;
  /** Expanded rate rows (price x group) of the element so far (SpoolRows.priceRows). */
  private expanded = 0;
  private readonly prices: CsvFile;
  private readonly values: PriceValues;
  private readonly shapes: PriceValues;
  /** The value codes (price-values.ts) of CLASS_BYTES, TYPE_BYTES and SETTING_BYTES, by index. */
  private readonly classCodes: number[];
  private readonly typeCodes: number[];
  private readonly settingCodes: number[];
  private readonly rateOrder = new KeyOrder();
  private readonly priceOrder = new KeyOrder();
  private readonly rateKeys = new ObjectKeys();
  private readonly priceKeys = new ObjectKeys();

  constructor(private readonly rows: SpoolRows) {
    super();
    this.prices = rows.files.raw_prices;
    this.values = rows.values;
    this.shapes = rows.shapes;
    const codes = PRICE_COLUMNS.map((c) => (c.values ?? []).map((v) => rows.enumCodes.get(v)!));
    [this.classCodes, this.typeCodes, this.settingCodes] = [codes[PriceKey.BillingClass]!, codes[PriceKey.NegotiatedType]!, codes[PriceKey.Setting]!];
  }

  /** Where the spool stands, to take back an element's rows and codes (rollback). */
  private mark(): SpoolMark {
    return { prices: this.prices.mark(), values: this.values.mark(), shapes: this.shapes.mark() };
  }

  private rollback(m: SpoolMark): void {
    this.values.rollback(m.values);
    this.shapes.rollback(m.shapes);
    this.prices.rollback(m.prices);
  }

  /**
   * Spools negotiated rate `rateIndex` of item `itemId` from `b[start, end)` (one element cut by
   * item-splitter.ts). False when it is not in the fast path's shape: nothing was written.
   */
  rate(b: Uint8Array, start: number, end: number, itemId: number, rateIndex: number): boolean {
    this.begin(b, start, end);
    const m = this.mark();
    try {
      this.ws();
      this.rateObject(itemId, rateIndex);
      this.ws();
      if (this.i !== this.end) throw BAIL;
    } catch (e) {
      if (e !== BAIL) throw e;
      this.rollback(m);
      return false;
    }
    this.rows.priceRows += this.expanded;
    return true;
  }

  /**
   * Spools the rates of the `in_network[]` element `b[start, end)` (item `itemId`) and normalises
   * its own fields (normalizeInNetworkItem, problems into `ctx`); `split`: its rates were cut out
   * (item-splitter.ts). `keep` decides on the billing code; a dropped or filtered-out item's rows
   * are taken back. `{ done: false }` when the element is not in the fast path's shape: nothing was
   * written and `ctx` is untouched. The caller writes the item's own row.
   */
  item(b: Uint8Array, start: number, end: number, itemId: number, split: boolean, ctx: ElementContext, path: string,
    keep: (code: string) => boolean): FastItemOutcome {
    this.begin(b, start, end);
    const m = this.mark();
    let head: Record<string, unknown>;
    let rates = 0;
    try {
      this.ws();
      head = Object.create(null) as Record<string, unknown>;
      let seenRates = false;
      this.expect(LBRACE);
      this.ws();
      if (this.b[this.i] === RBRACE) throw BAIL; // {}: the slow path reports it
      for (;;) {
        this.key();
        const ks = this.ks;
        const ke = this.ke;
        if (this.keyIs(ks, ke, K_NEGOTIATED_RATES)) {
          if (seenRates) throw BAIL;
          seenRates = true;
          rates = this.rateList(itemId);
        } else {
          const vs = this.i;
          this.skipValue(0);
          const key = Buffer.from(this.b.buffer, this.b.byteOffset + ks, ke - ks).toString('latin1');
          // a key written twice or text that is not UTF-8: the slow path reports it (spool-element.ts)
          if (key === '__proto__' || key in head || firstInvalidUtf8(this.b, vs, this.i) >= 0) throw BAIL;
          const text = this.utf8(vs, this.i);
          head[key] = JSON.parse(quoteIdTokens(text, 'in_network')) as unknown;
        }
        this.ws();
        const c = this.b[this.i++];
        if (c === RBRACE) break;
        if (c !== COMMA) throw BAIL;
      }
      this.ws();
      if (this.i !== this.end || (rates === 0 && !split)) throw BAIL;
    } catch (e) {
      if (e !== BAIL) throw e;
      this.rollback(m);
      return { done: false };
    }
    const item = normalizeInNetworkItem(ctx, head, path, true);
    if (!item || !keep(item.billing_code)) {
      this.rollback(m);
      return { done: true, item, kept: false };
    }
    this.rows.priceRows += this.expanded;
    return { done: true, item, kept: true };
  }

  protected override begin(b: Uint8Array, start: number, end: number): void {
    super.begin(b, start, end);
    this.expanded = 0;
  }

  /** A `negotiated_rates` array of item `itemId`; returns the number of rates. */
  private rateList(itemId: number): number {
    this.expect(LBRACKET);
    this.ws();
    if (this.b[this.i] === RBRACKET) {
      this.i++;
      return 0;
    }
    let n = 0;
    for (;;) {
      this.ws();
      this.rateObject(itemId, n++);
      this.ws();
      const c = this.b[this.i++];
      if (c === RBRACKET) return n;
      if (c !== COMMA) throw BAIL;
    }
  }

  /** One negotiated rate object: its provider-group ids, then its prices as rows. */
  private rateObject(itemId: number, rateIndex: number): void {
    this.expect(LBRACE);
    this.idCount = -1;
    let prices = 0;
    this.ws();
    if (this.b[this.i] === RBRACE) throw BAIL;
    for (let pos = 0; ; pos++) {
      const id = this.keyOf(RATE_KEYS, this.rateOrder, pos, this.rateKeys);
      if (id === RateKey.ProviderReferences) this.references();
      else if (id === RateKey.NegotiatedPrices) {
        if (this.idCount <= 0) throw BAIL; // prices before the ids, or no id: slow path
        prices = this.priceList(itemId, rateIndex);
        if (prices === 0) throw BAIL;
      } else if (id === RateKey.ProviderGroups) throw BAIL;
      else this.skipValue(0);
      this.ws();
      const c = this.b[this.i++];
      if (c === RBRACE) break;
      if (c !== COMMA) throw BAIL;
    }
    if (prices === 0) throw BAIL;
    this.expanded += prices * this.idCount;
  }

  /** A `provider_references` array: the [start, end) of each id (a number token or a plain string). */
  private references(): void {
    this.expect(LBRACKET);
    this.idCount = 0;
    this.ws();
    if (this.b[this.i] === RBRACKET) {
      this.i++;
      return;
    }
    for (;;) {
      this.ws();
      const c = this.b[this.i]!;
      let s: number;
      let e: number;
      if (c === QUOTE) {
        s = this.str();
        e = this.strEnd;
        // the normaliser trims a string id and drops an empty one (with a problem)
        if (!this.csvSafe || e === s || this.b[s] === SPACE || this.b[e - 1] === SPACE) throw BAIL;
      } else if (c === MINUS || (c >= ZERO && c <= NINE)) {
        s = this.i;
        this.number();
        e = this.i;
      } else throw BAIL;
      this.ids = roomForPair(this.ids, this.idCount);
      this.ids[2 * this.idCount] = s;
      this.ids[2 * this.idCount + 1] = e;
      this.idCount++;
      this.ws();
      const d = this.b[this.i++];
      if (d === RBRACKET) return;
      if (d !== COMMA) throw BAIL;
    }
  }

  /** A `negotiated_prices` array: one row per price; returns their number. */
  private priceList(itemId: number, rateIndex: number): number {
    this.expect(LBRACKET);
    this.ws();
    if (this.b[this.i] === RBRACKET) throw BAIL;
    let k = 0;
    for (;;) {
      this.ws();
      this.price(itemId, rateIndex, k++);
      this.ws();
      const c = this.b[this.i++];
      if (c === RBRACKET) return k;
      if (c !== COMMA) throw BAIL;
    }
  }

  /** One price object, written as its `raw_prices` row (spool-rows.ts SpoolRows.rate). */
  private price(itemId: number, rateIndex: number, k: number): void {
    this.expect(LBRACE);
    let type = -1;
    let cls = -1;
    let setting = -1;
    let rate = NaN;
    let expS = -1;
    let expE = -1;
    let codesS = -1;
    let codesE = -1;
    let modS = -1;
    let modE = -1;
    let infoS = -1;
    let infoE = -1;
    let infoSafe = true;
    this.ws();
    if (this.b[this.i] === RBRACE) throw BAIL;
    for (let pos = 0; ; pos++) {
      switch (this.keyOf(PRICE_KEYS, this.priceOrder, pos, this.priceKeys)) {
        case PriceKey.NegotiatedType:
          type = this.enumOf(this.str(), TYPE_BYTES);
          break;
        case PriceKey.NegotiatedRate: {
          const c = this.b[this.i]!;
          if (c !== MINUS && (c < ZERO || c > NINE)) throw BAIL;
          rate = this.number();
          break;
        }
        case PriceKey.BillingClass:
          cls = this.enumOf(this.str(), CLASS_BYTES);
          break;
        case PriceKey.ServiceCode:
          codesS = this.i;
          this.skipValue(0);
          codesE = this.i;
          break;
        case PriceKey.Modifier:
          modS = this.i;
          this.skipValue(0);
          modE = this.i;
          break;
        case PriceKey.ExpirationDate:
          if (this.isNull()) expS = expE = -1;
          else {
            expS = this.str();
            expE = this.strEnd;
            // trimmed by the normaliser: a surrounding space, or anything to decode, takes the slow path
            if (!this.csvSafe || (expE > expS && (this.b[expS] === SPACE || this.b[expE - 1] === SPACE))) throw BAIL;
          }
          break;
        case PriceKey.Setting:
          if (this.isNull()) setting = -1;
          else {
            const s = this.str();
            setting = this.strEnd === s ? -1 : this.enumOf(s, SETTING_BYTES);
          }
          break;
        case PriceKey.AdditionalInformation:
          if (this.isNull()) infoS = infoE = -1;
          else {
            infoS = this.str();
            infoE = this.strEnd;
            infoSafe = this.csvSafe;
          }
          break;
        default:
          this.skipValue(0);
      }
      this.ws();
      const c = this.b[this.i++];
      if (c === RBRACE) break;
      if (c !== COMMA) throw BAIL;
    }
    // a negative rate is reported by the normaliser (normalize-price.ts)
    if (type < 0 || cls < 0 || !Number.isFinite(rate) || rate < 0) throw BAIL;
    const f = this.prices;
    f.int(this.rows.sourceId); f.sep(); f.int(itemId); f.sep(); f.int(rateIndex); f.sep(); f.int(k); f.sep();
    const ids = this.ids;
    for (let g = 0; g < this.idCount; g++) {
      if (g > 0) f.byte(SEPARATOR);
      f.ascii(this.b, ids[2 * g]!, ids[2 * g + 1]!);
    }
    const v = this.values;
    f.sep();
    f.beginShape();
    f.int(this.classCodes[cls]!); f.byte(SHAPE_SEPARATOR); f.int(this.typeCodes[type]!); f.byte(SHAPE_SEPARATOR);
    f.beginField(); writeCodeList(f, this.b, codesS, codesE, PAD_SERVICE_CODES); f.endField(v); f.byte(SHAPE_SEPARATOR);
    f.beginField(); writeCodeList(f, this.b, modS, modE, PAD_MODIFIERS); f.endField(v); f.byte(SHAPE_SEPARATOR);
    if (expS >= 0) {
      f.beginField(); f.ascii(this.b, expS, expE); f.endField(v);
    }
    f.byte(SHAPE_SEPARATOR);
    if (setting >= 0) f.int(this.settingCodes[setting]!);
    f.endShape(this.shapes);
    f.sep(); f.rate(rate); f.sep();
    if (infoS >= 0) {
      f.beginField();
      if (infoSafe) f.ascii(this.b, infoS, infoE);
      else {
        if (firstInvalidUtf8(this.b, infoS, infoE) >= 0) throw BAIL;
        f.text(JSON.parse(this.utf8(infoS - 1, infoE + 1)) as string);
      }
      f.endField(v);
    }
    f.end();
  }
}
