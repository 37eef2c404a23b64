/**
 * The columns of a negotiated price: one entry per field of the CMS in-network schema's Negotiated
 * Price object (`negotiated_prices[]`) the dataset keeps. The converter's normaliser, spool and
 * tables, the dataset's `rates` columns, the worker's rate rows and their screen derive their lists,
 * schemas, SQL and types from PRICE_COLUMNS (docs/dataset.md, Data dictionary: `rates`).
 *
 * The order is the order of the `rates` columns (contract/files/dataset.ts COLUMNS.rates) and of the
 * converter's `raw_prices` spool (scripts/convert/spool/spool.ts). `kind` decides how a module treats a
 * column: an `enum` holds CMS values (lower case; `values`), `text` free text, `codes` a code list
 * (upper case, sorted, without repeats; comma-separated in the dataset, '' when none), `number`
 * the rate (USD, or percent for `percentage`). No Node imports: the converter, the worker and the
 * app share it.
 */

/** What a price column holds: CMS enum text, free text, a code list or a number. */
export type PriceColumnKind = 'enum' | 'text' | 'codes' | 'number';

/**
 * How the worker's rate rows (workers/api/rate-rows.ts; docs/methodology.md, Rows that count:
 * identical rows once) treat a column: `key` a column of the row's identity, `key_lower` the same
 * compared in lower case, `min` the least value of the identical rows; null: not in the rows.
 */
export type RateRowsAggregate = 'key' | 'key_lower' | 'min';

/** One price column (PRICE_COLUMNS). */
export interface PriceColumnSpec {
  /** Column of the dataset's `rates` and of the converter's `raw_prices`. */
  name: string;
  /** Field of the CMS Negotiated Price object it is read from. */
  field: string;
  kind: PriceColumnKind;
  /** `enum`: the CMS values, lower case; any other value is kept and reported (normalize-price.ts). */
  values: readonly string[] | null;
  /** `enum`: a missing or empty value is a problem (else it is '' and no problem). */
  required: boolean;
  /** `text`: any scalar is taken as text and trimmed (else a string is kept as written, anything else ''). */
  trim: boolean;
  /** `codes`: a one-digit code is padded to two (place-of-service codes). */
  pad: boolean;
  /** Part of a price's shape (scripts/convert/spool/price-values.ts PRICE_SHAPE_COLUMNS). */
  shape: boolean;
  /** DuckDB type in `rates` (text columns are VARCHAR, code lists comma-separated). */
  sqlType: 'VARCHAR' | 'DOUBLE';
  rateRows: RateRowsAggregate | null;
  /** Field of the rate rows' records (contract/api/live.ts RateRowRecord); null when not in them. */
  api: string | null;
  /** Header of its column in the rate rows' table on screen; null: not on screen (the CSV has every `api` field). */
  label: string | null;
  /** Columns of `rates` from elsewhere (the item, the groups) that follow this one in the file. */
  ratesNext: readonly string[];
}

