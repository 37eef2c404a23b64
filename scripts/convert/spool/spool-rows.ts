/**
 * Turns normalised reader values (scripts/mrf/types.ts) into CSV rows of the spool's raw tables
 * (spool.ts documents the columns), buffered and written to files of at most about
 * SPOOL_PART_BYTES per raw table (csv-file.ts, which says the CSV conventions). DuckDB then loads
 * the files in bulk (`read_csv`), far faster than appending value by value. The value columns of
 * `raw_prices` (price-values.ts PRICE_VALUE_COLUMNS) are integer codes, their text in the writer's
 * `raw_values` file; six of them (PRICE_SHAPE_COLUMNS) are written as one code, the price's
 * shape, whose `raw_shapes` row lists their codes (spool.ts).
 */
import { createHash } from 'node:crypto';
import { providerId } from '../../../contract/rules/metrics';
import { PRICE_COLUMN_SPECS, priceColumnsOf } from '../../../contract/files/price-columns';
import type { MrfInNetworkItem, MrfNegotiatedRate, MrfProvider } from '../../mrf/types';
import { CsvFile, SPOOL_PART_BYTES } from './csv-file';
import { GROUP_ID_SEPARATOR, joinGroupIds, splitGroupIds } from './group-ids';
import { PriceValues, SHAPE_SEPARATOR, type PriceValuesMark } from './price-values';

/**
 * The join of the provider_group_ids of one price in `raw_prices` and its inverse (group-ids.ts),
 * for the fast path (fast-rates.ts) and the readers of spool files (scripts/fuzz).
 */
export { GROUP_ID_SEPARATOR, splitGroupIds };

/** Prefix of the synthetic ids given to inline (v1) provider groups, which have none of their own. */
export const INLINE_PREFIX = 'inline:';

/**
 * The price columns SpoolRows.rate writes (contract/files/price-columns.ts), as the `raw_prices` CSV
 * holds them (price-values.ts SPOOL_PRICE_ORDER): the shape's value columns, then the others, a
 * number as the rate, text and code lists as value codes.
 */
const SHAPE_FIELDS = PRICE_COLUMN_SPECS.filter((c) => c.shape).map((c) => ({ field: c.field, codes: c.kind === 'codes' }));
const ROW_FIELDS = PRICE_COLUMN_SPECS.filter((c) => !c.shape).map((c) => ({ field: c.field, kind: c.kind }));

/**
 * The enum price columns whose CMS values every writer codes first (SpoolRows.enumCodes): the
 * negotiated types (codes 0 negotiated, 1 derived, ... which test/convert/price-values.test.ts
 * reads), then the others in table order.
 */
const SEEDED = [...priceColumnsOf('enum')].sort((a, b) => Number(b.name === 'negotiated_type') - Number(a.name === 'negotiated_type'));

/** Names of the raw tables, in spool.ts. */
export const RAW_TABLES = ['raw_prices', 'raw_values', 'raw_shapes', 'raw_items', 'raw_groups'] as const;

/** The spool files of one source written by one thread, in order, by raw table (SpoolRows.close). */
export type SpoolFiles = Partial<Record<(typeof RAW_TABLES)[number], string[]>>;

/** `raw_groups.network_name` of a provider reference: its names (schema 2.0 `network_name`) as a JSON array; null for none. */
export function networkNamesText(names: readonly string[] | undefined): string | null {
  return names && names.length > 0 ? JSON.stringify(names) : null;
}

/** The rows of one source written by one thread; file names `<prefix>-<table>.csv`, then `<prefix>-<table>-<n>.csv`. */
export class SpoolRows {
  readonly files: Record<(typeof RAW_TABLES)[number], CsvFile>;
  /** The codes of the price columns of few values (price-values.ts), into `raw_values`. */
  readonly values: PriceValues;
  /** The codes of the prices' shapes (price-values.ts PRICE_SHAPE_COLUMNS), into `raw_shapes`. */
  readonly shapes: PriceValues;
  /** The codes of the CMS values of the enum price columns (contract/files/price-columns.ts), by value: the fast path writes them directly. */
  readonly enumCodes: ReadonlyMap<string, number>;
  priceRows = 0;
  private readonly inlineSeen = new Set<string>();
  /** The value codes before any was given: a writer that spools no price gives none (close). */
  private readonly noValues: PriceValuesMark;
  private readonly noShapes: PriceValuesMark;

  constructor(prefix: string, readonly sourceId: number) {
    this.files = {
      raw_prices: new CsvFile(`${prefix}-raw_prices`),
      raw_values: new CsvFile(`${prefix}-raw_values`),
      raw_shapes: new CsvFile(`${prefix}-raw_shapes`),
      raw_items: new CsvFile(`${prefix}-raw_items`),
      raw_groups: new CsvFile(`${prefix}-raw_groups`),
    };
    this.values = new PriceValues(this.files.raw_values);
    this.noValues = this.values.mark();
    this.shapes = new PriceValues(this.files.raw_shapes);
    this.noShapes = this.shapes.mark();
    const enums = new Map<string, number>();
    for (const c of SEEDED) for (const v of c.values ?? []) if (!enums.has(v)) enums.set(v, this.values.codeOf(v));
    this.enumCodes = enums;
  }