/** The price columns, in `rates` order. */
export const PRICE_COLUMNS = [
  // lower-cased: professional, institutional, both (`both` since CMS v1.4.0); on screen in the row's unit badge
  { name: 'billing_class', field: 'billing_class', kind: 'enum', values: ['professional', 'institutional', 'both'], required: true,
    trim: false, pad: false, shape: true, sqlType: 'VARCHAR', rateRows: 'key', api: 'billing_class', label: null, ratesNext: [] },
  // lower-cased (per diem since CMS v1.0.0)
  { name: 'negotiated_type', field: 'negotiated_type', kind: 'enum', values: ['negotiated', 'derived', 'fee schedule', 'percentage', 'per diem'],
    required: true, trim: false, pad: false, shape: true, sqlType: 'VARCHAR', rateRows: 'key_lower', api: 'negotiated_type', label: 'Type',
    ratesNext: [] },
  // USD, or percent for `percentage`; a finite JSON number, else the price is dropped
  { name: 'negotiated_rate', field: 'negotiated_rate', kind: 'number', values: null, required: true, trim: false, pad: false, shape: false,
    sqlType: 'DOUBLE', rateRows: 'key', api: 'negotiated_rate', label: 'Rate', ratesNext: ['provider_group_ids'] },
  // place-of-service codes, two digits
  { name: 'service_codes', field: 'service_code', kind: 'codes', values: null, required: false, trim: false, pad: true, shape: true,
    sqlType: 'VARCHAR', rateRows: 'key', api: 'service_codes', label: 'Place of service', ratesNext: [] },
  { name: 'modifiers', field: 'billing_code_modifier', kind: 'codes', values: null, required: false, trim: false, pad: false, shape: true,
    sqlType: 'VARCHAR', rateRows: 'key', api: 'modifiers', label: 'Modifiers', ratesNext: [] },
  { name: 'expiration_date', field: 'expiration_date', kind: 'text', values: null, required: false, trim: true, pad: false, shape: true,
    sqlType: 'VARCHAR', rateRows: 'min', api: 'expiration_date', label: null, ratesNext: [] },
  // CMS v2 `setting`; '' when absent
  { name: 'setting', field: 'setting', kind: 'enum', values: ['inpatient', 'outpatient', 'both'], required: false, trim: false, pad: false,
    shape: true, sqlType: 'VARCHAR', rateRows: null, api: null, label: null, ratesNext: ['negotiation_arrangement'] },
  // free text in some files: a code of its own, no shape
  { name: 'additional_information', field: 'additional_information', kind: 'text', values: null, required: false, trim: false, pad: false,
    shape: false, sqlType: 'VARCHAR', rateRows: null, api: null, label: null, ratesNext: [] },
] as const satisfies readonly PriceColumnSpec[];

/** PRICE_COLUMNS with every field of PriceColumnSpec, for code that reads them alike. */
export const PRICE_COLUMN_SPECS: readonly PriceColumnSpec[] = PRICE_COLUMNS;

export type PriceColumn = (typeof PRICE_COLUMNS)[number];
export type PriceColumnName = PriceColumn['name'];

/** The `rates` column names of the price columns, in order. */
export const PRICE_COLUMN_NAMES: readonly PriceColumnName[] = PRICE_COLUMNS.map((c) => c.name);

/** The price columns of a kind, in order. */
export function priceColumnsOf(kind: PriceColumnKind): readonly PriceColumnSpec[] {
  return PRICE_COLUMN_SPECS.filter((c) => c.kind === kind);
}

/** The entry of price column `name`. @throws when no price column has that name. */
export function priceColumn(name: string): PriceColumnSpec {
  const c = PRICE_COLUMN_SPECS.find((x) => x.name === name);
  if (!c) throw new Error(`no price column ${name}`);
  return c;
}

/** The value of a price field as normalised: a number, a code list, or text. */
type FieldValue<C extends PriceColumn> = C['kind'] extends 'number' ? number : C['kind'] extends 'codes' ? string[] : string;

/** A Negotiated Price object normalised (scripts/mrf/types.ts MrfPrice), by CMS field name. */
export type NormalizedPrice = { [C in PriceColumn as C['field']]: FieldValue<C> };

/** The price columns in the rate rows, by `api` field. */
type RateRowColumn = Extract<PriceColumn, { api: string }>;

/**
 * The price fields of a rate row record (contract/api/live.ts RateRowRecord): a number, or text
 * (code lists comma-separated, '' when none); a `min` column is null when no row has a value.
 */
export type RateRowPriceFields = {
  [C in RateRowColumn as C['api']]: (C['kind'] extends 'number' ? number : string) | (C['rateRows'] extends 'min' ? null : never);
};

/** The price columns in the rate rows (`api` set), in order. */
export const RATE_ROW_PRICE_COLUMNS: readonly (PriceColumnSpec & { api: keyof RateRowPriceFields })[] =
  PRICE_COLUMN_SPECS.filter((c): c is PriceColumnSpec & { api: keyof RateRowPriceFields } => c.api !== null && c.rateRows !== null);