  /** The number of value codes given (price-values.ts): spool.ts offsets the next writer's by it. */
  get valueCodes(): number {
    return this.values.next;
  }

  /** The number of shape codes given: spool.ts offsets the next writer's by it. */
  get shapeCodes(): number {
    return this.shapes.next;
  }

  /** One `raw_items` row. */
  item(itemId: number, item: MrfInNetworkItem): void {
    const f = this.files.raw_items;
    f.int(this.sourceId); f.sep(); f.int(itemId); f.sep(); f.text(item.billing_code_type); f.sep(); f.text(item.billing_code); f.sep();
    f.text(item.name); f.sep(); f.text(item.description); f.sep(); f.text(item.negotiation_arrangement); f.end();
  }

  /**
   * The `raw_prices` rows of negotiated rate `rateIndex` of item `itemId`: one per price (its
   * index in the rate's list), with the ids of the groups
   * the rate names escaped and joined by GROUP_ID_SEPARATOR (group-ids.ts joinGroupIds; spool.ts
   * `raw_prices`; DuckDB expands them to one row per price x group, never x NPIs). `priceRows`
   * counts the expanded rows.
   */
  rate(itemId: number, rateIndex: number, rate: MrfNegotiatedRate): void {
    const ids = rate.provider_references.length > 0 && rate.provider_groups.length === 0
      ? rate.provider_references
      : [...rate.provider_references, ...rate.provider_groups.map((g) => this.inlineGroup(g))];
    const groups = joinGroupIds(ids);
    const f = this.files.raw_prices;
    const v = this.values;
    for (let k = 0; k < rate.prices.length; k++) {
      const p = rate.prices[k]!;
      f.int(this.sourceId); f.sep(); f.int(itemId); f.sep(); f.int(rateIndex); f.sep(); f.int(k); f.sep();
      f.text(groups); f.sep();
      const fields = p as unknown as Record<string, string | number | string[]>;
      f.beginShape();
      for (let j = 0; j < SHAPE_FIELDS.length; j++) {
        const c = SHAPE_FIELDS[j]!;
        if (j > 0) f.byte(SHAPE_SEPARATOR);
        f.beginField();
        if (c.codes) f.codes(fields[c.field] as string[]);
        else f.text(fields[c.field] as string);
        f.endField(v);
      }
      f.endShape(this.shapes);
      for (const c of ROW_FIELDS) {
        f.sep();
        if (c.kind === 'number') {
          f.rate(fields[c.field] as number);
          continue;
        }
        f.beginField();
        if (c.kind === 'codes') f.codes(fields[c.field] as string[]);
        else f.text(fields[c.field] as string);
        f.endField(v);
      }
      f.end();
    }
    this.priceRows += rate.prices.length * Math.max(1, ids.length);
  }

  /**
   * One `raw_groups` row per provider; a remote or empty group has one row without provider.
   * `refIndex`: the group's `provider_references[]` element index (null for an inline or fetched
   * group), so that ingest-file.ts drops the groups of a root array a second one superseded.
   * `networks`: the reference's `network_name` list (schema 2.0) as JSON (networkNamesText), null
   * without one; the build keeps the groups of the networks a catalog entry asks for (build-networks.ts).
   */
  group(groupId: string, p: MrfProvider | null, remote: string | null, refIndex: number | null = null, networks: string | null = null): void {
    const f = this.files.raw_groups;
    f.int(this.sourceId); f.sep(); f.text(groupId, true); f.sep(); f.text(p ? providerId(p.npi, p.tin_value) : null); f.sep();
    f.text(p?.npi); f.sep(); f.text(p?.tin_type); f.sep(); f.text(p?.tin_value); f.sep(); f.text(remote); f.sep();
    f.text(networks); f.sep();
    if (refIndex !== null) f.int(refIndex);
    f.end();
  }

  /** Stores an inline provider group once per writer under an id derived from its content. */
  private inlineGroup(providers: MrfProvider[]): string {
    const key = providers.map((p) => `${p.npi ?? ''}|${p.tin_type}|${p.tin_value}`).sort().join(';');
    const id = INLINE_PREFIX + createHash('sha1').update(key).digest('hex').slice(0, 16);
    if (!this.inlineSeen.has(id)) {
      this.inlineSeen.add(id);
      for (const p of providers) this.group(id, p, null);
    }
    return id;
  }

  /** Starts new parts of the files that are full (CsvFile.nextPart): call after a batch. */
  endBatch(partBytes = SPOOL_PART_BYTES): void {
    for (const name of RAW_TABLES) this.files[name].nextPart(partBytes);
  }

  /** Flushes and closes every file; returns the paths of the parts that have rows, by table. */
  close(): SpoolFiles {
    // the codes serve prices only: without any (groups, items), not even the seeded enums are kept
    if (this.files.raw_prices.rows === 0) {
      this.values.rollback(this.noValues);
      this.shapes.rollback(this.noShapes);
    }
    const out: SpoolFiles = {};
    for (const name of RAW_TABLES) {
      const parts = this.files[name].close();
      if (parts.length > 0) out[name] = parts;
    }
    return out;
  }
}
